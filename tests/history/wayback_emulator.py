"""A loopback emulator of the Wayback Machine's two endpoints, for
import_wayback_test.py (issue 28, item 2).

  /cdx/search/cdx   the CDX API as github.com/internetarchive/wayback's
                    wayback-cdx-server documents it: url= (exact, scheme and
                    a leading www. folded as the archive's URL keys fold
                    them), fl=, from=/to= (timestamp prefixes, both ends
                    included), collapse=timestamp:N (adjacent rows), limit=
                    with showResumeKey=true and resumeKey=, output=json or
                    the plain space-separated text.
  /web/<ts>id_/<original>
                    the capture's bytes as archived, with Memento-Datetime
                    and the site's headers as X-Archive-Orig-*; without a
                    capture at that time, a redirect to the nearest one
                    (of that URL, else of its URL key); the archive's own
                    error page (no Memento headers) when there is none.

Scripted misbehaviour, per domain: "cdx_429" (the first CDX query is
answered 429 with Retry-After), "snapshot_503" (the first snapshot request
503 with an HTTP-date Retry-After), "plain" (text whatever output= asks),
"empty_body" (a zero-length answer instead of []), "blocked" (the CDX
API's 403 for an excluded site). Every request is logged
with its arrival time, and requests in flight are counted, from arrival to
just before an answer's first byte: max_in_flight is the most the server
ever saw at once, never more than the client had.
"""
import calendar
import email.utils
import http.server
import json
import socketserver
import sys
import threading
import time
import urllib.parse


class Capture:
    def __init__(self, timestamp, original, status, mimetype, body,
                 headers=(), archive_error=False, revisit_of=None):
        self.timestamp = timestamp
        self.original = original
        self.status = status            # "200", "-" for a revisit
        self.mimetype = mimetype
        self.body = body                # bytes the site served
        self.headers = list(headers)    # the site's, (name, value)
        self.archive_error = archive_error
        self.revisit_of = revisit_of    # the capture a revisit replays

    def replayed(self):
        return self.revisit_of or self

    def digest(self):
        return "SHA1%08X" % (hash(self.replayed().body) & 0xffffffff)


def seconds(timestamp):
    return calendar.timegm(time.strptime(timestamp, "%Y%m%d%H%M%S"))


def url_key(url):
    """The archive's key for a URL, enough of it for these tests: no
    scheme, no leading www., lower-case host."""
    rest = url.split("://", 1)[-1]
    host, _, path = rest.partition("/")
    host = host.lower()
    if host.startswith("www."):
        host = host[4:]
    return host + "/" + path


class Archive:
    def __init__(self, captures, quirks=None, delay=0.0, snapshot_delay=0.0):
        self.captures = captures        # {domain: [Capture, ...]}
        self.quirks = quirks or {}      # {domain: set of quirk names}
        self.delay = delay              # seconds each answer takes
        self.snapshot_delay = snapshot_delay
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        self.log = []                   # (arrival, kind, key, status, ua)
        self.sent = []                  # (sent, kind, key, status, retry_at)
        self.paths = []                 # every request's path and query
        self.used_quirks = set()
        self.server = None

    # --- bookkeeping ---------------------------------------------------

    def enter(self):
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self):
        with self.lock:
            self.in_flight -= 1

    def once(self, domain, quirk):
        """True the first time `quirk` of `domain` is asked for."""
        with self.lock:
            if quirk in self.quirks.get(domain, ()) and \
                    (domain, quirk) not in self.used_quirks:
                self.used_quirks.add((domain, quirk))
                return True
            return False

    def requests(self, kind):
        with self.lock:
            return [entry for entry in self.log if entry[1] == kind]

    def reset_log(self):
        with self.lock:
            self.log = []
            self.sent = []
            self.paths = []
            self.max_in_flight = 0

    # --- the CDX API ---------------------------------------------------

    def rows_for(self, query):
        url = query.get("url", [""])[0]
        key = url_key(url)
        domain = key.split("/", 1)[0]
        rows = [c for c in self.captures.get(domain, [])
                if url_key(c.original) == key]
        rows.sort(key=lambda c: c.timestamp)
        first = query.get("from", [""])[0]
        last = query.get("to", [""])[0]
        if first:
            rows = [c for c in rows if c.timestamp[:len(first)] >= first]
        if last:
            rows = [c for c in rows if c.timestamp[:len(last)] <= last]
        for collapse in query.get("collapse", []):
            field, _, digits = collapse.partition(":")
            if field != "timestamp":
                continue
            n = int(digits or 14)
            kept = []
            for c in rows:
                if not kept or kept[-1].timestamp[:n] != c.timestamp[:n]:
                    kept.append(c)
            rows = kept
        return domain, rows

    def cdx_answer(self, query):
        domain, rows = self.rows_for(query)
        fields = query.get("fl", ["urlkey,timestamp,original,mimetype,"
                                  "statuscode,digest,length"])[0].split(",")
        start = int(query.get("resumeKey", ["0"])[0] or 0)
        limit = int(query.get("limit", ["0"])[0] or 0)
        page = rows[start:start + limit] if limit > 0 else rows[start:]
        more = limit > 0 and start + limit < len(rows)
        resume = str(start + limit) if more and \
            query.get("showResumeKey", [""])[0] == "true" else ""

        def value(c, field):
            return {"urlkey": url_key(c.original), "timestamp": c.timestamp,
                    "original": c.original, "mimetype": c.mimetype,
                    "statuscode": c.status, "digest": c.digest(),
                    "length": str(len(c.body))}[field]

        table = [[value(c, f) for f in fields] for c in page]
        if "empty_body" in self.quirks.get(domain, ()):
            return "text/plain", b""
        as_json = query.get("output", [""])[0] == "json" and \
            "plain" not in self.quirks.get(domain, ())
        if as_json:
            out = [fields] + table if table else []
            if resume:
                out += [[], [resume]]
            return "application/json", json.dumps(out).encode()
        text = "".join(" ".join(row) + "\n" for row in table)
        if resume:
            text += "\n" + resume + "\n"
        return "text/plain", text.encode()

    # --- snapshots -----------------------------------------------------

    def find(self, timestamp, original):
        domain = url_key(original).split("/", 1)[0]
        for c in self.captures.get(domain, []):
            if c.timestamp == timestamp and c.original == original:
                return domain, c
        return domain, None

    def nearest(self, timestamp, original):
        """The capture the archive redirects a snapshot request to when
        none was made at that time: of that very URL if any, else of its
        URL key; the nearest in time."""
        domain = url_key(original).split("/", 1)[0]
        candidates = [c for c in self.captures.get(domain, [])
                      if not c.archive_error]
        exact = [c for c in candidates if c.original == original]
        same_key = [c for c in candidates
                    if url_key(c.original) == url_key(original)]
        pool = exact or same_key
        if not pool:
            return None
        when = seconds(timestamp)
        return min(pool, key=lambda c: abs(seconds(c.timestamp) - when))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    archive = None  # set by start()

    def log_message(self, *args):
        pass

    def send(self, status, headers, body, kind, key, retry_at=None):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        # Out of flight before any byte goes (http.server buffers the
        # headers until end_headers): the client cannot have the whole
        # answer and start its next request while this one still counts,
        # also when the answer has no body (the archive's 302), so
        # max_in_flight never overstates the client.
        self.done_with_request()
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        with self.archive.lock:
            self.archive.sent.append((time.time(), kind, key, status,
                                      retry_at))

    def do_GET(self):
        a = self.archive
        arrival = time.time()
        with a.lock:
            a.paths.append(self.path)
        a.enter()
        self.in_flight = True
        try:
            self.answer(a, arrival)
        finally:
            self.done_with_request()

    def done_with_request(self):
        if getattr(self, "in_flight", False):
            self.in_flight = False
            self.archive.leave()

    def answer(self, a, arrival):
        ua = self.headers.get("User-Agent", "")
        parsed = urllib.parse.urlsplit(self.path)
        if parsed.path == "/cdx/search/cdx":
            query = urllib.parse.parse_qs(parsed.query, keep_blank_values=True)
            domain = url_key(query.get("url", [""])[0]).split("/", 1)[0]
            key = (domain, query.get("resumeKey", [""])[0])
            time.sleep(a.delay)
            if a.once(domain, "cdx_429"):
                status = 429
                self.log_request_(a, arrival, "cdx", key, status, ua)
                self.send(429, [("Retry-After", "1"),
                                ("Content-Type", "text/plain")],
                          b"Too Many Requests", "cdx", key,
                          retry_at=time.time() + 1)
                return
            if "blocked" in a.quirks.get(domain, ()):
                self.log_request_(a, arrival, "cdx", key, 403, ua)
                self.send(403, [("Content-Type", "application/json")],
                          b'{"error": "org.archive.wayback.exception.'
                          b'AdministrativeAccessControlException: Blocked '
                          b'Site Error"}', "cdx", key)
                return
            self.log_request_(a, arrival, "cdx", key, 200, ua)
            content_type, body = a.cdx_answer(query)
            self.send(200, [("Content-Type", content_type)], body, "cdx", key)
            return
        if parsed.path.startswith("/web/"):
            rest = self.path[len("/web/"):]
            stamp, _, original = rest.partition("/")
            timestamp = stamp[:-3] if stamp.endswith("id_") else stamp
            domain, c = a.find(timestamp, original)
            key = (timestamp, original)
            time.sleep(a.snapshot_delay or a.delay)
            if a.once(domain, "snapshot_503"):
                retry_at = int(time.time()) + 2
                self.log_request_(a, arrival, "snapshot", key, 503, ua)
                self.send(503, [("Retry-After",
                                 email.utils.formatdate(retry_at,
                                                        usegmt=True)),
                                ("Content-Type", "text/html")],
                          b"<html>busy</html>", "snapshot", key,
                          retry_at=retry_at)
                return
            near = a.nearest(timestamp, original) if c is None else None
            if near is not None:
                # The archive's own redirect: no Memento headers.
                self.log_request_(a, arrival, "snapshot", key, 302, ua)
                self.send(302, [("Location", "http://%s/web/%sid_/%s" % (
                    self.headers.get("Host"), near.timestamp, near.original))],
                    b"", "snapshot", key)
                return
            if c is None or c.archive_error:
                self.log_request_(a, arrival, "snapshot", key, 404, ua)
                self.send(404, [("Content-Type", "text/html; charset=utf-8")],
                          b"<!DOCTYPE html><html><title>Wayback Machine"
                          b"</title><p>Hrm. The Wayback Machine has not "
                          b"archived that URL.</p></html>", "snapshot", key)
                return
            shown = c.replayed()
            status = int(shown.status)
            headers = [("Memento-Datetime", email.utils.formatdate(
                calendar.timegm(time.strptime(c.timestamp, "%Y%m%d%H%M%S")),
                usegmt=True))]
            for name, value in shown.headers:
                headers.append(("X-Archive-Orig-" + name, value))
                if name.lower() == "content-type":
                    headers.append(("Content-Type", value))
                if name.lower() == "location":
                    headers.append(("Location", "http://%s/web/%sid_/%s" % (
                        self.headers.get("Host"), c.timestamp, value)))
            self.log_request_(a, arrival, "snapshot", key, status, ua)
            self.send(status, headers, shown.body, "snapshot", key)
            return
        self.send(404, [], b"no such endpoint", "other", self.path)

    @staticmethod
    def log_request_(a, arrival, kind, key, status, ua):
        with a.lock:
            a.log.append((arrival, kind, key, status, ua))


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client killed mid-answer (the kill -9 test) is expected.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError,
                                              ConnectionResetError)):
            super().handle_error(request, client_address)


def start(archive):
    """Serves `archive` on 127.0.0.1 (an ephemeral port); returns the
    server (shutdown() stops it) and its base URL."""
    handler = type("BoundHandler", (Handler,), {"archive": archive})
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    archive.server = server
    return server, "http://127.0.0.1:%d" % server.server_address[1]
