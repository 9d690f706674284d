-- Schema version 2 as robotscan wrote it by hand before the table definitions (storage/src/schema/) replaced it; kept to hold the generated SQL to it.
ALTER TABLE crawl_run ADD COLUMN host text;
ALTER TABLE crawl_run ADD COLUMN pid bigint;
ALTER TABLE crawl_run ADD COLUMN list_source text;   -- tranco|umbrella|majestic|file
ALTER TABLE crawl_run ADD COLUMN list_id text;       -- e.g. Tranco's list ID
ALTER TABLE crawl_run ADD COLUMN list_date text;     -- YYYY-MM-DD of the list
ALTER TABLE crawl_run ADD COLUMN list_url text;      -- where it was downloaded
ALTER TABLE crawl_run ADD COLUMN list_sha256 text;   -- of the file read (hex)
ALTER TABLE crawl_run ADD COLUMN list_entries bigint;  -- entries selected
