// The crawl database schema on PostgreSQL, as forward migrations:
// PgMigrations()[i] takes a database from robotscan_schema.version i to
// i + 1. Append, never edit. Versions 1 and 2 are the steps both dialects
// share (schema/schema_steps.h), their SQL made from the table and view
// definitions (schema/crawl_tables.h, schema/latest_fetch_view.h) in
// PostgreSQL types — the same tables, columns, constraints and
// `latest_fetch` view as SQLite's, so that the SQL researchers write runs on
// both; TEXT timestamps (ISO 8601, sort as text) and INTEGER 0/1 flags are
// kept on purpose. Version 3 adds the shared frontier (docs/scale-out.md),
// PostgreSQL only; version 4 makes its claims and commits cost the same per
// domain whatever the list's length. Those two are PostgreSQL's own SQL,
// below. Version 5 (history sources, docs/history.md) is again a step both
// dialects share, made from the definitions.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_SCHEMA_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_SCHEMA_H_

#include <string>
#include <vector>

#include "schema/schema_steps.h"

namespace robotscan::storage {

inline constexpr int kPgSchemaVersion =
    schema::CurrentVersion(schema::Dialect::kPostgres);
static_assert(kPgSchemaVersion == 6);

// Creates the version table; run before the migrations, idempotent.
inline constexpr char kPgSchemaVersionTable[] = R"sql(
CREATE TABLE IF NOT EXISTS robotscan_schema (version integer NOT NULL);
)sql";

// Several workers may start at once on an empty database: migrations run
// under this transaction-scoped advisory lock, each re-reading the version.
inline constexpr long long kPgMigrationLockKey = 0x726f626f7473;  // "robots"

// The SQL of each step, in order (kPgSchemaVersion of them).
const std::vector<std::string>& PgMigrations();

// Version 3: the shared frontier (robotscan enqueue, crawl --worker).
// The protocol is in docs/scale-out.md; the functions below are its
// steps that must be atomic on the server.
inline constexpr char kPgSharedFrontierSql[] = R"sql(
-- Crawl-wide settings of an enqueued crawl: politeness is the crawl's,
-- not a worker's.
CREATE TABLE crawl_settings (
  run_id bigint PRIMARY KEY REFERENCES crawl_run(id),
  per_ip_limit integer NOT NULL,           -- concurrent requests per IP; 0: none
  rate_limit double precision NOT NULL,    -- new domains per second; 0: none
  lease_ms bigint NOT NULL,                -- lease time of a batch
  batch_size integer NOT NULL,             -- domains per batch
  duplicates bigint NOT NULL DEFAULT 0,    -- list entries dropped as duplicates
  malformed_lines bigint NOT NULL DEFAULT 0,
  rate_tokens double precision NOT NULL DEFAULT 1,
  rate_refilled_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE crawl_worker (
  id bigserial PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES crawl_run(id),
  host text,
  pid bigint,
  started_at text NOT NULL,
  stopped_at text,
  status text NOT NULL DEFAULT 'running',  -- running|finished|interrupted|failed
  heartbeat_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  fetched bigint NOT NULL DEFAULT 0,       -- records committed
  rejected bigint NOT NULL DEFAULT 0,      -- records refused: lease taken over
  rate double precision NOT NULL DEFAULT 0,  -- domains/s, as of the heartbeat
  in_flight bigint NOT NULL DEFAULT 0,
  options text                             -- JSON, as crawl_run.options
);
CREATE INDEX crawl_worker_by_run ON crawl_worker(run_id);
CREATE TABLE crawl_batch (
  id bigserial PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES crawl_run(id),
  worker_id bigint NOT NULL REFERENCES crawl_worker(id),
  generation integer NOT NULL DEFAULT 1,   -- +1 each time it is taken over
  state text NOT NULL DEFAULT 'leased',    -- leased|done
  leased_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX crawl_batch_leased ON crawl_batch(run_id, expires_at)
  WHERE state = 'leased';
CREATE INDEX crawl_batch_by_worker ON crawl_batch(worker_id)
  WHERE state = 'leased';
CREATE TABLE crawl_frontier (
  run_id bigint NOT NULL REFERENCES crawl_run(id),
  domain text NOT NULL,
  rank bigint NOT NULL,
  position bigint NOT NULL,                -- order of the list as enqueued
  state text NOT NULL DEFAULT 'pending',   -- pending|leased|done|present
  batch_id bigint REFERENCES crawl_batch(id),
  leases integer NOT NULL DEFAULT 0,       -- times leased
  expired_leases integer NOT NULL DEFAULT 0,  -- taken over from expired leases
  fetch_id bigint,                         -- the record, once done
  PRIMARY KEY (run_id, domain)
);
CREATE UNIQUE INDEX crawl_frontier_position ON crawl_frontier(run_id, position);
CREATE INDEX crawl_frontier_open ON crawl_frontier(run_id, position)
  WHERE state IN ('pending', 'leased');
CREATE INDEX crawl_frontier_by_batch ON crawl_frontier(batch_id)
  WHERE state = 'leased';
-- Per-IP request slots held by each worker (the global per-IP cap).
CREATE TABLE ip_quota (
  run_id bigint NOT NULL,
  ip text NOT NULL,
  worker_id bigint NOT NULL,
  slots integer NOT NULL,                  -- held: the worker may use this many
  desired integer NOT NULL,                -- wanted (> slots: waiting)
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, ip, worker_id)
);

-- Who holds the one-live-crawl lock (a session advisory lock; see
-- pg_crawl_lock.h): one row per holding session, so that a refused crawl
-- can name the holder. Rows of sessions that no longer hold it are stale.
CREATE TABLE crawl_holder (
  backend_pid integer PRIMARY KEY,         -- pg_backend_pid() of the holder
  mode text NOT NULL,                      -- exclusive (crawl) | shared (worker)
  pid bigint, host text, started_at text, run_id bigint
);

-- Claims a batch for a worker: another worker's expired lease first
-- (taken over whole, generation + 1), else up to p_size pending domains in
-- list order. SKIP LOCKED: concurrent claims never wait for each other nor
-- take the same rows. A worker's own expired lease is not taken over: it
-- still has those domains in hand (its heartbeat renews the lease).
CREATE FUNCTION robotscan_claim(p_run bigint, p_worker bigint,
                                p_size integer, p_lease_ms bigint)
RETURNS TABLE (lease_batch bigint, lease_generation integer,
               lease_domain text, lease_rank bigint, lease_position bigint,
               lease_taken_over boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_batch bigint;
  v_generation integer;
  v_expires timestamptz :=
    clock_timestamp() + p_lease_ms * interval '1 millisecond';
BEGIN
  LOOP
    SELECT b.id INTO v_batch FROM crawl_batch b
     WHERE b.run_id = p_run AND b.state = 'leased'
       AND b.expires_at < clock_timestamp() AND b.worker_id <> p_worker
     ORDER BY b.expires_at LIMIT 1 FOR UPDATE SKIP LOCKED;
    EXIT WHEN v_batch IS NULL;
    IF EXISTS (SELECT 1 FROM crawl_frontier f
                WHERE f.batch_id = v_batch AND f.state = 'leased') THEN
      UPDATE crawl_batch b
         SET worker_id = p_worker, generation = b.generation + 1,
             expires_at = v_expires, leased_at = clock_timestamp()
       WHERE b.id = v_batch RETURNING b.generation INTO v_generation;
      RETURN QUERY
        UPDATE crawl_frontier f
           SET leases = f.leases + 1, expired_leases = f.expired_leases + 1
         WHERE f.batch_id = v_batch AND f.state = 'leased'
        RETURNING f.batch_id, v_generation, f.domain, f.rank, f.position,
                  true;
      RETURN;
    END IF;
    UPDATE crawl_batch b SET state = 'done' WHERE b.id = v_batch;
    v_batch := NULL;
  END LOOP;
  INSERT INTO crawl_batch (run_id, worker_id, expires_at)
  VALUES (p_run, p_worker, v_expires) RETURNING id INTO v_batch;
  -- The picked domains as an array first, then updated through the
  -- primary key: a join with the subquery let the planner hash the whole
  -- frontier on every claim (a cost growing with the list).
  RETURN QUERY
    UPDATE crawl_frontier f
       SET state = 'leased', batch_id = v_batch, leases = f.leases + 1
     WHERE f.run_id = p_run
       AND f.domain = ANY (ARRAY(
         SELECT p.domain FROM crawl_frontier p
          WHERE p.run_id = p_run AND p.state = 'pending'
          ORDER BY p.position LIMIT p_size
          FOR UPDATE SKIP LOCKED))
    RETURNING f.batch_id, 1, f.domain, f.rank, f.position, false;
  IF NOT FOUND THEN
    DELETE FROM crawl_batch b WHERE b.id = v_batch;
  END IF;
END $$;

-- Sets a worker's slots on each IP (p_ips in any order; taken in sorted
-- order under a per-(crawl, IP) advisory lock, so concurrent calls never
-- deadlock). A worker's slots never drop below what it says it holds
-- (p_held) and never rise beyond what the cap leaves after the unexpired
-- slots of the others: the sum over workers stays <= p_cap.
CREATE FUNCTION robotscan_ip_quota(p_run bigint, p_worker bigint,
                                   p_ips text[], p_held integer[],
                                   p_desired integer[], p_cap integer,
                                   p_lease_ms bigint)
RETURNS TABLE (quota_ip text, quota_slots integer,
               quota_others_wanting integer)
LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  v_ip text;
  v_others integer;
  v_wanting integer;
  v_new integer;
  v_expires timestamptz :=
    clock_timestamp() + p_lease_ms * interval '1 millisecond';
BEGIN
  FOR i IN SELECT u.ord FROM unnest(p_ips) WITH ORDINALITY AS u(ip, ord)
           ORDER BY u.ip COLLATE "C" LOOP
    v_ip := p_ips[i];
    PERFORM pg_advisory_xact_lock(
      hashtextextended(p_run::text || ' ' || v_ip, 0));
    DELETE FROM ip_quota q
     WHERE q.run_id = p_run AND q.ip = v_ip
       AND q.expires_at < clock_timestamp();
    SELECT coalesce(sum(q.slots), 0),
           count(*) FILTER (WHERE q.desired > q.slots)
      INTO v_others, v_wanting
      FROM ip_quota q
     WHERE q.run_id = p_run AND q.ip = v_ip AND q.worker_id <> p_worker;
    v_new := greatest(p_held[i], least(p_desired[i], p_cap - v_others));
    IF v_new <= 0 AND p_desired[i] <= 0 THEN
      DELETE FROM ip_quota q
       WHERE q.run_id = p_run AND q.ip = v_ip AND q.worker_id = p_worker;
    ELSE
      INSERT INTO ip_quota AS q
        (run_id, ip, worker_id, slots, desired, expires_at)
      VALUES (p_run, v_ip, p_worker, v_new, p_desired[i], v_expires)
      ON CONFLICT (run_id, ip, worker_id) DO UPDATE
        SET slots = excluded.slots, desired = excluded.desired,
            expires_at = excluded.expires_at;
    END IF;
    quota_ip := v_ip;
    quota_slots := v_new;
    quota_others_wanting := v_wanting;
    RETURN NEXT;
  END LOOP;
END $$;

-- The crawl's token bucket for --rate: refills at rate_limit per second
-- up to a burst of max(1, rate/10), grants whole tokens.
CREATE FUNCTION robotscan_take_tokens(p_run bigint,
                                      p_want double precision)
RETURNS double precision
LANGUAGE plpgsql AS $$
DECLARE
  v_rate double precision;
  v_tokens double precision;
  v_at timestamptz;
  v_now timestamptz := clock_timestamp();
  v_granted double precision;
BEGIN
  SELECT s.rate_limit, s.rate_tokens, s.rate_refilled_at
    INTO v_rate, v_tokens, v_at
    FROM crawl_settings s WHERE s.run_id = p_run FOR UPDATE;
  IF v_rate IS NULL OR v_rate <= 0 THEN
    RETURN p_want;
  END IF;
  v_tokens := least(greatest(1, v_rate / 10),
                    v_tokens + extract(epoch FROM v_now - v_at) * v_rate);
  v_granted := least(p_want, floor(v_tokens));
  UPDATE crawl_settings s
     SET rate_tokens = v_tokens - v_granted, rate_refilled_at = v_now
   WHERE s.run_id = p_run;
  RETURN v_granted;
END $$;

-- Renews a live worker's leases (expired ones too, as long as nobody took
-- them over: they are still its own) and its unexpired IP slots; returns
-- the batches renewed. Locks in the order every writer uses (batches by
-- id, then the worker's row), so that it never deadlocks with a commit.
CREATE FUNCTION robotscan_heartbeat(p_worker bigint, p_lease_ms bigint,
                                    p_rate double precision,
                                    p_in_flight bigint)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := clock_timestamp();
  v_expires timestamptz := v_now + p_lease_ms * interval '1 millisecond';
  v_renewed integer;
BEGIN
  WITH mine AS (
    SELECT b.id FROM crawl_batch b
     WHERE b.worker_id = p_worker AND b.state = 'leased'
     ORDER BY b.id FOR UPDATE)
  UPDATE crawl_batch b SET expires_at = v_expires
    FROM mine WHERE b.id = mine.id
     AND b.worker_id = p_worker AND b.state = 'leased';
  GET DIAGNOSTICS v_renewed = ROW_COUNT;
  UPDATE ip_quota q SET expires_at = v_expires
   WHERE q.worker_id = p_worker AND q.expires_at >= v_now;
  UPDATE crawl_worker w
     SET heartbeat_at = v_now, rate = p_rate, in_flight = p_in_flight
   WHERE w.id = p_worker;
  RETURN v_renewed;
END $$;
)sql";

// Version 4: frontier indexes whose scans cost what is pending or
// leased, never what is done (profiled in bench/RESULTS.md, "Scale
// out"). crawl_frontier_open held pending and leased rows together:
// a claim, looking for pending rows in list order, stepped over every
// leased one, and the commit's "mark done", looking for leased rows,
// stepped over every pending one (the planner's statistics, taken
// when the whole list was pending, could not tell). Claims now scan
// pending rows only; leased rows are found through their batch
// (crawl_frontier_by_batch) or their key. The foreign key from a
// frontier row to its batch goes: every batch_id is written by
// robotscan_claim with the batch it inserted (or the one it took over)
// in the same transaction, and batches are never deleted while a row
// points at them, so its check (a trigger and a lookup per leased
// domain) could never fail.
inline constexpr char kPgFrontierScansSql[] = R"sql(
DROP INDEX crawl_frontier_open;
CREATE INDEX crawl_frontier_pending ON crawl_frontier(run_id, position)
  WHERE state = 'pending';
ALTER TABLE crawl_frontier DROP CONSTRAINT crawl_frontier_batch_id_fkey;
DROP FUNCTION robotscan_claim(bigint, bigint, integer, bigint);

-- As version 3's, but new domains are taken from list position p_from on.
-- A leased domain's entry in crawl_frontier_pending stays in the index,
-- dead, until a VACUUM: a claim scanning from the list's start stepped over
-- every domain claimed so far (a claim's cost grew with the crawl's
-- progress, and a crawl's with the square of its length). A worker passes
-- the position after its previous claim, so it steps over what the others
-- claimed since, and scans from the start (p_from 0) only when nothing is
-- pending ahead of it (docs/scale-out.md, "Claim").
CREATE FUNCTION robotscan_claim(p_run bigint, p_worker bigint,
                                p_size integer, p_lease_ms bigint,
                                p_from bigint)
RETURNS TABLE (lease_batch bigint, lease_generation integer,
               lease_domain text, lease_rank bigint, lease_position bigint,
               lease_taken_over boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_batch bigint;
  v_generation integer;
  v_expires timestamptz :=
    clock_timestamp() + p_lease_ms * interval '1 millisecond';
BEGIN
  LOOP
    SELECT b.id INTO v_batch FROM crawl_batch b
     WHERE b.run_id = p_run AND b.state = 'leased'
       AND b.expires_at < clock_timestamp() AND b.worker_id <> p_worker
     ORDER BY b.expires_at LIMIT 1 FOR UPDATE SKIP LOCKED;
    EXIT WHEN v_batch IS NULL;
    IF EXISTS (SELECT 1 FROM crawl_frontier f
                WHERE f.batch_id = v_batch AND f.state = 'leased') THEN
      UPDATE crawl_batch b
         SET worker_id = p_worker, generation = b.generation + 1,
             expires_at = v_expires, leased_at = clock_timestamp()
       WHERE b.id = v_batch RETURNING b.generation INTO v_generation;
      RETURN QUERY
        UPDATE crawl_frontier f
           SET leases = f.leases + 1, expired_leases = f.expired_leases + 1
         WHERE f.batch_id = v_batch AND f.state = 'leased'
        RETURNING f.batch_id, v_generation, f.domain, f.rank, f.position,
                  true;
      RETURN;
    END IF;
    UPDATE crawl_batch b SET state = 'done' WHERE b.id = v_batch;
    v_batch := NULL;
  END LOOP;
  INSERT INTO crawl_batch (run_id, worker_id, expires_at)
  VALUES (p_run, p_worker, v_expires) RETURNING id INTO v_batch;
  -- The picked domains as an array first, then updated through the
  -- primary key: a join with the subquery let the planner hash the whole
  -- frontier on every claim (a cost growing with the list).
  RETURN QUERY
    UPDATE crawl_frontier f
       SET state = 'leased', batch_id = v_batch, leases = f.leases + 1
     WHERE f.run_id = p_run
       AND f.domain = ANY (ARRAY(
         SELECT p.domain FROM crawl_frontier p
          WHERE p.run_id = p_run AND p.state = 'pending'
            AND p.position >= p_from
          ORDER BY p.position LIMIT p_size
          FOR UPDATE SKIP LOCKED))
    RETURNING f.batch_id, 1, f.domain, f.rank, f.position, false;
  IF NOT FOUND THEN
    DELETE FROM crawl_batch b WHERE b.id = v_batch;
  END IF;
END $$;
)sql";

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_SCHEMA_H_
