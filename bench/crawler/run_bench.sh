#!/usr/bin/env bash
# Crawler throughput benchmark, loopback only (127.0.0.1), bounded in time.
#
# Serves one robots.txt from nginx on 127.0.0.1 and crawls N synthetic
# domains (d1.bench ... dN.bench, all pinned to that server with
# --connect-to), side by side with:
#   * curl --parallel --parallel-max C fetching the same URLs;
#   * the leanest libcurl client we could write (lean_libcurl_client.cc),
#     with one loop and as one process per loop: libcurl's own floor;
#   * wrk -H "Connection: close" (the server's ceiling for one new
#     connection per request; best of 1 and 2 threads);
# and a slow-host scenario: 0.5% of the domains answer after 5 s (half) or
# never (half, ended by the 10 s timeout).
# Prints domains/s, CPU seconds and peak RSS for each.
#
#   bench/crawler/run_bench.sh [--domains N] [--concurrency C] [--big N]
#                              [--loops L] [--build DIR] [--quick]
#
# --loops L also crawls with L event loops (robotscan crawl --loops L).
# --quick leaves out curl (about 4 minutes) and the slow-host run, for
# sweeps over the concurrency; ratios to curl then print as "-".
# Ratios at the end compare the best robotscan run with curl's parallel mode
# and with wrk's ceiling, both at the same concurrency.
set -euo pipefail
cd "$(dirname "$0")/../.."

domains=100000
concurrency=500   # robotscan crawl's default
big=0          # also crawl a list this long (RSS vs length); 0: skip
loops=2        # also crawl with this many event loops; 1: skip
build=build/bench
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --domains) domains="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --big) big="$2"; shift 2 ;;
    --loops) loops="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "run_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/tools/robotscan/robotscan"
if [ ! -x "$bin" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DROBOTSCAN_BUILD_TESTS=OFF -DROBOTSCAN_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build" --target robotscan -j "$(nproc)"
fi

work=$(mktemp -d /tmp/robotscan-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

port=$((20000 + RANDOM % 20000))
slow_port=$((port + 1))
mkdir -p "$work/www" "$work/logs"
printf 'User-agent: *\nDisallow: /private\n' > "$work/www/robots.txt"
# nginx workers run as nobody: make the docroot readable to them.
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
nginx -c "$work/nginx.conf" -p "$work"
python3 bench/crawler/slow_server.py --port "$slow_port" --lifetime 1800 &
pids+=($!)
sleep 0.5
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

make_list() {  # make_list N FILE
  awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,d%d.bench\n", i, i }' > "$2"
}

# measure LABEL COMMAND...: prints "LABEL wall_s cpu_s maxrss_mb" and sets
# RATE (domains/s).
measure() {
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" || {
    echo "!! $label failed"; tail -5 "$work/err.txt"; }
  read -r wall user sys rss < "$work/time.txt"
  awk -v l="$label" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v n="$domains" \
    'BEGIN { printf "%-34s %8.2f s %9.0f /s  cpu %6.2f s  peak RSS %6.1f MB\n", l, w, n / w, u + s, r / 1024 }'
  RATE=$(awk -v w="$wall" -v n="$domains" 'BEGIN { printf "%.0f", n / w }')
}

# crawl_args LIST DB [extra flags]: sets CRAWL to the robotscan command.
crawl_args() {
  local list="$1" db="$2"; shift 2
  # Extra flags first: per-host --connect-to rules must precede the
  # catch-all one (the first matching rule wins, as in curl).
  CRAWL=("$bin" crawl --db "$db" "$list" "$@" --connect-to "::127.0.0.1:$port"
         --allow-private-addresses --schemes http --per-ip-limit 0
         --concurrency "$concurrency" --quiet)
}

echo "== robotscan crawl benchmark: $domains domains, concurrency $concurrency, $(nproc) cores =="
make_list "$domains" "$work/list.csv"
awk -F, '{ printf "url = \"http://%s/robots.txt\"\noutput = \"/dev/null\"\n", $2 }' \
  "$work/list.csv" > "$work/curl.cfg"

crawl_args "$work/list.csv" "$work/a.sqlite"
measure "robotscan crawl" "${CRAWL[@]}"
rows=$(sqlite3 "$work/a.sqlite" "select count(*) from latest_fetch where access='success'")
echo "   ($rows of $domains rows with access=success)"
best=$RATE
best_loops=1
if [ "$loops" -gt 1 ]; then
  crawl_args "$work/list.csv" "$work/a$loops.sqlite" --loops "$loops"
  measure "robotscan crawl --loops $loops" "${CRAWL[@]}"
  rows=$(sqlite3 "$work/a$loops.sqlite" "select count(*) from latest_fetch where access='success'")
  echo "   ($rows of $domains rows with access=success)"
  if [ "$RATE" -gt "$best" ]; then best=$RATE; best_loops=$loops; fi
fi
# The leanest libcurl client we could write (bench/crawler/
# lean_libcurl_client.cc: multi socket API on bare epoll, nothing stored):
# the floor for any libcurl-based crawler. Once with one loop, once as
# $loops processes splitting the URLs (its best use of the cores).
lean="$build/bench/crawler/lean_libcurl_client"
if [ ! -x "$lean" ]; then
  lean="$work/lean_libcurl_client"
  g++ -std=c++20 -O2 -o "$lean" bench/crawler/lean_libcurl_client.cc -lcurl
fi
awk -F, '{ print "http://" $2 "/robots.txt" }' "$work/list.csv" > "$work/urls.txt"
measure "lean libcurl client, 1 loop" \
  "$lean" "$work/urls.txt" "$concurrency" "::127.0.0.1:$port"
lean1=$RATE
lean_best=$RATE
if [ "$loops" -gt 1 ]; then
  split -n "l/$loops" -d "$work/urls.txt" "$work/urls.part."
  measure "lean libcurl client, $loops processes" bash -c '
    lean="$1"; c="$2"; to="$3"; shift 3
    for part in "$@"; do "$lean" "$part" "$c" "$to" & done; wait' _ \
    "$lean" "$((concurrency / loops))" "::127.0.0.1:$port" "$work"/urls.part.*
  if [ "$RATE" -gt "$lean_best" ]; then lean_best=$RATE; fi
fi

curl_rate=0
if [ "$quick" -eq 0 ]; then
# Exactly the issue's baseline: curl's parallel mode as it comes (it waits to
# see whether a connection can be multiplexed before opening the next).
measure "curl --parallel --parallel-max $concurrency" \
  curl --silent --parallel --parallel-max "$concurrency" \
  --connect-to "::127.0.0.1:$port" --config "$work/curl.cfg"
curl_rate=$RATE
# And curl at its best: --parallel-immediate opens connections at once.
measure "  same + --parallel-immediate" \
  curl --silent --parallel --parallel-immediate --parallel-max "$concurrency" \
  --connect-to "::127.0.0.1:$port" --config "$work/curl.cfg"
fi
# The ceiling is the best of one and two wrk threads (on 2 cores, two
# threads get more out of the server than one).
wrk_rps=0
for threads in 1 2; do
  out=$(wrk -t"$threads" -c"$concurrency" -d10s -H "Connection: close" \
    "http://127.0.0.1:$port/robots.txt" 2>&1 || true)
  rps=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  echo "wrk -t$threads -c$concurrency Connection: close  ${rps:-?} req/s"
  wrk_rps=$(awk -v a="$wrk_rps" -v b="${rps:-0}" 'BEGIN { print (b > a ? b : a) }')
done
echo "wrk ceiling (best of the above)   $wrk_rps req/s"
awk -v b="$best" -v c="$curl_rate" -v w="$wrk_rps" -v l1="$lean1" -v lb="$lean_best" 'BEGIN {
  printf "=> best robotscan %d/s = %s curl --parallel, %.0f%% of the wrk ceiling\n", b, (c > 0 ? sprintf("%.1fx", b / c) : "-"), 100 * b / w
  printf "=> lean libcurl client: %.0f%% of the ceiling with 1 loop, %.0f%% at best; robotscan = %.0f%% of the lean best\n", 100 * l1 / w, 100 * lb / w, 100 * b / lb }'

if [ "$quick" -eq 0 ]; then
# Slow hosts: 0.5% of the list, half delayed 5 s, half stalled until the
# 10 s timeout, spread through the list.
slow=$((domains / 200))
connect=()
awk -v n="$domains" -v s="$slow" 'BEGIN {
  step = int(n / s);
  for (i = 1; i <= n; i++) {
    if (i % step == 0 && k < s) { k++; printf "%d,%s%d.bench\n", i, (k % 2 ? "delay" : "stall"), i }
    else printf "%d,d%d.bench\n", i, i
  } }' > "$work/slow.csv"
while read -r host; do
  connect+=(--connect-to "$host:80:127.0.0.1:$slow_port")
done < <(awk -F, '$2 ~ /^(delay|stall)/ { print $2 }' "$work/slow.csv")
clean=$(awk -v n="$domains" -v r="$best" 'BEGIN { printf "%.2f", n / r }')
# Same configuration as the best clean run.
crawl_args "$work/slow.csv" "$work/b.sqlite" --timeout 10s --retries 0 --loops "$best_loops" "${connect[@]}"
measure "robotscan crawl --loops $best_loops, 0.5% slow hosts" "${CRAWL[@]}"
awk -v n="$domains" -v r="$RATE" -v c="$clean" 'BEGIN {
  s = n / r; printf "=> slow-host run %.2f s vs clean %.2f s: limit 1.25 x clean + 10 s timeout = %.2f s (%s)\n", s, c, 1.25 * c + 10, (s <= 1.25 * c + 10 ? "met" : "NOT met") }'
sqlite3 "$work/b.sqlite" "select '   outcomes: ' || group_concat(n, ', ') from (select access || ' ' || count(*) as n from latest_fetch group by access)"

fi

if [ "$big" -gt 0 ]; then
  make_list "$big" "$work/big.csv"
  saved=$domains; domains=$big
  crawl_args "$work/big.csv" "$work/c.sqlite" --loops "$best_loops"
  measure "robotscan crawl --loops $best_loops ($big domains)" "${CRAWL[@]}"
  domains=$saved
fi
