-- PostgreSQL's schema version 5 (history sources, issue 28) as the table definitions first made it; kept so that the step is never edited.
ALTER TABLE crawl_run ADD COLUMN source text NOT NULL DEFAULT 'crawl' CHECK (source IN ('crawl','commoncrawl','wayback'));
ALTER TABLE crawl_run ADD COLUMN source_crawl text;  -- Common Crawl's crawl ID, e.g. CC-MAIN-2024-10
ALTER TABLE "fetch" ADD COLUMN source text NOT NULL DEFAULT 'crawl' CHECK (source IN ('crawl','commoncrawl','wayback'));
ALTER TABLE "fetch" ADD COLUMN source_file text;  -- the WARC file's name
ALTER TABLE "fetch" ADD COLUMN source_offset bigint;  -- the record's byte offset in it
ALTER TABLE "fetch" ADD COLUMN source_timestamp text;  -- the capture time as the archive wrote it
CREATE TABLE history_file (
  id bigserial PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES crawl_run(id),
  name text NOT NULL,
  location text,  -- path or URL last read
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','leased','done','failed')),
  resume_offset bigint NOT NULL DEFAULT 0,  -- byte offset of the gzip member to go on from
  resume_skip bigint NOT NULL DEFAULT 0,  -- records of that member already imported
  records bigint NOT NULL DEFAULT 0,  -- WARC records read
  fetches bigint NOT NULL DEFAULT 0,  -- fetches written
  duplicates bigint NOT NULL DEFAULT 0,  -- captures of a domain the run already had
  skipped bigint NOT NULL DEFAULT 0,  -- records that are no robots.txt response
  errors bigint NOT NULL DEFAULT 0,  -- malformed records
  last_error text,
  holder text,  -- host:pid reading it
  lease_until text,  -- ISO 8601 UTC
  started_at text,
  finished_at text,
  UNIQUE (run_id, name)
);
