#!/usr/bin/env bash
# Whole-program benchmark: `robotscan check --urls-file` against a peer doing
# the same job (Python's urllib.robotparser), side by side in one run, on the
# realistic 54 KB robots.txt and 100,000 URLs. Prints wall time, peak RSS,
# URLs/s and the ratio, plus how often the two verdicts agree.
#
# usage: bench/robots/compare_check.sh [BUILD_DIR] [N_URLS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/default}
n=${2:-100000}
robotscan="$build/tools/robotscan/robotscan"
[ -x "$robotscan" ] || { echo "build first: $robotscan missing" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
robots=bench/data/realistic-50k.txt
python3 bench/robots/make_urls.py "$robots" "$n" > "$tmp/urls.txt"

measure() {  # name, command...
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$tmp/$name.time" "$@" > "$tmp/$name.out" || true
  read -r secs rss < <(tail -n 1 "$tmp/$name.time")
  printf '%-28s %8.2f s %8d KiB %12.0f URLs/s\n' "$name" "$secs" "$rss" \
    "$(python3 -c "print($n / max($secs, 0.001))")"
  echo "$secs" > "$tmp/$name.secs"
}

echo "robots.txt: $robots ($(wc -c < "$robots") bytes), $n URLs, agent Googlebot"
measure robotscan "$robotscan" check --robots-file "$robots" --user-agent Googlebot \
  --compat google --urls-file "$tmp/urls.txt"
measure python-urllib.robotparser python3 bench/robots/peer_robotparser.py \
  "$robots" Googlebot "$tmp/urls.txt"
python3 - "$tmp" <<'PY'
import sys
tmp = sys.argv[1]
a = float(open(f"{tmp}/robotscan.secs").read())
b = float(open(f"{tmp}/python-urllib.robotparser.secs").read())
ours = [l.split("\t")[0] for l in open(f"{tmp}/robotscan.out")]
peer = [l.split("\t")[0] for l in open(f"{tmp}/python-urllib.robotparser.out")]
same = sum(x == y for x, y in zip(ours, peer))
print(f"ratio (peer time / robotscan time): {b / max(a, 0.001):.1f}x")
print(f"verdicts agree on {same}/{len(ours)} URLs "
      "(urllib.robotparser applies the first matching rule, not the longest, "
      "and ignores '*' and '$')")
PY
