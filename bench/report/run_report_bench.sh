#!/usr/bin/env bash
# Times `robotscan report` on a synthetic crawl database (default 1,000,000
# domains, built once by make_synthetic_crawl) in every output format, with
# the parser-sensitivity part (the default) and without it, and compared with
# a second synthetic database of the same size (another seed: other files,
# outcomes and sitemaps for the same domains). Reports wall time, CPU time
# and peak RSS (GNU time).
#
#   bench/report/run_report_bench.sh [BUILD_DIR] [DOMAINS] [DB] [TEMPLATE_PERMILLE]
#
# BUILD_DIR must contain the robotscan and make_synthetic_crawl targets:
#   cmake --build BUILD_DIR --target robotscan make_synthetic_crawl
set -euo pipefail
build=${1:-build/rp}
domains=${2:-1000000}
permille=${4:-650}
db=${3:-/tmp/robotscan-report-bench-${domains}-${permille}.sqlite}
older=${db%.sqlite}-older.sqlite
robotscan="$build/tools/robotscan/robotscan"
generator="$build/bench/report/make_synthetic_crawl"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for side in "$db:1" "$older:2"; do
  file=${side%:*}
  seed=${side##*:}
  if [[ ! -f "$file" ]]; then
    echo "building $file ($domains domains, seed $seed)"
    /usr/bin/time -f "  generate: %e s wall, %M KiB peak RSS" \
      "$generator" "$file" "$domains" "$seed" "$permille"
  fi
done
echo "database: $db ($(du -h "$db" | cut -f1)), older: $older ($(du -h "$older" | cut -f1))"
echo "distinct bodies: $(sqlite3 "$db" 'SELECT count(*) FROM body' 2>/dev/null || echo '?')"
run() {
  local label=$1
  shift
  /usr/bin/time -f "  $label: %e s wall, %U s user, %S s sys, %M KiB peak RSS" \
    "$robotscan" report --db "$db" "$@"
}
for format in json html text markdown; do
  run "report --format $format" --format "$format" --out "$out/report.$format"
done
run "report --format json --no-sensitivity" --format json --no-sensitivity \
  --out "$out/plain.json"
run "report --format html --compare OLDER" --format html --compare "$older" \
  --out "$out/compare.html"
run "report --format json --compare OLDER" --format json --compare "$older" \
  --out "$out/compare.json"
run "report --format csv --table compare-crawlers --compare OLDER" --format csv \
  --table compare-crawlers --compare "$older" --out "$out/compare.csv"
ls -l "$out"
