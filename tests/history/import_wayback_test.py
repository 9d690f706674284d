#!/usr/bin/env python3
"""End-to-end tests of `robotscan import wayback` (issue 28, item 2)
against wayback_emulator.py, a loopback emulator of the Wayback Machine's
CDX API and snapshots (127.0.0.1 only; nothing else is contacted).

Checked: JSON and plain CDX output, resumeKey pagination, 429 and 503
answered no earlier than their Retry-After (seconds and an HTTP date),
empty answers, the archive's own error pages and HTML captures counted
and recorded, captured redirects followed through the archive (or left
unresolved with why), every imported body equal to the bytes the emulator served,
one fetch per domain per period, the concurrency bound as the emulator
counted it, resume after SIGINT and after kill -9 (each snapshot imported
exactly once, integrity_check ok), and the CLI's refusal of a bad --from/--to.

  import_wayback_test.py ROBOTSCAN [TEST...]

Exit status 0 when every test passed, 1 otherwise. Prints "N passed, N
failed".
"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wayback_emulator as wb  # noqa: E402

ROBOTSCAN = sys.argv[1] if len(sys.argv) > 1 else "robotscan"
MONTHS = ["2023-%02d" % m for m in range(1, 7)]
CONCURRENCY = 2

BINARY = b"User-agent: *\r\nDisallow: /a\x00\xff\xfe binary\n" + bytes(
    range(256))
PLAIN = [("Content-Type", "text/plain")]


def a_captures():
    # Two captures in some months (the first must be taken), one before
    # the range, a revisit in April (replays March's bytes).
    cs = []
    for month in range(1, 7):
        if month == 4:
            continue
        cs.append(wb.Capture("2023%02d03101112" % month,
                             "https://a.test/robots.txt", "200",
                             "text/plain", BINARY + b"#%d\n" % month, PLAIN))
        cs.append(wb.Capture("2023%02d20000000" % month,
                             "http://www.a.test/robots.txt", "200",
                             "text/plain", b"later in the month\n", PLAIN))
    march = cs[4]
    cs.append(wb.Capture("20230405060708", "https://a.test/robots.txt", "-",
                         "warc/revisit", b"", revisit_of=march))
    cs.append(wb.Capture("20221231235959", "https://a.test/robots.txt",
                         "200", "text/plain", b"before the range\n", PLAIN))
    return cs


def archive(snapshot_delay=0.0):
    captures = {
        "a.test": a_captures(),
        # Captured under www. only, in two months.
        "b.test": [wb.Capture("20230210000000", "http://www.b.test/robots.txt",
                              "200", "text/plain",
                              b"User-agent: GPTBot\nDisallow: /\n",
                              PLAIN + [("ETag", '"b1"')]),
                   wb.Capture("20230611000000", "https://www.b.test/robots.txt",
                              "200", "text/plain", b"", PLAIN)],
        "plain.test": [wb.Capture("2023%02d01000000" % m,
                                  "http://plain.test/robots.txt", "200",
                                  "text/plain", b"Disallow: /%d\n" % m, PLAIN)
                       for m in (1, 3, 5)],
        "slow.test": [wb.Capture("20230115000000",
                                 "http://slow.test/robots.txt", "200",
                                 "text/plain", b"Disallow: /slow\n", PLAIN)],
        "busy.test": [wb.Capture("20230215000000",
                                 "http://busy.test/robots.txt", "200",
                                 "text/plain", b"Disallow: /busy\n", PLAIN)],
        "empty.test": [],
        "emptybody.test": [wb.Capture("20230101000000",
                                      "http://emptybody.test/robots.txt",
                                      "200", "text/plain", b"x", PLAIN)],
        "html.test": [wb.Capture("20230301000000",
                                 "http://html.test/robots.txt", "200",
                                 "text/html",
                                 b"<!DOCTYPE html><html><body>Welcome"
                                 b"</body></html>",
                                 [("Content-Type", "text/html")])],
        "gone.test": [wb.Capture("20230401000000",
                                 "http://gone.test/robots.txt", "200",
                                 "text/plain", b"never replayed",
                                 archive_error=True)],
        # A redirect whose target was captured seconds later (followed),
        # one whose target never was, one whose target was captured only
        # two months later (neither followed).
        "moved.test": [wb.Capture("20230501000000",
                                  "http://moved.test/robots.txt", "301",
                                  "text/html", b"",
                                  [("Location",
                                    "https://www.moved.test/robots.txt")]),
                       wb.Capture("20230501000005",
                                  "https://www.moved.test/robots.txt", "200",
                                  "text/plain", b"Disallow: /moved\n",
                                  PLAIN)],
        "lost.test": [wb.Capture("20230201000000",
                                 "http://lost.test/robots.txt", "302",
                                 "text/html", b"",
                                 [("Location",
                                   "https://elsewhere.test/robots.txt")])],
        "late.test": [wb.Capture("20230110000000",
                                 "http://late.test/robots.txt", "301",
                                 "text/html", b"",
                                 [("Location", "/new-robots.txt")]),
                      wb.Capture("20230315000000",
                                 "http://late.test/new-robots.txt", "200",
                                 "text/plain", b"Disallow: /late\n",
                                 PLAIN)],
        "missing.test": [wb.Capture("20230601000000",
                                    "http://missing.test/robots.txt", "404",
                                    "text/html", b"<html>404</html>",
                                    [("Content-Type", "text/html")])],
    }
    captures["blocked.test"] = [wb.Capture("20230101000000",
                                          "http://blocked.test/robots.txt",
                                          "200", "text/plain", b"excluded")]
    quirks = {"blocked.test": {"blocked"},
              "plain.test": {"plain"}, "slow.test": {"cdx_429"},
              "busy.test": {"snapshot_503"}, "emptybody.test": {"empty_body"}}
    return wb.Archive(captures, quirks, delay=0.02,
                      snapshot_delay=snapshot_delay)


def final_capture(arch, first):
    """The capture a chain of captured redirects ends at, following each
    to the target's capture nearest the first's time while it lies in the
    same month; None when it is left unresolved."""
    current = first
    while 300 <= int(current.replayed().status) <= 399:
        location = dict(current.headers).get("Location")
        target = urllib.parse.urljoin(current.original, location)
        near = arch.nearest(first.timestamp, target)
        if near is None or near.original != target or \
                near.timestamp[:6] != first.timestamp[:6]:
            return None
        current = near
    return current


def expected(arch):
    """(domain, period) -> the capture the import must take: the first of
    the month, unless the archive cannot replay it."""
    out = {}
    for domain, captures in arch.captures.items():
        if domain in ("emptybody.test", "blocked.test"):
            continue  # The CDX answer is empty, or a refusal.
        for c in sorted(captures, key=lambda c: c.timestamp):
            if wb.url_key(c.original) != domain + "/robots.txt":
                continue  # Another URL: a redirect's target.
            period = c.timestamp[:4] + "-" + c.timestamp[4:6]
            if period in MONTHS and (domain, period) not in out:
                out[(domain, period)] = c
    return {k: c for k, c in out.items() if not c.archive_error}


def write_list(path, domains):
    with open(path, "w") as f:
        for rank, d in enumerate(domains, 1):
            f.write("%d,%s\n" % (rank, d))


def run(args, **kw):
    return subprocess.run(args, capture_output=True, timeout=60, **kw)


def wayback(db, listing, base, *extra, first="202301", last="202306"):
    p = run([ROBOTSCAN, "import", "wayback", "--db", db, "--list", listing,
             "--from", first, "--to", last, "--wayback-url", base,
             "--concurrency", str(CONCURRENCY), "--cdx-page", "2",
             "--cdx-per-minute", "0", "--snapshots-per-second", "0",
             "--json", "-q", *extra])
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


FETCHES = ("SELECT r.source_crawl, d.name, f.source_timestamp, f.http_status, "
           "f.access, coalesce(f.error_class, ''), b.data, f.url, "
           "f.fetched_at, f.source, coalesce(f.content_type, ''), "
           "coalesce(f.etag, '') FROM fetch f JOIN crawl_run r ON r.id = "
           "f.run_id JOIN domain d ON d.id = f.domain_id LEFT JOIN body b ON "
           "b.id = f.body_id ORDER BY 1, 2")


def check_imported(db, arch):
    want = expected(arch)
    rows = query(db, FETCHES)
    got = {(r[1], r[0]): r for r in rows}
    check(len(rows) == len(got), "more than one fetch per domain and period")
    check(sorted(got) == sorted(want),
          "fetches %s, expected %s" % (sorted(got), sorted(want)))
    for key, c in want.items():
        r = got[key]
        final = final_capture(arch, c)
        shown = (final or c).replayed()
        status = int(shown.status)
        check(r[2] == c.timestamp, (key, r[2], c.timestamp))
        check(r[3] == status, (key, r[3]))
        body = r[6] if r[6] is not None else b""
        want_body = shown.body if 200 <= status < 300 else b""
        check(body == want_body, "%s: body %r, served %r" % (key, body[:40],
                                                             want_body[:40]))
        check(r[7] == c.original, (key, r[7]))
        ts = c.timestamp
        check(r[8] == "%s-%s-%sT%s:%s:%s.000Z" % (
            ts[:4], ts[4:6], ts[6:8], ts[8:10], ts[10:12], ts[12:]), r[8])
        check(r[9] == "wayback", r[9])
    check(query(db, "SELECT count(*) FROM crawl_run WHERE source = 'wayback'")
          == [(6,)], "one run per month")
    check(query(db, "SELECT DISTINCT source_crawl FROM crawl_run ORDER BY 1")
          == [(m,) for m in MONTHS], "run labels")
    check(query(db, "PRAGMA integrity_check") == [("ok",)], "integrity")


DOMAINS = ["a.test", "b.test", "plain.test", "slow.test", "busy.test",
           "empty.test", "emptybody.test", "html.test", "gone.test",
           "moved.test", "lost.test", "late.test", "missing.test",
           "blocked.test"]


def test_json_import_then_rerun(work):
    arch = archive()
    server, base = wb.start(arch)
    try:
        listing = os.path.join(work, "top.csv")
        write_list(listing, DOMAINS)
        db = os.path.join(work, "json.sqlite")
        started = time.time()
        rc, s, err = wayback(db, listing, base)
        check(rc == 0, "import failed: %d %r %r" % (rc, s, err))
        check_imported(db, arch)
        want = expected(arch)
        check(s["fetches"] == len(want), s)
        check(s["periods"] == MONTHS, s["periods"])
        # One capture the archive does not replay, six months of an
        # excluded site.
        check(s["html"] == 1 and s["archive_errors"] == 1 + 6, s)
        check(s["units_failed"] == 0 and s["domains"] == len(DOMAINS), s)
        check(s["no_capture"] == 6 * len(DOMAINS) - len(want) - 1 - 6, s)
        blocked = query(db, "SELECT h.errors, h.state, h.last_error FROM "
                        "history_file h WHERE h.name = 'blocked.test'")
        check(len(blocked) == 6 and all(
            b[0] == 1 and b[1] == "done" and "HTTP 403" in b[2]
            for b in blocked), blocked)
        check(s["retries"] == 2, s)
        # Pagination: a.test's captures (six months after collapse) come in
        # pages of two, following resumeKey.
        pages = [k for (_, kind, k, _, _) in arch.requests("cdx")
                 if k[0] == "a.test"]
        check(pages == [("a.test", ""), ("a.test", "2"), ("a.test", "4")],
              pages)
        check(all("output=json" in p and "collapse=timestamp:6" in p and
                  "from=202301" in p and "to=202306" in p
                  for p in arch.paths if p.startswith("/cdx/")),
              [p for p in arch.paths if p.startswith("/cdx/")][:2])
        # The site's HTML is kept as it came, with its Content-Type; the
        # archive's own page is no fetch, and history_file says why.
        html = query(db, "SELECT f.content_type, f.access FROM fetch f JOIN "
                     "domain d ON d.id = f.domain_id WHERE d.name = "
                     "'html.test'")
        check(html == [("text/html", "success")], html)
        gone = query(db, "SELECT h.errors, h.last_error, h.state FROM "
                     "history_file h JOIN crawl_run r ON r.id = h.run_id "
                     "WHERE h.name = 'gone.test' AND r.source_crawl = "
                     "'2023-04'")
        check(len(gone) == 1 and gone[0][0] == 1 and gone[0][2] == "done" and
              "page of its own" in gone[0][1], gone)
        # Captured redirects: followed through the archive to the target's
        # capture of the same month, or recorded unresolved with why.
        steps = query(db, "SELECT d.name, f.http_status, f.redirects, "
                      "coalesce(f.error_class, ''), coalesce(f.error_message, "
                      "''), f.final_url, s.seq, s.url, s.http_status, "
                      "coalesce(s.location, '') FROM fetch f JOIN domain d ON "
                      "d.id = f.domain_id JOIN fetch_step s ON s.fetch_id = "
                      "f.id JOIN crawl_run r ON r.id = f.run_id WHERE d.name "
                      "IN ('moved.test', 'lost.test', 'late.test') AND "
                      "r.source_crawl IN ('2023-01', '2023-02', '2023-05') "
                      "ORDER BY 1, 7")
        check([row[:4] + row[5:] for row in steps] == [
            ("late.test", 301, 1, "other", "http://late.test/robots.txt",
             0, "http://late.test/robots.txt", 301, "/new-robots.txt"),
            ("lost.test", 302, 1, "other", "http://lost.test/robots.txt",
             0, "http://lost.test/robots.txt", 302,
             "https://elsewhere.test/robots.txt"),
            ("moved.test", 200, 1, "", "https://www.moved.test/robots.txt",
             0, "http://moved.test/robots.txt", 301,
             "https://www.moved.test/robots.txt"),
            ("moved.test", 200, 1, "", "https://www.moved.test/robots.txt",
             1, "https://www.moved.test/robots.txt", 200, "")], steps)
        check("captured only outside the period" in steps[0][4] and
              "not in the archive" in steps[1][4], steps)
        check(query(db, "SELECT etag FROM fetch WHERE etag IS NOT NULL") ==
              [('"b1"',)], "the site's headers (X-Archive-Orig-*) kept")
        # Politeness: the bound, the waits asked for, the User-Agent.
        check(arch.max_in_flight <= CONCURRENCY,
              "%d requests at once" % arch.max_in_flight)
        check(arch.max_in_flight == CONCURRENCY,
              "the workers never overlapped: the bound is untested")
        for sent, kind, key, status, retry_at in list(arch.sent):
            if retry_at is None:
                continue
            later = [t for (t, k2, key2, _, _) in arch.log
                     if k2 == kind and key2 == key and t > sent]
            check(later, "%s %s was not retried" % (kind, key))
            check(min(later) >= retry_at,
                  "%s %s retried %.3f s early" % (kind, key,
                                                  retry_at - min(later)))
        agents = {ua for (_, _, _, _, ua) in arch.log}
        check(len(agents) == 1 and next(iter(agents)).startswith("robotscan/"),
              agents)
        check(time.time() - started < 15, "too slow")
        # The same command again: every unit is done, nothing is asked.
        arch.reset_log()
        rc, s, err = wayback(db, listing, base)
        check(rc == 0 and s["fetches"] == 0 and
              s["domains_done_before"] == len(DOMAINS), (rc, s, err))
        check(arch.log == [], "a rerun asked the archive again: %r" %
              arch.log[:3])
        check_imported(db, arch)
    finally:
        server.shutdown()


def test_plain_text_output_imports_the_same(work):
    arch = archive()
    server, base = wb.start(arch)
    try:
        listing = os.path.join(work, "top-plain.csv")
        write_list(listing, DOMAINS)
        db = os.path.join(work, "plain.sqlite")
        rc, s, err = wayback(db, listing, base, "--cdx-plain")
        check(rc == 0, "import failed: %d %r %r" % (rc, s, err))
        check_imported(db, arch)
        cdx = [p for p in arch.paths if p.startswith("/cdx/")]
        check(cdx and all("output=json" not in p for p in cdx),
              "asked for JSON: %r" % cdx[:2])
    finally:
        server.shutdown()


def test_quarters_take_the_first_capture_of_each(work):
    arch = archive()
    server, base = wb.start(arch)
    try:
        listing = os.path.join(work, "top-q.csv")
        write_list(listing, ["a.test", "b.test"])
        db = os.path.join(work, "q.sqlite")
        rc, s, err = wayback(db, listing, base, "--every", "quarter",
                             first="202302", last="2023")
        check(rc == 0, "import failed: %d %r %r" % (rc, s, err))
        check(s["periods"] == ["2023-Q1", "2023-Q2", "2023-Q3", "2023-Q4"],
              s["periods"])
        rows = query(db, "SELECT r.source_crawl, d.name, f.source_timestamp "
                     "FROM fetch f JOIN crawl_run r ON r.id = f.run_id JOIN "
                     "domain d ON d.id = f.domain_id ORDER BY 1, 2")
        check(rows == [("2023-Q1", "a.test", "20230103101112"),
                       ("2023-Q1", "b.test", "20230210000000"),
                       ("2023-Q2", "a.test", "20230405060708"),
                       ("2023-Q2", "b.test", "20230611000000")], rows)
    finally:
        server.shutdown()


def test_request_starts_are_paced(work):
    # 10 CDX queries a second and 20 snapshots a second, two workers:
    # the archive sees each kind spaced at least 100 and 50 ms apart.
    captures = {}
    for i in range(6):
        d = "p%d.test" % i
        captures[d] = [wb.Capture("2023%02d01000000" % m,
                                  "http://%s/robots.txt" % d, "200",
                                  "text/plain", b"Disallow: /%d\n" % m,
                                  PLAIN) for m in range(1, 4)]
    arch = wb.Archive(captures)
    server, base = wb.start(arch)
    try:
        listing = os.path.join(work, "top-pace.csv")
        write_list(listing, sorted(captures))
        db = os.path.join(work, "pace.sqlite")
        p = run([ROBOTSCAN, "import", "wayback", "--db", db, "--list",
                 listing, "--from", "202301", "--to", "202303",
                 "--wayback-url", base, "--concurrency", "2",
                 "--cdx-per-minute", "600", "--snapshots-per-second", "20",
                 "--json", "-q"])
        s = json.loads(p.stdout.decode() or "{}")
        check(p.returncode == 0 and s.get("fetches") == 18, (p.returncode, s))
        # Arrival times may bunch by a connection's set-up; 10 ms of slack.
        for kind, gap in (("cdx", 0.1), ("snapshot", 0.05)):
            times = sorted(t for (t, _, _, _, _) in arch.requests(kind))
            gaps = [b - a for a, b in zip(times, times[1:])]
            check(min(gaps) >= gap - 0.01,
                  "%s requests %.3f s apart" % (kind, min(gaps)))
    finally:
        server.shutdown()


def stop_when(db, proc, fetches, sig):
    """Sends `sig` to `proc` once the database holds `fetches` fetches;
    the fetches (period, domain) it holds when the process has ended."""
    deadline = time.time() + 20
    sent = False
    while time.time() < deadline and proc.poll() is None:
        try:
            n = query(db, "SELECT count(*) FROM fetch")[0][0]
        except sqlite3.Error:
            n = 0
        if n >= fetches:
            proc.send_signal(sig)
            sent = True
            break
        time.sleep(0.01)
    proc.wait(timeout=20)
    check(sent, "the import ended before it could be stopped")
    return {(r[0], r[1]) for r in query(
        db, "SELECT r.source_crawl, d.name FROM fetch f JOIN crawl_run r "
        "ON r.id = f.run_id JOIN domain d ON d.id = f.domain_id")}


def test_sigint_then_kill_9_then_rerun_imports_each_snapshot_once(work):
    # 24 domains of six monthly captures each, each snapshot slow enough
    # that the import can be stopped in the middle, twice.
    captures = {}
    for i in range(24):
        d = "k%02d.test" % i
        captures[d] = [wb.Capture("2023%02d%02d000000" % (m, i + 1),
                                  "http://%s/robots.txt" % d, "200",
                                  "text/plain",
                                  b"User-agent: *\nDisallow: /%d/%d\n" %
                                  (i, m), PLAIN) for m in range(1, 7)]
    arch = wb.Archive(captures, delay=0.005, snapshot_delay=0.02)
    server, base = wb.start(arch)
    try:
        listing = os.path.join(work, "top-k.csv")
        write_list(listing, sorted(captures))
        db = os.path.join(work, "kill.sqlite")
        command = [ROBOTSCAN, "import", "wayback", "--db", db, "--list",
                   listing, "--from", "2023", "--to", "202306",
                   "--wayback-url", base, "--concurrency", str(CONCURRENCY),
                   "--cdx-per-minute", "0", "--snapshots-per-second", "0",
                   "-q"]
        # Ctrl-C: the import stops, says so, and exits 130.
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        after_sigint = stop_when(db, proc, 20, signal.SIGINT)
        check(proc.returncode == 130 and b"run the same command again" in
              proc.stderr.read(), "SIGINT: exit %d" % proc.returncode)
        check(0 < len(after_sigint) < 144, len(after_sigint))
        check(query(db, "SELECT DISTINCT status FROM crawl_run") ==
              [("interrupted",)], query(db, "SELECT status FROM crawl_run"))
        # kill -9 in the middle of the rest.
        arch.reset_log()
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        after_kill = stop_when(db, proc, len(after_sigint) + 40,
                               signal.SIGKILL)
        check(len(after_sigint) < len(after_kill) < 144, len(after_kill))

        def snapshots_of(units):
            return [k for (_, _, k, _, _) in arch.requests("snapshot")
                    if ("2023-" + k[0][4:6], k[1].split("/")[2]) in units]

        check(snapshots_of(after_sigint) == [],
              "snapshots imported before the SIGINT fetched again")
        arch.reset_log()
        rc, s, err = wayback(db, listing, base)
        check(rc == 0, "rerun failed: %d %r" % (rc, err))
        check(s["fetches"] == 144 - len(after_kill), s)
        check(snapshots_of(after_kill) == [],
              "snapshots imported before the kill fetched again: %r" %
              snapshots_of(after_kill)[:3])
        rows = query(db, "SELECT r.source_crawl, d.name, b.data, "
                     "f.source_timestamp FROM fetch f JOIN crawl_run r ON "
                     "r.id = f.run_id JOIN domain d ON d.id = f.domain_id "
                     "JOIN body b ON b.id = f.body_id")
        check(len(rows) == 144 and len({(r[0], r[1]) for r in rows}) == 144,
              "not exactly once: %d rows" % len(rows))
        for period, domain, body, ts in rows:
            i, m = int(domain[1:3]), int(period[5:])
            check(body == b"User-agent: *\nDisallow: /%d/%d\n" % (i, m) and
                  ts == "2023%02d%02d000000" % (m, i + 1), (period, domain))
        check(query(db, "SELECT count(*) FROM history_file WHERE state <> "
                    "'done'") == [(0,)], "units left pending")
        check(query(db, "PRAGMA integrity_check") == [("ok",)], "integrity")
        check(query(db, "SELECT DISTINCT status FROM crawl_run") ==
              [("finished",)], query(db, "SELECT status FROM crawl_run"))
    finally:
        server.shutdown()


def test_bad_from_and_to_are_refused(work):
    listing = os.path.join(work, "top-bad.csv")
    write_list(listing, ["a.test"])
    db = os.path.join(work, "bad.sqlite")
    cases = [
        (["--from", "2023-01", "--to", "2023"], "--from"),
        (["--from", "202313", "--to", "2024"], "--from"),
        (["--from", "2023", "--to", "20241"], "--to"),
        (["--from", "1995", "--to", "2000"], "--from"),
        (["--from", "202306", "--to", "202301"], "after --to"),
        (["--from", "2023", "--to", "2023", "--every", "week"], "--every"),
    ]
    for args, words in cases:
        p = run([ROBOTSCAN, "import", "wayback", "--db", db, "--list",
                 listing, "--wayback-url", "http://127.0.0.1:9", *args])
        err = p.stderr.decode()
        check(p.returncode == 2 and words in err,
              "%r: exit %d, %r" % (args, p.returncode, err))
    check(not os.path.exists(db), "a refused import created the database")
    p = run([ROBOTSCAN, "import", "wayback", "--db", "postgresql://x/y",
             "--list", listing, "--from", "2023", "--to", "2023"])
    check(p.returncode == 2 and b"PostgreSQL" in p.stderr, p.stderr)


def main():
    work = tempfile.mkdtemp(prefix="robotscan-wayback-")
    tests = [t for name, t in sorted(globals().items())
             if name.startswith("test_") and
             (len(sys.argv) < 3 or name in sys.argv[2:])]
    passed = failed = 0
    try:
        for test in tests:
            started = time.time()
            try:
                test(work)
                passed += 1
                print("PASS %s (%.1f s)" % (test.__name__,
                                            time.time() - started))
            except Exception as e:  # noqa: BLE001 - reported, then counted
                failed += 1
                print("FAIL %s: %s" % (test.__name__, e))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
