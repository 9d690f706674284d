#!/usr/bin/env python3
"""End-to-end tests of `robotscan import commoncrawl` (issue 28, item 1).

WARC files come from an independent writer, GNU Wget's --warc-file, run
against a loopback server of this test that answers as a forward proxy for
named test hosts (a.test, www.c.test, ...), so that the captures carry real
host names. Every imported body is compared with the bytes the server sent.
Hand-made files add the edge cases (a truncated gzip member, wrong
Content-Length, WARC/1.1, non-HTTP and revisit records, a non-UTF-8 URI),
and a large file is imported by a process killed with SIGKILL mid-way, then
again: every record exactly once, integrity_check ok.

  import_commoncrawl_test.py ROBOTSCAN [TEST...]

Exit status 0 when every test passed, 77 (CTest's skip) when wget is
missing, 1 otherwise. Prints "N passed, N failed".
"""
import gzip
import http.server
import json
import os
import random
import shutil
import signal
import socketserver
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROBOTSCAN = sys.argv[1] if len(sys.argv) > 1 else "robotscan"
CRAWL_ID = "CC-MAIN-2024-10"
MAX_BODY = 500 * 1024

rng = random.Random(28)


def text_body(size):
    lines = []
    total = 0
    while total < size:
        line = "Disallow: /%08x\n" % rng.getrandbits(32)
        lines.append(line)
        total += len(line)
    return ("User-agent: *\n" + "".join(lines)).encode()[:size]


# What the server sends, by host: (status, headers, body as sent, body as
# the importer must store it).
A_BODY = b"User-agent: *\r\nDisallow: /a\x00\xff\xfe binary\n" + bytes(
    range(256))
B_BODY = text_body(700 * 1024)
C_BODY = b"User-agent: GPTBot\nDisallow: /\n"
E_BODY = text_body(20 * 1024)
ANSWERS = {
    "a.test": (200, [("Content-Type", "text/plain")], A_BODY),
    "b.test": (200, [("Content-Type", "text/plain")], B_BODY),
    "c.test": (301, [("Location", "http://www.c.test/robots.txt")], b"moved"),
    "www.c.test": (200, [("Content-Type", "text/plain"),
                         ("ETag", '"c1"')], C_BODY),
    "d.test": (404, [("Content-Type", "text/html")], b"<html>none</html>"),
    # gzip content coding, sent chunked (decoded by the importer).
    "e.test": (200, [("Content-Type", "text/plain"),
                     ("Content-Encoding", "gzip")], E_BODY),
    "f.test": (200, [("Content-Type", "text/plain")], b""),
    "loop.test": (302, [("Location", "/robots.txt")], b""),
}
# Files the server serves at 127.0.0.1 by path (a crawl's WARC files and
# its path list, for the URL and --paths inputs).
FILES = {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        # Absolute form (wget through its proxy setting): the host is named.
        path = self.path
        host = self.headers.get("Host", "").split(":")[0]
        if path.startswith("http://"):
            rest = path[len("http://"):]
            host = rest.split("/", 1)[0].split(":")[0]
            path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
        if host == "127.0.0.1" and path in FILES:
            status, headers, body = 200, [], FILES[path]
        else:
            status, headers, body = ANSWERS.get(
                host, (404, [("Content-Type", "text/plain")], b"unknown host"))
        self.send_response(status)
        chunked = host == "e.test"
        for k, v in headers:
            self.send_header(k, v)
        if chunked:
            payload = gzip.compress(body)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(0, len(payload), 1000):
                piece = payload[i:i + 1000]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def run(args, **kw):
    return subprocess.run(args, capture_output=True, timeout=120, **kw)


def import_json(db, *args):
    p = run([ROBOTSCAN, "import", "commoncrawl", "--db", db, "--json", "-q",
             *args])
    out = p.stdout.decode()
    return p.returncode, (json.loads(out) if out.strip() else {}), p.stderr


def query(db, sql, params=()):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def check(cond, what):
    if not cond:
        raise AssertionError(what)


# --- WARC writing for the hand-made cases --------------------------------


def warc_record(fields, block, version="1.0"):
    head = b"WARC/%s\r\n" % version.encode()
    for k, v in fields:
        value = v if isinstance(v, bytes) else v.encode()
        head += k.encode() + b": " + value + b"\r\n"
    head += b"Content-Length: %d\r\n\r\n" % len(block)
    return head + block + b"\r\n\r\n"


def response(uri, status, body, date="2024-02-21T10:00:00Z", version="1.0",
             extra=b""):
    http = (b"HTTP/1.1 %d X\r\nContent-Type: text/plain\r\n%s"
            b"Content-Length: %d\r\n\r\n" % (status, extra, len(body))) + body
    return warc_record([("WARC-Type", "response"),
                        ("WARC-Target-URI", uri),
                        ("WARC-Date", date),
                        ("Content-Type", "application/http; msgtype=response")],
                       http, version)


def member(data):
    return gzip.compress(data)


# --- Tests ----------------------------------------------------------------


def test_wget_warc_imports_byte_for_byte(work, port):
    warc = os.path.join(work, "site")
    urls = ["http://%s/robots.txt" % h for h in
            ["a.test", "b.test", "c.test", "d.test", "e.test", "f.test",
             "loop.test"]]
    p = run(["wget", "-q", "--warc-file=" + warc, "-e", "robots=off",
             "-e", "use_proxy=on", "-e", "http_proxy=http://127.0.0.1:%d/" %
             port, "--max-redirect=5", "--tries=1", "-O", os.devnull, *urls])
    check(os.path.exists(warc + ".warc.gz"), "wget wrote no WARC: %r" % (p,))
    db = os.path.join(work, "wget.sqlite")
    rc, summary, err = import_json(db, "--crawl-id", CRAWL_ID,
                                   warc + ".warc.gz")
    check(rc == 0, "import failed: %d %r" % (rc, err))
    check(summary["errors"] == 0, summary)
    rows = {r[0]: r[1:] for r in query(
        db, "SELECT d.name, f.http_status, f.access, b.data, f.truncated, "
        "f.redirects, f.url, f.final_url, f.source, f.source_file, "
        "f.source_offset, f.fetched_at, f.etag, f.error_class "
        "FROM fetch f JOIN domain d ON d.id = f.domain_id "
        "LEFT JOIN body b ON b.id = f.body_id")}
    check(sorted(rows) == ["a.test", "b.test", "c.test", "d.test", "e.test",
                           "f.test", "loop.test"], sorted(rows))
    check(rows["a.test"][2] == A_BODY, "a.test body differs")
    check(rows["a.test"][3] == 0, "a.test truncated")
    check(rows["b.test"][2] == B_BODY[:MAX_BODY], "b.test body not its prefix")
    check(rows["b.test"][3] == 1, "b.test not truncated")
    c = rows["c.test"]
    check(c[0] == 200 and c[2] == C_BODY and c[4] == 1, c)
    check(c[5] == "http://c.test/robots.txt", c)
    check(c[6] == "http://www.c.test/robots.txt", c)
    check(c[11] == '"c1"', c)
    check(rows["d.test"][0] == 404 and rows["d.test"][1] == "unavailable" and
          rows["d.test"][2] is None, rows["d.test"])
    check(rows["e.test"][2] == E_BODY, "e.test: gzip+chunked not decoded")
    check(rows["f.test"][2] == b"" and rows["f.test"][0] == 200,
          rows["f.test"])
    check(rows["loop.test"][12] == "redirect_loop", rows["loop.test"])
    for name, r in rows.items():
        check(r[7] == "commoncrawl" and r[8] == "site.warc.gz" and
              r[9] >= 0, (name, r))
        check(len(r[10]) == 24 and r[10].endswith("Z"), (name, r[10]))
    steps = query(db, "SELECT s.seq, s.http_status, s.location FROM "
                  "fetch_step s JOIN fetch f ON f.id = s.fetch_id JOIN domain "
                  "d ON d.id = f.domain_id WHERE d.name = 'c.test' ORDER BY "
                  "s.seq")
    check(steps == [(0, 301, "http://www.c.test/robots.txt"), (1, 200, None)],
          steps)
    check(summary["redirect_hops"] == 1, summary)
    # The record offsets are gzip member starts: each decompresses alone
    # into the record of that URL.
    data = open(warc + ".warc.gz", "rb").read()
    for name, r in rows.items():
        record = zlib.decompressobj(31).decompress(data[r[9]:])
        check(record.startswith(b"WARC/1.0\r\n") and
              b"/robots.txt" in record.split(b"\r\n\r\n")[0], name)
    run_row = query(db, "SELECT source, source_crawl, status FROM crawl_run")
    check(run_row == [("commoncrawl", CRAWL_ID, "finished")], run_row)
    # A second import of the same file and crawl ID changes nothing.
    rc, again, _ = import_json(db, "--crawl-id", CRAWL_ID, warc + ".warc.gz")
    check(rc == 0 and again["files_already_done"] == 1 and
          again["fetches"] == 0, again)
    check(query(db, "SELECT count(*) FROM fetch") == [(7,)], "rows changed")
    # With a list, only its domains (and their www. hosts) are imported.
    listed = os.path.join(work, "top.csv")
    with open(listed, "w") as f:
        f.write("1,c.test\n2,a.test\n")
    db2 = os.path.join(work, "listed.sqlite")
    rc, s2, _ = import_json(db2, "--crawl-id", CRAWL_ID, "--list", listed,
                            warc + ".warc.gz")
    check(rc == 0 and s2["fetches"] == 2 and
          s2["skipped"].get("not_in_list", 0) >= 5, s2)
    check(query(db2, "SELECT d.name, f.rank FROM fetch f JOIN domain d ON "
                "d.id = f.domain_id ORDER BY f.rank") ==
          [("c.test", 1), ("a.test", 2)], "ranks")


def test_hand_made_edge_cases_are_counted(work, port):
    good = response("http://g.test/robots.txt", 200, b"User-agent: *\n")
    members = [
        member(warc_record([("WARC-Type", "warcinfo"),
                            ("Content-Type", "application/warc-fields")],
                           b"isPartOf: CC-MAIN-2023-50\r\n")),
        member(good),
        # WARC/1.1, with a fractional WARC-Date.
        member(response("http://h.test/robots.txt", 200, b"Disallow: /h\n",
                        date="2024-02-21T10:00:00.123456Z", version="1.1")),
        # A Content-Length longer than the record: runs past its member.
        member(b"WARC/1.0\r\nWARC-Type: response\r\n"
               b"WARC-Target-URI: http://r.test/robots.txt\r\n"
               b"WARC-Date: 2024-02-21T10:00:00Z\r\n"
               b"Content-Type: application/http\r\nContent-Length: 99999"
               b"\r\n\r\nHTTP/1.1 200 OK\r\n\r\nabc\r\n\r\n"),
        # A Content-Length shorter than the block.
        member(b"WARC/1.0\r\nWARC-Type: response\r\n"
               b"WARC-Target-URI: http://i.test/robots.txt\r\n"
               b"WARC-Date: 2024-02-21T10:00:00Z\r\n"
               b"Content-Type: application/http\r\nContent-Length: 10"
               b"\r\n\r\nHTTP/1.1 200 OK\r\n\r\nabc\r\n\r\n"),
        # Non-HTTP records: a DNS response, a resource, a metadata record.
        member(warc_record([("WARC-Type", "response"),
                            ("WARC-Target-URI", "dns:j.test"),
                            ("WARC-Date", "2024-02-21T10:00:00Z"),
                            ("Content-Type", "text/dns")], b"j.test A 1")),
        member(warc_record([("WARC-Type", "resource"),
                            ("WARC-Target-URI", "http://k.test/robots.txt"),
                            ("WARC-Date", "2024-02-21T10:00:00Z"),
                            ("Content-Type", "text/plain")], b"x")),
        # A revisit record.
        member(warc_record([("WARC-Type", "revisit"),
                            ("WARC-Target-URI", "http://g.test/robots.txt"),
                            ("WARC-Date", "2024-02-22T10:00:00Z"),
                            ("WARC-Profile", "http://netpreserve.org/warc/"
                             "1.0/revisit/identical-payload-digest"),
                            ("Content-Type", "application/http")],
                           b"HTTP/1.1 200 OK\r\n\r\n")),
        # A non-UTF-8 URI.
        member(response(b"http://l.test/robots\xff.txt", 200, b"x")),
        # Not a WARC record at all.
        member(b"GET / HTTP/1.1\r\n\r\n"),
        # A response whose block is no HTTP.
        member(warc_record([("WARC-Type", "response"),
                            ("WARC-Target-URI", "http://m.test/robots.txt"),
                            ("WARC-Date", "2024-02-21T10:00:00Z"),
                            ("Content-Type", "application/http")],
                           b"<html>not http</html>")),
        # A bad WARC-Date.
        member(response("http://n.test/robots.txt", 200, b"x",
                        date="yesterday")),
        member(response("http://o.test/robots.txt", 200, b"last")),
    ]
    edge = os.path.join(work, "edge.warc.gz")
    with open(edge, "wb") as f:
        f.write(b"".join(members))
    # A truncated gzip member ends a second file.
    truncated = os.path.join(work, "truncated.warc.gz")
    with open(truncated, "wb") as f:
        f.write(member(response("http://p.test/robots.txt", 200, b"p")))
        whole = member(response("http://q.test/robots.txt", 200, b"q" * 500))
        f.write(whole[:len(whole) // 2])
    db = os.path.join(work, "edge.sqlite")
    # No --crawl-id: the warcinfo's isPartOf names it.
    rc, s, err = import_json(db, edge, truncated)
    check(rc == 0, "import failed: %d %r" % (rc, err))
    check(s["crawl_id"] == "CC-MAIN-2023-50", s)
    names = sorted(r[0] for r in query(
        db, "SELECT d.name FROM fetch f JOIN domain d ON d.id = f.domain_id"))
    check(names == ["g.test", "h.test", "o.test", "p.test"], names)
    check(s["skipped"] == {"warcinfo": 1, "not_http": 2, "revisit": 1,
                           "bad_uri": 1}, s["skipped"])
    # Too long, too short, not WARC, no HTTP, bad date, truncated member.
    check(s["errors"] == 6, s)
    check(s["records"] == 15, s)
    check(query(db, "SELECT fetched_at, source_timestamp FROM fetch f JOIN "
                "domain d ON d.id = f.domain_id WHERE d.name = 'h.test'") ==
          [("2024-02-21T10:00:00.123Z", "2024-02-21T10:00:00.123456Z")],
          "WARC/1.1 date")
    files = query(db, "SELECT name, state, records, fetches, skipped, errors "
                  "FROM history_file ORDER BY name")
    check(files == [("edge.warc.gz", "done", 13, 3, 5, 5),
                    ("truncated.warc.gz", "done", 2, 1, 0, 1)], files)
    check(query(db, "PRAGMA integrity_check") == [("ok",)], "integrity")


def make_big_warc(path, records):
    with open(path, "wb") as f:
        for i in range(records):
            f.write(member(response(
                "http://d%d.test/robots.txt" % i, 200,
                b"User-agent: *\nDisallow: /%d\n" % i,
                date="2024-02-21T%02d:%02d:%02dZ" % (i // 3600 % 24,
                                                     i // 60 % 60, i % 60))))


def test_kill_9_then_rerun_imports_each_record_once(work, port):
    records = 40000
    warc = os.path.join(work, "big.warc.gz")
    make_big_warc(warc, records)
    db = os.path.join(work, "kill.sqlite")
    proc = subprocess.Popen([ROBOTSCAN, "import", "commoncrawl", "--db", db,
                             "--crawl-id", CRAWL_ID, "--batch", "200", "-q",
                             warc], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    killed_at = 0
    while time.time() < deadline and proc.poll() is None:
        try:
            rows = query(db, "SELECT fetches FROM history_file")
        except sqlite3.Error:
            rows = []
        if rows and rows[0][0] >= 2000:
            proc.send_signal(signal.SIGKILL)
            killed_at = rows[0][0]
            break
        time.sleep(0.02)
    proc.wait()
    check(killed_at > 0, "the import ended before it could be killed")
    done = query(db, "SELECT count(*) FROM fetch")[0][0]
    check(0 < done < records, "killed mid-way: %d of %d" % (done, records))
    rc, s, err = import_json(db, "--crawl-id", CRAWL_ID, warc)
    check(rc == 0, "rerun failed: %d %r" % (rc, err))
    check(s["files_resumed"] == 1 and s["fetches"] == records - done, s)
    check(query(db, "SELECT count(*), count(DISTINCT source_offset), "
                "count(DISTINCT domain_id) FROM fetch") ==
          [(records, records, records)], "not exactly once")
    check(query(db, "SELECT records, fetches, duplicates, errors, state FROM "
                "history_file") == [(records, records, 0, 0, "done")],
          query(db, "SELECT * FROM history_file"))
    check(query(db, "PRAGMA integrity_check") == [("ok",)], "integrity")
    bodies = query(db, "SELECT d.name, b.data FROM fetch f JOIN domain d ON "
                   "d.id = f.domain_id JOIN body b ON b.id = f.body_id "
                   "WHERE d.name IN ('d0.test', 'd39999.test') ORDER BY "
                   "d.name")
    check(bodies == [("d0.test", b"User-agent: *\nDisallow: /0\n"),
                     ("d39999.test", b"User-agent: *\nDisallow: /39999\n")],
          bodies)


def test_jobs_and_duplicates_keep_the_earliest_capture(work, port):
    # The same domain captured in two files: the earliest capture stays,
    # whatever the order the files are read in.
    first = os.path.join(work, "one.warc.gz")
    second = os.path.join(work, "two.warc.gz")
    with open(first, "wb") as f:
        f.write(member(response("http://x.test/robots.txt", 200, b"late",
                                date="2024-02-22T00:00:00Z")))
        f.write(member(response("http://www.x.test/robots.txt", 200,
                                b"www late", date="2024-02-23T00:00:00Z")))
    with open(second, "wb") as f:
        f.write(member(response("http://x.test/robots.txt", 200, b"early",
                                date="2024-02-20T00:00:00Z")))
    # The same file named twice (another path, the same name) is read once.
    copy_dir = os.path.join(work, "copy")
    os.makedirs(copy_dir, exist_ok=True)
    shutil.copy(first, copy_dir)
    db = os.path.join(work, "twice.sqlite")
    rc, s, err = import_json(db, "--crawl-id", CRAWL_ID, "--jobs", "2", first,
                             os.path.join(copy_dir, "one.warc.gz"))
    check(rc == 0 and s["files"] == 1 and s["records"] == 2 and
          s["fetches"] == 1 and s["duplicates"] == 1, (rc, s, err))
    for order, name in (([first, second], "ab"), ([second, first], "ba")):
        db = os.path.join(work, "dup-%s.sqlite" % name)
        rc, s, err = import_json(db, "--crawl-id", CRAWL_ID, "--jobs", "2",
                                 *order)
        check(rc == 0 and s["duplicates"] == 2, (rc, s, err))
        check(query(db, "SELECT b.data, f.source_file FROM fetch f JOIN body "
                    "b ON b.id = f.body_id") == [(b"early", "two.warc.gz")],
              name)


def test_latest_fetch_is_the_newest_capture_whatever_the_order(work, port):
    # A newer crawl imported first, an older one second: latest_fetch still
    # shows the newer capture; each run keeps its own.
    new = os.path.join(work, "new.warc.gz")
    old = os.path.join(work, "old.warc.gz")
    with open(new, "wb") as f:
        f.write(member(response("http://y.test/robots.txt", 200, b"new",
                                date="2024-03-01T00:00:00Z")))
    with open(old, "wb") as f:
        f.write(member(response("http://y.test/robots.txt", 200, b"old",
                                date="2023-12-01T00:00:00Z")))
    db = os.path.join(work, "latest.sqlite")
    for path, crawl in ((new, "CC-MAIN-2024-10"), (old, "CC-MAIN-2023-50")):
        rc, s, err = import_json(db, "--crawl-id", crawl, path)
        check(rc == 0 and s["fetches"] == 1, (rc, s, err))
    check(query(db, "SELECT body, fetched_at FROM latest_fetch") ==
          [(b"new", "2024-03-01T00:00:00.000Z")],
          query(db, "SELECT * FROM latest_fetch"))
    check(query(db, "SELECT r.source_crawl, b.data FROM fetch f JOIN "
                "crawl_run r ON r.id = f.run_id JOIN body b ON b.id = "
                "f.body_id ORDER BY r.id") ==
          [("CC-MAIN-2024-10", b"new"), ("CC-MAIN-2023-50", b"old")], "runs")


def test_urls_and_path_lists_are_downloaded(work, port):
    prefix = "crawl-data/CC-MAIN-2024-18/segments/1/robotstxt/"
    names = ["CC-MAIN-1-00000.warc.gz", "CC-MAIN-1-00001.warc.gz"]
    for i, name in enumerate(names):
        FILES["/" + prefix + name] = member(response(
            "http://u%d.test/robots.txt" % i, 200, b"User-agent: u%d\n" % i))
    paths = os.path.join(work, "robotstxt.paths.gz")
    with gzip.open(paths, "wb") as f:
        f.write("".join(prefix + n + "\n" for n in names).encode())
        f.write(("crawl-data/CC-MAIN-2024-18/missing.warc.gz\n").encode())
    db = os.path.join(work, "urls.sqlite")
    base = "http://127.0.0.1:%d/" % port
    # The crawl ID comes from the paths; the missing file fails (exit 3)
    # and is retried by the next run.
    rc, s, err = import_json(db, "--paths", paths, "--base-url", base,
                             "--download-dir", work)
    check(rc == 3 and s["crawl_id"] == "CC-MAIN-2024-18" and
          s["files_imported"] == 2 and s["files_failed"] == 1 and
          s["fetches"] == 2, (rc, s, err))
    check(query(db, "SELECT d.name, f.source_file, b.data FROM fetch f JOIN "
                "domain d ON d.id = f.domain_id JOIN body b ON b.id = "
                "f.body_id ORDER BY d.name") ==
          [("u0.test", names[0], b"User-agent: u0\n"),
           ("u1.test", names[1], b"User-agent: u1\n")], "bodies")
    check(query(db, "SELECT status FROM crawl_run") == [("interrupted",)],
          "a run with a failed file is not finished")
    check(not [f for f in os.listdir(work) if f.endswith(".part")],
          "downloads left behind")
    FILES["/crawl-data/CC-MAIN-2024-18/missing.warc.gz"] = member(response(
        "http://u9.test/robots.txt", 200, b"late"))
    rc, s, err = import_json(db, "--paths", paths, "--base-url", base,
                             "--download-dir", work)
    check(rc == 0 and s["files_already_done"] == 2 and
          s["files_imported"] == 1 and s["fetches"] == 1, (rc, s, err))
    check(query(db, "SELECT status FROM crawl_run") == [("finished",)], "run")
    # A single URL argument works the same way.
    db2 = os.path.join(work, "url.sqlite")
    rc, s, err = import_json(db2, base + prefix + names[0])
    check(rc == 0 and s["fetches"] == 1 and
          s["crawl_id"] == "CC-MAIN-2024-18", (rc, s, err))


def main():
    if shutil.which("wget") is None:
        print("SKIPPED: GNU wget is not installed (scripts/bootstrap --extras)")
        return 77
    work = tempfile.mkdtemp(prefix="robotscan-history-")
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    tests = [t for name, t in sorted(globals().items())
             if name.startswith("test_") and
             (len(sys.argv) < 3 or name in sys.argv[2:])]
    passed = failed = 0
    try:
        for test in tests:
            started = time.time()
            try:
                test(work, port)
                passed += 1
                print("PASS %s (%.1f s)" % (test.__name__,
                                            time.time() - started))
            except Exception as e:  # noqa: BLE001 - reported, then counted
                failed += 1
                print("FAIL %s: %s" % (test.__name__, e))
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
