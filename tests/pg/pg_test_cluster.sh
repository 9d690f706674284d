#!/usr/bin/env bash
# Starts and stops the throw-away PostgreSQL cluster of a test run: Debian's
# PostgreSQL 15 binaries, initdb into DIR, listening on a unix socket in a
# fresh /tmp directory only (no TCP port, so concurrent test runs on one
# machine never collide), trust authentication, fsync off (a test cluster
# holds nothing worth a disk flush).
#
#   pg_test_cluster.sh start DIR   # writes DIR/uri (an admin URI) or DIR/skip
#   pg_test_cluster.sh stop DIR    # stops the server, removes DIR
#
# `start` exits 0 either way: where PostgreSQL cannot start (binaries
# missing, initdb refused), DIR/skip says why, and every PostgreSQL test
# skips with that message (counted as skipped by ctest), never passes.
set -uo pipefail

# PG_CLUSTER_DURABLE=1 (the benchmarks): fsync and full-page writes on,
# commits flushed by the WAL writer (synchronous_commit=off, the durability
# of SQLite's WAL with synchronous=NORMAL: a crash of the process loses
# nothing committed, a power cut the last moments), 256 MB shared buffers.
if [ "${PG_CLUSTER_DURABLE:-0}" = 1 ]; then
  durability="-c synchronous_commit=off"
  shared_buffers=256MB
else
  durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  shared_buffers=32MB
fi

cmd=${1:?usage: pg_test_cluster.sh start|stop DIR}
dir=${2:?usage: pg_test_cluster.sh start|stop DIR}

bindir=""
for candidate in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
  if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then
    bindir=$candidate
    break
  fi
done

# initdb and postgres refuse to run as root: as root, run them as the
# `postgres` user the Debian package creates.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

stop_cluster() {
  if [ -f "$dir/server_dir" ]; then
    local server
    server=$(cat "$dir/server_dir")
    if [ -f "$server/data/postmaster.pid" ] && [ -n "$bindir" ]; then
      as_owner "$bindir/pg_ctl" -D "$server/data" -m immediate -w stop >/dev/null 2>&1
    fi
    rm -rf "$server"
  fi
  rm -rf "$dir"
}

case "$cmd" in
  start)
    stop_cluster  # A previous run's leftovers, if any.
    mkdir -p "$dir"
    if [ -z "$bindir" ]; then
      echo "PostgreSQL 15 is not installed (scripts/bootstrap installs postgresql-15)" >"$dir/skip"
      cat "$dir/skip"
      exit 0
    fi
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
      echo "running as root and there is no postgres user to run the server as" >"$dir/skip"
      cat "$dir/skip"
      exit 0
    fi
    # The server's files and socket live in /tmp (short socket path, and a
    # directory the postgres user can reach whatever the build tree's
    # permissions).
    sock=$(mktemp -d /tmp/robotscan-pg.XXXXXX)
    echo "$sock" >"$dir/server_dir"
    mkdir -p "$sock/data"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$sock" "$sock/data"; fi
    if ! as_owner "$bindir/initdb" -D "$sock/data" -U robotscan -A trust \
        -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
      echo "initdb failed: $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')" >"$dir/skip"
      cat "$dir/skip"
      exit 0
    fi
    if ! as_owner "$bindir/pg_ctl" -D "$sock/data" -l "$sock/server.log" -w -t 60 \
        -o "-c listen_addresses='' -k $sock $durability -c max_connections=200 -c shared_buffers=$shared_buffers ${PG_CLUSTER_OPTIONS:-}" \
        start >"$dir/pg_ctl.log" 2>&1; then
      echo "pg_ctl start failed: $(tail -n 3 "$sock/server.log" 2>/dev/null | tr '\n' ' ')" >"$dir/skip"
      cat "$dir/skip"
      exit 0
    fi
    echo "postgresql://robotscan@/postgres?host=$sock" >"$dir/uri"
    echo "PostgreSQL test cluster up: $(cat "$dir/uri")"
    ;;
  stop)
    stop_cluster
    ;;
  *)
    echo "usage: pg_test_cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
