-- Schema version 1 as robotscan wrote it by hand before the table definitions (storage/src/schema/) replaced it; kept to hold the generated SQL to it.
CREATE TABLE crawl_run (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL DEFAULT 'running',  -- running|finished|interrupted|failed
  tool_version TEXT,
  input TEXT,
  options TEXT                             -- JSON
);
CREATE TABLE domain (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  latest_fetch_id INTEGER
);
CREATE TABLE body (
  id INTEGER PRIMARY KEY,
  sha256 BLOB NOT NULL UNIQUE,
  size INTEGER NOT NULL,                   -- decoded bytes
  compression TEXT NOT NULL DEFAULT 'none',  -- none|zstd
  data BLOB NOT NULL
);
CREATE TABLE fetch (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES crawl_run(id),
  domain_id INTEGER NOT NULL REFERENCES domain(id),
  rank INTEGER,
  url TEXT NOT NULL,
  final_url TEXT,
  strategy TEXT,
  http_status INTEGER,
  access TEXT NOT NULL CHECK (access IN ('success','unavailable','unreachable')),
  error_class TEXT,
  error_message TEXT,
  redirects INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 1,
  bytes INTEGER NOT NULL DEFAULT 0,
  truncated INTEGER NOT NULL DEFAULT 0,
  not_modified INTEGER NOT NULL DEFAULT 0,
  body_id INTEGER REFERENCES body(id),
  content_type TEXT, content_encoding TEXT, content_length TEXT,
  cache_control TEXT, expires TEXT, last_modified TEXT, etag TEXT,
  retry_after TEXT,
  ip TEXT,
  dns_ms REAL, connect_ms REAL, tls_ms REAL, first_byte_ms REAL,
  total_ms REAL,
  fetched_at TEXT NOT NULL,
  UNIQUE (run_id, domain_id)
);
CREATE INDEX fetch_by_domain ON fetch(domain_id);
CREATE TABLE fetch_step (
  fetch_id INTEGER NOT NULL REFERENCES fetch(id),
  seq INTEGER NOT NULL,
  url TEXT NOT NULL,
  http_status INTEGER,
  location TEXT,
  error_class TEXT,
  error_message TEXT,
  ip TEXT,
  total_ms REAL,
  PRIMARY KEY (fetch_id, seq)
) WITHOUT ROWID;
-- The stable public view: one row per domain, its newest fetch.
CREATE VIEW latest_fetch AS
SELECT d.name AS domain,
       f.rank AS rank,
       f.url AS url,
       f.final_url AS final_url,
       f.http_status AS http_status,
       f.access AS access,
       f.error_class AS error,
       f.redirects AS redirects,
       f.bytes AS bytes,
       f.truncated AS truncated,
       CASE WHEN b.compression = 'none' THEN b.data END AS body,
       f.fetched_at AS fetched_at,
       f.error_message AS error_message,
       f.id AS fetch_id,
       f.run_id AS run_id,
       f.strategy AS strategy,
       f.attempts AS attempts,
       f.not_modified AS not_modified,
       f.content_type AS content_type,
       f.content_encoding AS content_encoding,
       f.content_length AS content_length,
       f.cache_control AS cache_control,
       f.expires AS expires,
       f.last_modified AS last_modified,
       f.etag AS etag,
       f.retry_after AS retry_after,
       f.ip AS ip,
       f.dns_ms AS dns_ms,
       f.connect_ms AS connect_ms,
       f.tls_ms AS tls_ms,
       f.first_byte_ms AS first_byte_ms,
       f.total_ms AS total_ms,
       lower(hex(b.sha256)) AS body_sha256,
       b.compression AS body_compression
FROM domain d
JOIN fetch f ON f.id = d.latest_fetch_id
LEFT JOIN body b ON b.id = f.body_id;
