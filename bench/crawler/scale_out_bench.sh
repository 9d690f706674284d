#!/usr/bin/env bash
# Scale-out benchmark (issue 14), loopback only, bounded in time: the same
# list of N synthetic domains (d1.bench ... dN.bench, pinned to one nginx on
# 127.0.0.1 with --connect-to, http only, no per-IP cap) crawled
#   * by one `robotscan crawl` into SQLite (the baseline),
#   * by one `robotscan crawl` into PostgreSQL (the backend's cost per record),
#   * by 1, 2 and 4 `robotscan crawl --worker` processes of one enqueued crawl
#     (`robotscan enqueue`), the total concurrency shared out among them,
# each into a fresh database of a local PostgreSQL 15 cluster started here
# (tests/pg/pg_test_cluster.sh, durable settings: fsync on,
# synchronous_commit=off) and torn down at the end. Prints wall time,
# domains/s, the whole machine's CPU seconds (/proc/stat) and the CPU
# seconds of the benchmark's own processes (robotscan, PostgreSQL, nginx:
# the machine is shared, so only this one is free of others' work) per run,
# then the writer micro-benchmark on both backends (crawl_store_bench).
#
# With --delay-ms D the server is bench/crawler/delay_server instead of
# nginx: every answer comes D ms after its request, as from a far-away host
# (the internet's 0.2-2 s), so a crawl is bound by its in-flight transfers
# (Little's law: at most concurrency / D domains per second) rather than by
# this machine's two cores. --per-worker gives every worker the whole
# --concurrency instead of a share of it: adding a worker then adds
# transfers in flight, as adding a crawler host does.
#
#   bench/crawler/scale_out_bench.sh [--domains N] [--concurrency C]
#                                    [--delay-ms D] [--per-worker]
#                                    [--build DIR] [--no-writer-bench]
set -euo pipefail
cd "$(dirname "$0")/../.."

domains=100000
concurrency=500
build=build/bench
delay_ms=0
per_worker=0
writer_bench=1
while [ $# -gt 0 ]; do
  case "$1" in
    --domains) domains="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --delay-ms) delay_ms="$2"; shift 2 ;;
    --per-worker) per_worker=1; shift ;;
    --no-writer-bench) writer_bench=0; shift ;;
    *) echo "scale_out_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/tools/robotscan/robotscan"
bench_bin="$build/bench/storage/crawl_store_bench"
if [ ! -x "$bin" ] || [ ! -x "$bench_bin" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DROBOTSCAN_BUILD_TESTS=OFF -DROBOTSCAN_BUILD_BENCHMARKS=ON >/dev/null
  cmake --build "$build" --target robotscan crawl_store_bench delay_server \
    -j "$(nproc)"
fi
delay_bin="$build/bench/crawler/delay_server"

work=$(mktemp -d /tmp/robotscan-scale.XXXXXX)
cleanup() {
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  [ -n "${delay_pid:-}" ] && kill "$delay_pid" 2>/dev/null || true
  tests/pg/pg_test_cluster.sh stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

port=$((20000 + RANDOM % 20000))
mkdir -p "$work/www" "$work/logs"
printf 'User-agent: *\nDisallow: /private\n' > "$work/www/robots.txt"
chmod 755 "$work" "$work/www"; chmod 644 "$work/www/robots.txt"
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log error;
events { worker_connections 16384; multi_accept on; }
worker_rlimit_nofile 65536;
http {
  access_log off;
  keepalive_timeout 0;
  client_body_temp_path $work/logs;
  proxy_temp_path $work/logs;
  fastcgi_temp_path $work/logs;
  uwsgi_temp_path $work/logs;
  scgi_temp_path $work/logs;
  server {
    listen 127.0.0.1:$port backlog=8192 reuseport;
    root $work/www;
  }
}
NGINX
if [ "$delay_ms" -gt 0 ]; then
  "$delay_bin" --port "$port" --delay-ms "$delay_ms" --lifetime 7200 >/dev/null &
  delay_pid=$!
  sleep 0.3
  echo "$delay_pid" > "$work/server.pid"
else
  nginx -c "$work/nginx.conf" -p "$work"
  cp "$work/nginx.pid" "$work/server.pid"
fi
PG_CLUSTER_DURABLE=1 tests/pg/pg_test_cluster.sh start "$work/pg" >/dev/null
if [ ! -f "$work/pg/uri" ]; then
  echo "scale_out_bench.sh: PostgreSQL did not start: $(cat "$work/pg/skip")" >&2
  exit 1
fi
admin=$(cat "$work/pg/uri")
new_db() {  # new_db NAME: prints the URI of a fresh database
  psql "$admin" -qc "CREATE DATABASE $1" >/dev/null
  echo "${admin/\/postgres?//$1?}"
}
# A finished run's database is dropped before the next run starts: its
# autovacuum (a crawl leaves 100,000s of dead rows) would otherwise run
# during, and be counted in, the next one.
drop_db() {
  psql "$admin" -qc "DROP DATABASE $1" >/dev/null
}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
awk -v n="$domains" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,d%d.bench\n", i, i }' \
  > "$work/list.csv"
fetch_flags=(--connect-to "::127.0.0.1:$port" --allow-private-addresses
             --schemes http --quiet)
# The per-IP cap is the crawl's for workers (set by enqueue below).
single_flags=("${fetch_flags[@]}" --per-ip-limit 0)

machine_cpu() {  # user+nice+system jiffies of the whole machine, in seconds
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f", ($2 + $3 + $4) / hz }' /proc/stat
}
# CPU seconds of this benchmark's own processes only (the machine is shared):
# the robotscan processes this shell waited for, PostgreSQL (the postmaster,
# its live children, and its exited backends through cutime/cstime) and
# the HTTP server (nginx's master and worker, or the delay server).
pg_pid=$(head -1 "$(cat "$work/pg/server_dir")/data/postmaster.pid")
nginx_pid=$(cat "$work/server.pid")
own_cpu() {  # own_cpu TIMES_FILE (the output of `times` in this shell)
  local pids
  pids="$pg_pid $nginx_pid $(pgrep -P "$pg_pid" | tr '\n' ' ') $(pgrep -P "$nginx_pid" | tr '\n' ' ')"
  local kids
  kids=$(tail -1 "$1")
  # shellcheck disable=SC2086
  awk -v hz="$(getconf CLK_TCK)" -v pg="$pg_pid" -v kids="$kids" '
    function secs(t,  m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
    { sub(/^.*\) /, ""); total += $12 + $13; if (FILENAME ~ "/" pg "/stat$") total += $14 + $15 }
    END { split(kids, k, " "); printf "%.2f", total / hz + secs(k[1]) + secs(k[2]) }' \
    $(for p in $pids; do [ -r "/proc/$p/stat" ] && echo "/proc/$p/stat"; done)
}
# run LABEL COMMAND...: prints wall, domains/s and machine CPU; sets RATE.
run() {
  local label="$1"; shift
  local cpu0 t0 t1 cpu1 own0 own1
  times >"$work/times"; cpu0=$(machine_cpu); own0=$(own_cpu "$work/times"); t0=$(date +%s.%N)
  "$@" >"$work/out.txt" 2>"$work/err.txt" || { echo "!! $label failed"; tail -5 "$work/err.txt"; }
  t1=$(date +%s.%N); times >"$work/times"; cpu1=$(machine_cpu); own1=$(own_cpu "$work/times")
  awk -v l="$label" -v a="$t0" -v b="$t1" -v c="$cpu0" -v d="$cpu1" -v n="$domains" \
    -v e="$own0" -v f="$own1" \
    'BEGIN { printf "%-44s %8.2f s %9.0f /s  machine cpu %7.2f s  own cpu %7.2f s (%.0f us/domain)\n", l, b - a, n / (b - a), d - c, f - e, (f - e) / n * 1e6 }'
  RATE=$(awk -v a="$t0" -v b="$t1" -v n="$domains" 'BEGIN { printf "%.0f", n / (b - a) }')
}

worker_concurrency() {  # worker_concurrency N: each worker's share
  if [ "$per_worker" = 1 ]; then echo "$concurrency"; else echo $((concurrency / $1)); fi
}
workers() {  # workers N URI: N workers sharing the concurrency, waited for
  local n="$1" uri="$2" pids=() i
  for i in $(seq 1 "$n"); do
    "$bin" crawl --worker --db "$uri" "${fetch_flags[@]}" \
      --concurrency "$(worker_concurrency "$n")" >"$work/w$i.out" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
}

if [ "$delay_ms" -gt 0 ]; then
  server_text="delay server, every answer after $delay_ms ms"
else
  server_text="nginx, no delay"
fi
if [ "$per_worker" = 1 ]; then share_text="concurrency $concurrency per worker"; else share_text="total concurrency $concurrency"; fi
echo "== scale-out benchmark: $domains domains, $server_text, $share_text, $(nproc) cores, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg) =="
run "crawl into SQLite (1 process)" \
  "$bin" crawl "$work/list.csv" --db "$work/a.sqlite" "${single_flags[@]}" \
  --concurrency "$concurrency"
sqlite_rate=$RATE
uri=$(new_db single)
run "crawl into PostgreSQL (1 process)" \
  "$bin" crawl "$work/list.csv" --db "$uri" "${single_flags[@]}" \
  --concurrency "$concurrency"
pg_rate=$RATE
drop_db single
declare -A worker_rate
for n in 1 2 4; do
  uri=$(new_db "workers$n")
  "$bin" enqueue "$work/list.csv" --db "$uri" --per-ip-limit 0 --quiet >/dev/null
  run "enqueued crawl, $n worker(s) of $(worker_concurrency "$n")" workers "$n" "$uri"
  worker_rate[$n]=$RATE
  got=$(psql "$uri" -Atc 'SELECT count(*) || '"'"' records, '"'"' || count(DISTINCT domain_id) || '"'"' domains'"'"' FROM "fetch"')
  echo "    ($got; $("$bin" crawl --status --db "$uri" | head -1 | cut -c1-60))"
  drop_db "workers$n"
done
awk -v s="$sqlite_rate" -v p="$pg_rate" -v w1="${worker_rate[1]}" -v w2="${worker_rate[2]}" \
  -v w4="${worker_rate[4]}" 'BEGIN {
  printf "=> PostgreSQL single process = %.2fx SQLite; workers 1/2/4 = %.2fx / %.2fx / %.2fx one worker\n", p / s, 1, w2 / w1, w4 / w1 }'

[ "$writer_bench" = 1 ] || exit 0
echo "== writer micro-benchmark (batches of 500 records) =="
ROBOTSCAN_BENCH_PG_URI=$(new_db writer) "$bench_bin" --benchmark_min_time=2 \
  2>/dev/null | grep -E "^BM_|^Benchmark"
