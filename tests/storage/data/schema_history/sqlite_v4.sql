-- SQLite's schema version 4 (crawl --signals, issue 29) as the table definitions first made it; kept so that the step is never edited.
CREATE TABLE signal_fetch (
  fetch_id INTEGER NOT NULL REFERENCES fetch(id),
  kind TEXT NOT NULL,  -- llms.txt|tdmrep.json|homepage
  url TEXT,
  final_url TEXT,
  http_status INTEGER,
  error_class TEXT,
  error_message TEXT,
  redirects INTEGER NOT NULL DEFAULT 0,
  content_type TEXT,
  bytes INTEGER NOT NULL DEFAULT 0,
  truncated INTEGER NOT NULL DEFAULT 0,
  present INTEGER NOT NULL DEFAULT 0,
  absent_reason TEXT,  -- status|html|soft-404|empty|no-response|not-fetched
  valid INTEGER,  -- tdmrep.json: 1 valid TDMRep, 0 not
  validation_error TEXT,
  x_robots_tag TEXT,
  content_usage TEXT,
  tdm_reservation TEXT,
  tdm_policy TEXT,
  body BLOB,
  PRIMARY KEY (fetch_id, kind)
) WITHOUT ROWID;
