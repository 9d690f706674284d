#!/bin/bash
# Interleaved A/B of two robotscan binaries against one loopback nginx:
#   bench/crawler/ab_nginx.sh OLD_BINARY NEW_BINARY   (LOOPS=1 for one loop)
# 100,000 domains, concurrency 500, http, three rounds old/new; prints
# domains/s, wall, CPU, peak RSS and the load average before each run.
set -u
[ $# -eq 2 ] || { echo "usage: ab_nginx.sh OLD NEW" >&2; exit 2; }
trap '[ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")"; rm -rf "$work"' EXIT
work=$(mktemp -d /tmp/ab-nginx.XXXX)
port=$((20000 + RANDOM % 20000))
mkdir -p $work/www $work/logs
printf 'User-agent: *\nDisallow: /private\n' > $work/www/robots.txt
chmod 755 $work $work/www; chmod 644 $work/www/robots.txt
cat > $work/nginx.conf <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log error;
events { worker_connections 16384; multi_accept on; }
worker_rlimit_nofile 65536;
http { access_log off; keepalive_timeout 0; client_body_temp_path $work/logs; proxy_temp_path $work/logs; fastcgi_temp_path $work/logs; uwsgi_temp_path $work/logs; scgi_temp_path $work/logs;
  server { listen 127.0.0.1:$port backlog=8192 reuseport; root $work/www; } }
NGINX
nginx -c $work/nginx.conf -p $work
awk -v n=100000 'BEGIN { for (i = 1; i <= n; i++) printf "%d,d%d.bench\n", i, i }' > $work/list.csv
for round in 1 2 3; do
  for v in old new; do
    if [ $v = new ]; then b="$2"; else b="$1"; fi
    rm -f $work/db.sqlite*
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S %M" -o $work/t $b crawl --db $work/db.sqlite $work/list.csv --connect-to ::127.0.0.1:$port --allow-private-addresses --schemes http --per-ip-limit 0 --concurrency 500 --loops ${LOOPS:-2} --quiet > /dev/null 2>&1
    read w u s r < $work/t
    echo "round $round $v: $(awk -v w=$w 'BEGIN{printf "%.0f", 100000/w}')/s wall $w cpu $(awk -v u=$u -v s=$s 'BEGIN{print u+s}') rss $((r/1024)) MB load $load"
  done
done

