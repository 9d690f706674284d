-- PostgreSQL's schema version 6 (crawl --signals, issue 29) as the table definitions first made it; kept so that the step is never edited.
CREATE TABLE signal_fetch (
  fetch_id bigint NOT NULL REFERENCES "fetch"(id),
  kind text NOT NULL,  -- llms.txt|tdmrep.json|homepage
  url text,
  final_url text,
  http_status integer,
  error_class text,
  error_message text,
  redirects integer NOT NULL DEFAULT 0,
  content_type text,
  bytes bigint NOT NULL DEFAULT 0,
  truncated integer NOT NULL DEFAULT 0,
  present integer NOT NULL DEFAULT 0,
  absent_reason text,  -- status|html|soft-404|empty|no-response|not-fetched
  valid integer,  -- tdmrep.json: 1 valid TDMRep, 0 not
  validation_error text,
  x_robots_tag text,
  content_usage text,
  tdm_reservation text,
  tdm_policy text,
  body bytea,
  PRIMARY KEY (fetch_id, kind)
);
