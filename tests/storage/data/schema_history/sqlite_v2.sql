-- Schema version 2 as robotscan wrote it by hand before the table definitions (storage/src/schema/) replaced it; kept to hold the generated SQL to it.
ALTER TABLE crawl_run ADD COLUMN host TEXT;
ALTER TABLE crawl_run ADD COLUMN pid INTEGER;
ALTER TABLE crawl_run ADD COLUMN list_source TEXT;   -- tranco|umbrella|majestic|file
ALTER TABLE crawl_run ADD COLUMN list_id TEXT;       -- e.g. Tranco's list ID
ALTER TABLE crawl_run ADD COLUMN list_date TEXT;     -- YYYY-MM-DD of the list
ALTER TABLE crawl_run ADD COLUMN list_url TEXT;      -- where it was downloaded
ALTER TABLE crawl_run ADD COLUMN list_sha256 TEXT;   -- of the file read (hex)
ALTER TABLE crawl_run ADD COLUMN list_entries INTEGER;  -- entries selected
