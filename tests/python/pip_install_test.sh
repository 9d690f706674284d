#!/usr/bin/env bash
# The Python package as a Python user installs it, offline, from a checkout
# (docs/python.md, "Installing"):
#   1. python3 -m build --no-isolation --wheel ./python   (Debian python3-build)
#      then the wheel into a fresh `python3 -m venv --system-site-packages`,
#      where the package's own pytest suite (with the plugin loaded through
#      its pytest11 entry point) and CPython's test_robotparser run against
#      the installed copy, never the source or build tree; pip show and pip
#      uninstall work;
#   2. python3 -m pip install --no-build-isolation ./python   (another venv);
#   3. python3 -m pip install --no-build-isolation -e ./python (another venv):
#      the source's .py files are what is imported.
# The backend builds the extension once in build/python-<tag>-<key> (reused by
# the later steps).
#
# usage: pip_install_test.sh PYTHON REPO [ROBOTSCAN_CLI]
set -euo pipefail
python=$1
repo=$2
cli=${3:-}
work=$(mktemp -d)
# Readable by all: test_crawl.py reads a database as nobody, through this venv.
chmod 755 "$work"
# The editable install copies the extension next to the sources; remove it
# again unless it was there before (a developer's own editable install).
editable_so=("$repo"/python/robotscan/_robotscan*.so)
had_editable_so=0
[ -e "${editable_so[0]}" ] && had_editable_so=1
cleanup() {
  rm -rf "$work"
  [ "$had_editable_so" = 1 ] || rm -f "$repo"/python/robotscan/_robotscan*.so
}
trap cleanup EXIT
unset PYTHONPATH
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
step() { echo "== pip_install_test: $* =="; }

step "1. python3 -m build --no-isolation --wheel"
"$python" -m build --no-isolation --wheel --outdir "$work/dist" "$repo/python"
wheel=$(ls "$work"/dist/robotscan-*.whl)
echo "built $(basename "$wheel")"

"$python" -m venv --system-site-packages "$work/venv"
venv_python="$work/venv/bin/python"
"$venv_python" -m pip install --no-deps "$wheel"
"$venv_python" -m pip show robotscan | grep -E '^(Name|Version|Location):'
# Away from the checkout, the installed copy answers, with its version and
# its pytest plugin's entry point.
(cd "$work" && "$venv_python" - "$work/venv" "$repo" <<'PY'
import importlib.metadata as metadata
import re
import sys

import robotscan

venv, repo = sys.argv[1], sys.argv[2]
assert robotscan.__file__.startswith(venv), robotscan.__file__
cmake = open(f"{repo}/CMakeLists.txt", encoding="utf-8").read()
version = re.search(r"project\(\s*robotscan\s+VERSION\s+([0-9.]+)", cmake).group(1)
assert robotscan.__version__ == version == metadata.version("robotscan"), (
    robotscan.__version__, version, metadata.version("robotscan"))
plugins = [e for e in metadata.entry_points(group="pytest11")
           if e.value == "robotscan.pytest_plugin"]
assert plugins, "no pytest11 entry point for robotscan.pytest_plugin"
files = metadata.files("robotscan")
assert any(str(f).endswith("py.typed") for f in files), files
assert robotscan.RobotsTxt.parse(b"User-agent: *\nDisallow: /x\n").check(
    "bot", "/x/1").rule == "disallow: /x"
print("installed:", robotscan.__file__, robotscan.__version__)
PY
)
# The package's suite and CPython's robotparser tests, against that copy
# (run from the venv, outside the tree: nothing but the install is found).
(cd "$work" && ROBOTSCAN_CLI="$cli" "$venv_python" -m pytest -q -rs \
  -p no:cacheprovider --regexguard "$repo/tests/python")
(cd "$work" && "$venv_python" "$repo/tests/python/cpython_test_robotparser.py")
"$venv_python" -m pip uninstall -y robotscan
if (cd "$work" && "$venv_python" -c "import robotscan" 2>/dev/null); then
  echo "pip_install_test: robotscan still importable after pip uninstall" >&2
  exit 1
fi

step "2. python3 -m pip install --no-build-isolation ./python"
"$python" -m venv --system-site-packages "$work/venv2"
"$work/venv2/bin/python" -m pip install --no-build-isolation "$repo/python"
(cd "$work" && "$work/venv2/bin/python" -c "
import sys, robotscan
assert robotscan.__file__.startswith('$work/venv2'), robotscan.__file__
print('installed:', robotscan.__file__)")

step "3. python3 -m pip install --no-build-isolation -e ./python"
"$python" -m venv --system-site-packages "$work/venv3"
"$work/venv3/bin/python" -m pip install --no-build-isolation -e "$repo/python"
(cd "$work" && "$work/venv3/bin/python" -c "
import os, robotscan
source = os.path.realpath('$repo/python/robotscan/__init__.py')
assert os.path.realpath(robotscan.__file__) == source, robotscan.__file__
assert robotscan.RobotsTxt.parse(b'User-agent: *\nDisallow: /\n').check('b', '/').allowed is False
print('editable:', os.path.realpath(robotscan.__file__))")
"$work/venv3/bin/python" -m pip uninstall -y robotscan
echo "pip_install_test: ok"
