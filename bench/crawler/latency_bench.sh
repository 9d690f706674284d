#!/usr/bin/env bash
# Crawler throughput at real-internet latency, loopback only (127.0.0.1),
# bounded in time. bench/crawler/delay_server.cc answers every request a
# fixed delay after it arrived (1 s by default); with every domain taking
# that long, throughput can be at most concurrency / delay (Little's law),
# and how close robotscan gets shows whether it keeps its transfers in
# flight. Prints one table row per concurrency:
#
#   concurrency | ideal C/delay | robotscan domains/s | efficiency |
#   peak RSS | RSS budget (40 MB + 12 KB x C) | in flight as the server saw it
#   (median and minimum of its samples in the steady middle of the run)
#
#   bench/crawler/latency_bench.sh [--delay-ms 1000] [--concurrency "1000 5000 10000 20000"]
#                                  [--loops 1] [--periods 10] [--build DIR]
#                                  [--tls h1|h2]
#
# --tls puts HAProxy (TLS 1.3, an EC certificate, ALPN http/1.1 or h2) in
# front of the delay server and crawls https (--insecure): what a transfer
# over TLS costs in memory and CPU. Every connection is a TLS handshake on
# both sides of one 2-core machine, so use a long --delay-ms (10000 keeps
# 10,000 in flight at 1,000 handshakes a second).
#
# Each run crawls max(20000, periods x C) domains (d1.lat ... pinned to the
# server with --connect-to), http only, --retries 0 --per-ip-limit 0. The
# file-descriptor hard limit is raised for this script when it is too low
# for 20,000 connections (needs CAP_SYS_RESOURCE). Where it cannot be, a C
# beyond what the limit serves runs at the largest C that fits (robotscan
# needs C + 80 descriptors with one loop), marked "(fd limit)".
set -euo pipefail
cd "$(dirname "$0")/../.."

delay_ms=1000
concurrency_list="1000 5000 10000 20000"
loops=1
periods=10
build=build/bench
tls=""
while [ $# -gt 0 ]; do
  case "$1" in
    --delay-ms) delay_ms="$2"; shift 2 ;;
    --concurrency) concurrency_list="$2"; shift 2 ;;
    --loops) loops="$2"; shift 2 ;;
    --periods) periods="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --tls) tls="$2"; shift 2 ;;
    *) echo "latency_bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

bin="$build/tools/robotscan/robotscan"
if [ ! -x "$bin" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DROBOTSCAN_BUILD_TESTS=OFF -DROBOTSCAN_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build" --target robotscan -j 2
fi
work=$(mktemp -d /tmp/robotscan-latency.XXXXXX)
server="$build/bench/crawler/delay_server"
if [ ! -x "$server" ]; then
  server="$work/delay_server"
  g++ -std=c++20 -O2 -o "$server" bench/crawler/delay_server.cc
fi
server_pid=""
proxy_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# 20,000 connections need 20,000 descriptors on each side, plus a few.
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt 65536 ]; then
  ulimit -Hn 65536 2>/dev/null || true
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

case "$tls" in
  "") ;;
  h1) alpn="http/1.1" ;;
  h2) alpn="h2,http/1.1" ;;
  *) echo "latency_bench.sh: --tls h1 or h2" >&2; exit 2 ;;
esac
if [ -n "$tls" ]; then
  command -v haproxy >/dev/null || { echo "latency_bench.sh: --tls needs haproxy (scripts/bootstrap --extras)" >&2; exit 2; }
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -days 2 -subj /CN=lat -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
  cat "$work/cert.pem" "$work/key.pem" > "$work/both.pem"
fi
echo "== robotscan crawl at latency: every answer after ${delay_ms} ms, --loops $loops${tls:+, over TLS ($tls via HAProxy)}, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg) =="
echo "| concurrency | domains | ideal C/delay | robotscan | efficiency | peak RSS | RSS budget | in flight (server: median / min) | CPU | load before |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
hard=$(ulimit -Hn)
# HAProxy holds two descriptors per transfer (client and server side).
proxy_maxconn=25000
if [ -n "$tls" ] && [ "$hard" != unlimited ] && [ $(( (hard - 200) / 2 )) -lt $proxy_maxconn ]; then
  proxy_maxconn=$(( (hard - 200) / 2 ))
fi
for c in $concurrency_list; do
  label=$c
  reserve=$((64 + 16 * loops))
  if [ -n "$tls" ] && [ "$c" -gt $((proxy_maxconn - 100)) ]; then
    c=$((proxy_maxconn - 100)); label="$c (fd limit)"
  fi
  if [ "$hard" != unlimited ] && [ $((c + reserve)) -gt "$hard" ]; then
    c=$((hard - reserve)); label="$c (fd limit)"
  fi
  n=$((periods * c)); [ "$n" -lt 20000 ] && n=20000
  port=$((20000 + RANDOM % 20000))
  awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,d%d.lat\n", i, i }' > "$work/list.csv"
  rm -f "$work/crawl.sqlite"*
  lifetime=$(( (n / c + 4) * delay_ms / 1000 + 60 ))
  "$server" --port "$port" --delay-ms "$delay_ms" --lifetime "$lifetime" \
    --log "$work/samples.txt" --sample-ms 250 >/dev/null &
  server_pid=$!
  scheme=http
  crawl_port=$port
  if [ -n "$tls" ]; then
    crawl_port=$((port + 1)); scheme=https
    cat > "$work/haproxy.cfg" <<CFG
global
  maxconn $proxy_maxconn
  nbthread 1
defaults
  mode http
  timeout connect 5s
  timeout client 120s
  timeout server 120s
  maxconn $proxy_maxconn
frontend tls
  bind 127.0.0.1:$crawl_port ssl crt $work/both.pem alpn $alpn ssl-min-ver TLSv1.3
  default_backend delay
backend delay
  server delay 127.0.0.1:$port maxconn $proxy_maxconn
CFG
    haproxy -db -f "$work/haproxy.cfg" >/dev/null 2>&1 &
    proxy_pid=$!
  fi
  sleep 0.3
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" \
    "$bin" crawl --db "$work/crawl.sqlite" "$work/list.csv" \
    --connect-to "::127.0.0.1:$crawl_port" --allow-private-addresses --schemes $scheme --insecure \
    --retries 0 --per-ip-limit 0 --concurrency "$c" --loops "$loops" \
    --quiet >/dev/null 2>"$work/err.txt" || {
      echo "!! concurrency $c failed:"; tail -3 "$work/err.txt"; }
  kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true
  server_pid=""
  if [ -n "$proxy_pid" ]; then
    kill "$proxy_pid" 2>/dev/null || true; wait "$proxy_pid" 2>/dev/null || true
    proxy_pid=""
  fi
  read -r wall user sys rss < "$work/time.txt"
  ok=$(sqlite3 "$work/crawl.sqlite" "select count(*) from latest_fetch where access='success'" 2>/dev/null || echo 0)
  [ "$ok" -eq "$n" ] || echo "!! only $ok of $n domains succeeded"
  # The steady middle of the run: after the first delay period and before
  # the last, where a crawler that refills at once holds C open.
  inflight=$(awk -v d="$delay_ms" -v w="$wall" '{ if ($1 > d / 1000 + 0.5 && $1 < w - d / 1000 - 0.5) print $2 }' "$work/samples.txt" |
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else printf "%d / %d", v[int((NR + 1) / 2)], v[1] }')
  awk -v c="$c" -v lab="$label" -v n="$n" -v d="$delay_ms" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v f="$inflight" -v l="$load" 'BEGIN {
    ideal = c * 1000 / d; rate = n / w; budget = 40 + 12 * c / 1024;
    printf "| %s | %d | %.0f/s | %.0f/s | %.0f%% | %.0f MB | %.0f MB | %s | %.1f s | %s |\n",
      lab, n, ideal, rate, 100 * rate / ideal, r / 1024, budget, f, u + s, l }'
done
