-- SQLite's schema version 3 (history sources, issue 28) as the table definitions first made it; kept so that the step is never edited.
ALTER TABLE crawl_run ADD COLUMN source TEXT NOT NULL DEFAULT 'crawl' CHECK (source IN ('crawl','commoncrawl','wayback'));
ALTER TABLE crawl_run ADD COLUMN source_crawl TEXT;  -- Common Crawl's crawl ID, e.g. CC-MAIN-2024-10
ALTER TABLE fetch ADD COLUMN source TEXT NOT NULL DEFAULT 'crawl' CHECK (source IN ('crawl','commoncrawl','wayback'));
ALTER TABLE fetch ADD COLUMN source_file TEXT;  -- the WARC file's name
ALTER TABLE fetch ADD COLUMN source_offset INTEGER;  -- the record's byte offset in it
ALTER TABLE fetch ADD COLUMN source_timestamp TEXT;  -- the capture time as the archive wrote it
CREATE TABLE history_file (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES crawl_run(id),
  name TEXT NOT NULL,
  location TEXT,  -- path or URL last read
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','leased','done','failed')),
  resume_offset INTEGER NOT NULL DEFAULT 0,  -- byte offset of the gzip member to go on from
  resume_skip INTEGER NOT NULL DEFAULT 0,  -- records of that member already imported
  records INTEGER NOT NULL DEFAULT 0,  -- WARC records read
  fetches INTEGER NOT NULL DEFAULT 0,  -- fetches written
  duplicates INTEGER NOT NULL DEFAULT 0,  -- captures of a domain the run already had
  skipped INTEGER NOT NULL DEFAULT 0,  -- records that are no robots.txt response
  errors INTEGER NOT NULL DEFAULT 0,  -- malformed records
  last_error TEXT,
  holder TEXT,  -- host:pid reading it
  lease_until TEXT,  -- ISO 8601 UTC
  started_at TEXT,
  finished_at TEXT,
  UNIQUE (run_id, name)
);
