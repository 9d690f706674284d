#!/usr/bin/env bash
# Times `robotscan report` on a synthetic crawl database (default 1,000,000
# domains, built once by make_synthetic_crawl) in every output format, and
# reports wall time, CPU time and peak RSS (GNU time).
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
robotscan="$build/tools/robotscan/robotscan"
generator="$build/bench/report/make_synthetic_crawl"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [[ ! -f "$db" ]]; then
  echo "building $db ($domains domains)"
  /usr/bin/time -f "  generate: %e s wall, %M KiB peak RSS" \
    "$generator" "$db" "$domains" 1 "$permille"
fi
echo "database: $db ($(du -h "$db" | cut -f1))"
echo "distinct bodies: $(sqlite3 "$db" 'SELECT count(*) FROM body' 2>/dev/null || echo '?')"
for format in json html text markdown; do
  /usr/bin/time -f "  report --format $format: %e s wall, %U s user, %S s sys, %M KiB peak RSS" \
    "$robotscan" report --db "$db" --format "$format" --out "$out/report.$format"
done
ls -l "$out"
