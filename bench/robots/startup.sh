#!/usr/bin/env bash
# Whole-program benchmark: how long `robotscan check`, `lint` and `--version`
# take to start, against /bin/true (the cost of any process) in the same
# hyperfine run, and, when given, an older robotscan binary for comparison.
# Prints hyperfine's table and each command's median, and the dynamic
# loader's statistics for `check`.
#
# usage: bench/robots/startup.sh [BUILD_DIR] [OLD_ROBOTSCAN]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/default}
old=${2:-}
robotscan="$build/tools/robotscan/robotscan"
[ -x "$robotscan" ] || { echo "build first: $robotscan missing" >&2; exit 2; }
command -v hyperfine >/dev/null ||
  { echo "hyperfine missing: scripts/bootstrap --extras" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n' > "$tmp/small.txt"

commands=(/bin/true
  "$robotscan check --robots-file $tmp/small.txt --user-agent a /x"
  "$robotscan --version"
  "$robotscan lint $tmp/small.txt")
if [ -n "$old" ]; then
  commands+=("$old check --robots-file $tmp/small.txt --user-agent a /x"
             "$old --version")
fi

echo "shared objects loaded by robotscan: $(ldd "$robotscan" | wc -l)" \
     "(old: $([ -n "$old" ] && ldd "$old" | wc -l || echo -))"
LD_DEBUG=statistics "$robotscan" check --robots-file "$tmp/small.txt" \
  --user-agent a /x 2>&1 >/dev/null | grep -m2 -E "total startup time|relocations:" || true
hyperfine -N --warmup 20 --runs 500 --export-json "$tmp/startup.json" \
  "${commands[@]}"
python3 - "$tmp/startup.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
for r in results:
    print(f"median {r['median'] * 1000:6.2f} ms  ({r['median'] / base:4.1f}x /bin/true)  {r['command']}")
PY
