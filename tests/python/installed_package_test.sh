#!/usr/bin/env bash
# Installs the Python component into a temporary prefix and checks the
# installed copy, away from the source and build trees: it imports from the
# prefix, answers, and pytest loads --regexguard from its entry point.
#
# usage: installed_package_test.sh BUILD_DIR PYTHON INSTALL_DIR SOURCE_TESTS_DIR
set -euo pipefail
build_dir=$1
python=$2
install_dir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --component python --prefix "$work/prefix" >/dev/null
site="$work/prefix/$install_dir"
test -f "$site/robotscan/__init__.py"
test -f "$site/robotscan/_robotscan.pyi"
ls "$site"/robotscan/_robotscan*.so >/dev/null
test -f "$site"/robotscan-*.dist-info/entry_points.txt

cd "$work"
export PYTHONPATH="$site"
"$python" - "$site" <<'PY'
import sys
import robotscan
from robotscan import robotparser, regexguard
assert robotscan.__file__.startswith(sys.argv[1]), robotscan.__file__
robots = robotscan.RobotsTxt.parse(b"User-agent: *\nDisallow: /x\n")
assert robots.check("bot", "/x/1").rule == "disallow: /x"
parser = robotparser.RobotFileParser()
parser.parse(["User-agent: *", "Disallow: /x"])
assert parser.can_fetch("bot", "/y") and not parser.can_fetch("bot", "/x")
assert regexguard.analyze("(a+)+$").verdict == "exponential"
print("installed package:", robotscan.__file__, robotscan.__version__)
PY

mkdir suite
cat > suite/test_runtime_pattern.py <<'PY'
import re

def test_compiles_at_run_time():
    assert re.compile("(" + "a" + "+)+$").match("aa")
PY
set +e
output=$("$python" -m pytest -p no:cacheprovider --regexguard suite 2>&1)
status=$?
set -e
echo "$output" | tail -n 8
if [ "$status" -ne 1 ] || ! grep -q "1 regexguard error" <<<"$output"; then
  echo "installed_package_test: pytest --regexguard did not fail the run (exit $status)" >&2
  exit 1
fi
echo "installed_package_test: ok"
