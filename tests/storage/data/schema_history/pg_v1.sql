-- Schema version 1 as robotscan wrote it by hand before the table definitions (storage/src/schema/) replaced it; kept to hold the generated SQL to it.
CREATE TABLE crawl_run (
  id bigserial PRIMARY KEY,
  started_at text NOT NULL,
  finished_at text,
  status text NOT NULL DEFAULT 'running',  -- running|finished|interrupted|failed
  tool_version text,
  input text,
  options text                             -- JSON
);
CREATE TABLE domain (
  id bigserial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  latest_fetch_id bigint
);
CREATE TABLE body (
  id bigserial PRIMARY KEY,
  sha256 bytea NOT NULL UNIQUE,
  size bigint NOT NULL,                    -- decoded bytes
  compression text NOT NULL DEFAULT 'none',  -- none|zstd
  data bytea NOT NULL
);
CREATE TABLE "fetch" (
  id bigserial PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES crawl_run(id),
  domain_id bigint NOT NULL REFERENCES domain(id),
  rank bigint,
  url text NOT NULL,
  final_url text,
  strategy text,
  http_status integer,
  access text NOT NULL CHECK (access IN ('success','unavailable','unreachable')),
  error_class text,
  error_message text,
  redirects integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 1,
  bytes bigint NOT NULL DEFAULT 0,
  truncated integer NOT NULL DEFAULT 0,
  not_modified integer NOT NULL DEFAULT 0,
  body_id bigint REFERENCES body(id),
  content_type text, content_encoding text, content_length text,
  cache_control text, expires text, last_modified text, etag text,
  retry_after text,
  ip text,
  dns_ms double precision, connect_ms double precision,
  tls_ms double precision, first_byte_ms double precision,
  total_ms double precision,
  fetched_at text NOT NULL,
  UNIQUE (run_id, domain_id)
);
CREATE INDEX fetch_by_domain ON "fetch"(domain_id);
CREATE TABLE fetch_step (
  fetch_id bigint NOT NULL REFERENCES "fetch"(id),
  seq integer NOT NULL,
  url text NOT NULL,
  http_status integer,
  location text,
  error_class text,
  error_message text,
  ip text,
  total_ms double precision,
  PRIMARY KEY (fetch_id, seq)
);
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
       encode(b.sha256, 'hex') AS body_sha256,
       b.compression AS body_compression
FROM domain d
JOIN "fetch" f ON f.id = d.latest_fetch_id
LEFT JOIN body b ON b.id = f.body_id;
