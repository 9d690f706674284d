#!/bin/sh
# Whole-program benchmark of `regexguard scan` on real source trees: one run
# with an empty analysis cache (cold) and one right after it (warm), both
# with --jobs 2 --show-info --stats. Prints a Markdown table row per run and
# keeps the findings in OUT_DIR/<tree>.{cold,warm}.txt for review.
#
# Usage: scan_bench.sh REGEXGUARD_BINARY [TREE...]
#   default trees: /usr/lib/python3.11, and /tmp/rg-node/node_modules when it
#   exists (npm install --prefix /tmp/rg-node --ignore-scripts eslint webpack
#   typescript lodash moment express)
# Environment: OUT_DIR (default /tmp/regexguard-scan-bench), JOBS (default 2).
set -eu

rg=$1
shift
if [ $# -eq 0 ]; then
  set -- /usr/lib/python3.11
  [ -d /tmp/rg-node/node_modules ] && set -- "$@" /tmp/rg-node/node_modules
fi
out=${OUT_DIR:-/tmp/regexguard-scan-bench}
jobs=${JOBS:-2}
mkdir -p "$out"

echo "| tree | cache | files | regexes (distinct) | analysed | errors | warnings | notes | seconds | files/s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for tree in "$@"; do
  name=$(echo "$tree" | tr '/' '_' | sed 's/^_//')
  cache="$out/$name.cache"
  rm -rf "$cache"
  for run in cold warm; do
    # Exit status 1 just means findings.
    "$rg" scan --jobs "$jobs" --show-info --stats --no-config \
      --cache-dir "$cache" "$tree" >"$out/$name.$run.txt" \
      2>"$out/$name.$run.stats" || [ $? -eq 1 ]
    stats=$(grep 'regexguard: stats:' "$out/$name.$run.stats")
    field() { echo "$stats" | sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
    files=$(field files)
    seconds=$(field seconds)
    rate=$(awk -v f="$files" -v s="$seconds" 'BEGIN { printf "%.0f", f / (s > 0 ? s : 0.001) }')
    echo "| $tree | $run | $files | $(field regexes) ($(field distinct)) | $(field analysed) | $(field errors) | $(field warnings) | $(field notes) | $seconds | $rate |"
  done
done
