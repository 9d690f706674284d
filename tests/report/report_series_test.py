#!/usr/bin/env python3
"""`robotscan report --series` against an independent computation (issue 28,
item 3).

Three Common Crawl crawls (2022, 2023, 2024, one with two captures of a
domain months apart) are written here as WARC files, gzip per record, and
imported with `robotscan import commoncrawl --list` (ranks across every
stratum). The series' figures are then recomputed by this script from the
database itself (sqlite3: every fetch with its capture time and body) with
its own rules: each domain's newest capture in a period, the outcome
categories from status, MIME type and rule lines, walled gardens and full
blocks from CPython's urllib.robotparser (the bodies are written so that its
first-match reading and RFC 9309's longest match agree), and started /
stopped blocking against each domain's newest capture before the period.
Every figure must equal the tool's, by period and rank stratum, for years
and for quarters (periods without a capture included), and `--period P
--compare Q` must give part 8's started blocking between two periods.

  report_series_test.py ROBOTSCAN

Exit 0 when every check passed, 1 otherwise.
"""
import csv
import gzip
import io
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import urllib.robotparser

ROBOTSCAN = sys.argv[1] if len(sys.argv) > 1 else "robotscan"
AGENTS = ["GPTBot", "CCBot", "Googlebot"]
GENERIC = "RobotscanGenericCrawler"
STRATA = [("top 1k", 1000), ("top 10k", 10000), ("top 100k", 100000),
          ("top 1M", 1000000), ("all", None)]
RANKS = {"a.test": 1, "b.test": 2, "c.test": 3, "d.test": 4, "e.test": 5,
         "f.test": 2000, "g.test": 20000, "h.test": 200000}

TEXT = "text/plain"
HTML = "text/html"
WALLED = b"User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n"
# crawl id -> [(domain, WARC-Date, status, content type, body)]
CRAWLS = {
    # A later capture in 2024, imported first: the newest capture of a
    # period is the newest by capture time, not by import order.
    "CC-MAIN-2024-26": [
        ("f.test", "2024-06-20T00:00:00Z", 200, TEXT,
         b"User-agent: *\nAllow: /\n"),
        # At the first instant of 2024-Q2: in Q2, not in Q1.
        ("h.test", "2024-04-01T00:00:00Z", 200, TEXT,
         b"User-agent: *\nDisallow: /y\n"),
        ("c.test", "2024-06-20T00:00:01Z", 200, TEXT,
         b"User-agent: *\nDisallow:\n"),
    ],
    "CC-MAIN-2022-05": [
        ("a.test", "2022-02-01T10:00:00Z", 200, TEXT,
         b"User-agent: *\nDisallow: /private\n"),
        ("b.test", "2022-02-01T10:00:01Z", 200, TEXT, WALLED),
        ("c.test", "2022-02-01T10:00:02Z", 404, HTML, b"<html>gone</html>"),
        ("d.test", "2022-02-01T10:00:03Z", 200, HTML,
         b"<!DOCTYPE html><html><body>home</body></html>"),
        ("f.test", "2022-02-02T00:00:00Z", 200, TEXT,
         b"User-agent: GPTBot\nDisallow: /\n"),
        ("g.test", "2022-02-02T00:00:01Z", 401, TEXT, b"no"),
        ("h.test", "2022-02-02T00:00:02Z", 429, TEXT, b"slow down"),
    ],
    "CC-MAIN-2023-06": [
        ("a.test", "2023-02-01T10:00:00Z", 200, TEXT,
         b"User-agent: GPTBot\nDisallow: /\n\n"
         b"User-agent: *\nDisallow: /private\n"),
        ("b.test", "2023-02-01T10:00:01Z", 200, TEXT, WALLED),
        ("c.test", "2023-02-01T10:00:02Z", 503, TEXT, b"busy"),
        ("e.test", "2023-02-01T10:00:03Z", 200, TEXT,
         b"User-agent: CCBot\nDisallow: /\n"),
        ("f.test", "2023-02-02T00:00:00Z", 200, TEXT,
         b"User-agent: *\nAllow: /\n"),
        ("g.test", "2023-02-02T00:00:01Z", 200, TEXT, WALLED),
    ],
    "CC-MAIN-2024-10": [
        ("a.test", "2024-03-01T10:00:00Z", 200, TEXT,
         b"User-agent: GPTBot\nDisallow: /\n\n"
         b"User-agent: *\nDisallow: /private\n"),
        ("b.test", "2024-03-01T10:00:01Z", 404, TEXT, b"not found"),
        ("c.test", "2024-03-01T10:00:02Z", 200, TEXT,
         b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n"),
        ("d.test", "2024-03-01T10:00:03Z", 200, TEXT,
         b"User-agent: *\nDisallow: /\n"),
        ("f.test", "2024-03-02T00:00:00Z", 200, TEXT,
         b"User-agent: *\nDisallow: /\n"),
        ("g.test", "2024-03-02T00:00:01Z", 200, TEXT, WALLED),
        ("h.test", "2024-03-02T00:00:02Z", 200, TEXT,
         b"User-agent: *\nDisallow: /x\n"),
    ],
}

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL", what)


def warc(path, records):
    with open(path, "wb") as out:
        for domain, date, status, ctype, body in records:
            http = (b"HTTP/1.1 %d X\r\nContent-Type: %s\r\n"
                    b"Content-Length: %d\r\n\r\n" % (status, ctype.encode(),
                                                     len(body))) + body
            head = ("WARC/1.0\r\nWARC-Type: response\r\n"
                    "WARC-Target-URI: https://%s/robots.txt\r\n"
                    "WARC-Date: %s\r\n"
                    "Content-Type: application/http; msgtype=response\r\n"
                    "Content-Length: %d\r\n\r\n" % (domain, date, len(http)))
            out.write(gzip.compress(head.encode() + http + b"\r\n\r\n"))


# --- The independent computation -------------------------------------------


def captures(db):
    """[(domain, rank, fetched_at, id, status, content_type, body)]."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT d.name, f.fetched_at, f.id, f.http_status, f.content_type, "
        "b.data, b.compression FROM fetch f JOIN domain d ON d.id = "
        "f.domain_id LEFT JOIN body b ON b.id = f.body_id").fetchall()
    con.close()
    out = []
    for name, at, fid, status, ctype, data, compression in rows:
        if compression not in (None, "none"):
            raise SystemExit("test bodies are stored plain")
        body = bytes(data) if data is not None else b""
        out.append((name, RANKS[name], at, fid, status or 0, ctype or "",
                    body))
    return out


def newest(rows, start, before):
    """Each domain's newest capture with start <= fetched_at < before."""
    best = {}
    for row in rows:
        at = row[2]
        if (start and at < start) or (before and at >= before):
            continue
        key = (at, row[3])
        if row[0] not in best or key > (best[row[0]][2], best[row[0]][3]):
            best[row[0]] = row
    return best


def parser_of(body):
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(body.decode("utf-8", "replace").splitlines())
    return parser


def outcome(status, ctype, body):
    if status == 0:
        return "no-response"
    if 300 <= status < 400:
        return "redirect-unresolved"
    if status in (401, 403):
        return "http-forbidden"
    if status >= 500 and status < 600 or status == 429:
        return "http-defer"
    if 400 <= status < 500:
        return "allow-all"
    if status < 200 or status >= 600:
        return "other-status"
    mime = ctype.split(";")[0].strip().lower()
    if mime == "text/html" or not mime.startswith("text/") or \
            body.lstrip().lower().startswith((b"<!doctype html", b"<html")):
        return "not-robots-txt"
    rules = [line for line in body.decode().splitlines()
             if line.split(":")[0].strip().lower() in ("allow", "disallow")]
    return "robots-txt-with-rules" if rules else "robots-txt-without-rules"


def is_file(row):
    return outcome(row[4], row[5], row[6]).startswith("robots-txt-")


def blocks(row, agent):
    return is_file(row) and not parser_of(row[6]).can_fetch(
        agent, "https://%s/" % row[0])


def walled(row):
    parser = parser_of(row[6])
    url = "https://%s/" % row[0]
    return (is_file(row) and parser.can_fetch("Googlebot", url) and
            not parser.can_fetch(GENERIC, url))


def in_stratum(rank, limit):
    return limit is None or (0 < rank <= limit)


def expected_point(rows, start, before):
    now = newest(rows, start, before)
    earlier = newest(rows, "", start)
    both = [d for d in now if d in earlier]
    point = {"captured": len(now), "captured_before_too": len(both),
             "strata": {}, "started": {}, "stopped": {}}
    for name, limit in STRATA:
        mine = [r for r in now.values() if in_stratum(r[1], limit)]
        files = [r for r in mine if is_file(r)]
        outcomes = {}
        for r in mine:
            o = outcome(r[4], r[5], r[6])
            outcomes[o] = outcomes.get(o, 0) + 1
        point["strata"][name] = {
            "domains": len(mine), "outcomes": outcomes,
            "robots_files": len(files),
            "walled": sum(1 for r in files if walled(r)),
            "full": {a: sum(1 for r in files if blocks(r, a))
                     for a in AGENTS}}
    for agent in AGENTS:
        point["started"][agent] = sum(
            1 for d in both
            if blocks(now[d], agent) and not blocks(earlier[d], agent))
        point["stopped"][agent] = sum(
            1 for d in both
            if not blocks(now[d], agent) and blocks(earlier[d], agent))
    return point


# --- The tool ---------------------------------------------------------------


def run(*args):
    result = subprocess.run([ROBOTSCAN, *args], capture_output=True)
    if result.returncode != 0:
        raise SystemExit("robotscan %s failed (%d): %s" % (
            " ".join(args), result.returncode, result.stderr.decode()))
    return result.stdout.decode()


def compare_series(db, rows, every, expected_labels):
    series = json.loads(run("report", "--db", db, "--series", "--every",
                            every, "--agents", ",".join(AGENTS),
                            "--format", "json"))
    labels = [p["period"] for p in series["periods"]]
    check(labels == expected_labels,
          "%s periods %s, expected %s" % (every, labels, expected_labels))
    check(series["domains"] == len(RANKS),
          "domains %d, expected %d" % (series["domains"], len(RANKS)))
    for period in series["periods"]:
        label = period["period"]
        want = expected_point(rows, period["from"], period["before"])
        check(period["captured"] == want["captured"],
              "%s captured %d, expected %d" % (label, period["captured"],
                                              want["captured"]))
        check(period["not_captured"] == len(RANKS) - want["captured"],
              "%s not_captured %d" % (label, period["not_captured"]))
        check(period["captured_before_too"] == want["captured_before_too"],
              "%s captured_before_too %d, expected %d" % (
                  label, period["captured_before_too"],
                  want["captured_before_too"]))
        for name, _ in STRATA:
            got = period["strata"][name]
            exp = want["strata"][name]
            got_outcomes = {k: v for k, v in got["outcomes"].items() if v}
            check(got["domains"] == exp["domains"],
                  "%s %s domains %d, expected %d" % (
                      label, name, got["domains"], exp["domains"]))
            check(got_outcomes == exp["outcomes"],
                  "%s %s outcomes %s, expected %s" % (
                      label, name, got_outcomes, exp["outcomes"]))
            check(got["robots_files"] == exp["robots_files"],
                  "%s %s files %d, expected %d" % (
                      label, name, got["robots_files"], exp["robots_files"]))
            check(got["walled_gardens"]["count"] == exp["walled"] and
                  got["walled_gardens"]["denominator"] == exp["robots_files"],
                  "%s %s walled %s, expected %d of %d" % (
                      label, name, got["walled_gardens"], exp["walled"],
                      exp["robots_files"]))
            for agent in AGENTS:
                share = got["full_block"][agent]
                check(share["count"] == exp["full"][agent] and
                      share["denominator"] == exp["robots_files"],
                      "%s %s %s full %s, expected %d" % (
                          label, name, agent, share, exp["full"][agent]))
        for agent in AGENTS:
            for key, field in (("started", "started_blocking"),
                               ("stopped", "stopped_blocking")):
                share = period[field][agent]
                check(share["count"] == want[key][agent] and
                      share["denominator"] == want["captured_before_too"],
                      "%s %s %s %s, expected %d of %d" % (
                          label, agent, key, share, want[key][agent],
                          want["captured_before_too"]))
    return series


def main():
    with tempfile.TemporaryDirectory() as work:
        top = os.path.join(work, "top.csv")
        with open(top, "w") as out:
            for domain, rank in sorted(RANKS.items(), key=lambda i: i[1]):
                out.write("%d,%s\n" % (rank, domain))
        db = os.path.join(work, "history.sqlite")
        for crawl_id, records in CRAWLS.items():
            path = os.path.join(work, crawl_id + ".warc.gz")
            warc(path, records)
            run("import", "commoncrawl", "--db", db, "--list", top,
                "--crawl-id", crawl_id, path)
        rows = captures(db)
        check(len(rows) == sum(len(r) for r in CRAWLS.values()),
              "%d captures imported" % len(rows))

        series = compare_series(db, rows, "year", ["2022", "2023", "2024"])
        # Quarters: 2022-Q1 .. 2024-Q2, most of them without a capture.
        quarters = ["%d-Q%d" % (y, q) for y in (2022, 2023, 2024)
                    for q in (1, 2, 3, 4)][:10]
        by_quarter = {p["period"]: p for p in
                      compare_series(db, rows, "quarter", quarters)["periods"]}
        # A capture at the first instant of a quarter is that quarter's,
        # whether the time is stored with milliseconds or without.
        check(by_quarter["2024-Q1"]["last_capture"] < "2024-04" and
              by_quarter["2024-Q2"]["first_capture"].startswith(
                  "2024-04-01T00:00:00"),
              "quarter bounds: Q1 last %s, Q2 first %s" % (
                  by_quarter["2024-Q1"]["last_capture"],
                  by_quarter["2024-Q2"]["first_capture"]))
        # The numbers move: this data has both kinds of change.
        started = [p["started_blocking"]["GPTBot"]["count"]
                   for p in series["periods"]]
        stopped = [p["stopped_blocking"]["GPTBot"]["count"]
                   for p in series["periods"]]
        check(started[0] == 0 and stopped[0] == 0 and all(started[1:]) and
              all(stopped[1:]),
              "the data exercises started and stopped blocking: %s, %s" % (
                  started, stopped))

        # Two periods compared directly (part 8 between --period and
        # --compare): started blocking GPTBot between 2022 and 2024.
        report = json.loads(run("report", "--db", db, "--period", "2024",
                                "--compare", "2022", "--agents",
                                ",".join(AGENTS), "--no-sensitivity",
                                "--format", "json"))
        now = newest(rows, "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z")
        then = newest(rows, "2022-01-01T00:00:00Z", "2023-01-01T00:00:00Z")
        both = [d for d in now if d in then]
        started = sorted(d for d in both if blocks(now[d], "GPTBot") and
                         not blocks(then[d], "GPTBot"))
        text = json.dumps(report)
        check(report.get("domains") == len(now),
              "--period 2024 domains %s, expected %d" % (
                  report.get("domains"), len(now)))
        comparison = report.get("comparison", {})
        gpt = [c for c in comparison.get("crawlers", [])
               if c.get("agent") == "GPTBot"]
        check(bool(gpt) and gpt[0]["started"]["count"] == len(started) and
              comparison.get("domains_in_both") == len(both),
              "--period 2024 --compare 2022: GPTBot started %s, expected %d "
              "of %d (%s)" % (gpt[0]["started"] if gpt else None,
                              len(started), len(both), started))
        check("2022 of" in text, "the comparison names the older period")

        # The other formats: the same tables, a line chart in HTML, CSV.
        listing = run("report", "--db", db, "--series", "--format", "csv",
                      "--table", "list")
        names = [r["table"] for r in csv.DictReader(io.StringIO(listing))]
        check(names == ["series-coverage", "series-outcomes",
                        "series-walled-gardens", "series-full-blocks",
                        "series-started-blocking",
                        "series-stopped-blocking"], "csv tables %s" % names)
        coverage = list(csv.DictReader(io.StringIO(run(
            "report", "--db", db, "--series", "--format", "csv", "--table",
            "series-coverage"))))
        check([(r["Period"], r["Captured"], r["Captured denominator"])
               for r in coverage] ==
              [(p["period"], str(p["captured"]), str(len(RANKS)))
               for p in series["periods"]], "csv coverage %s" % coverage)
        html = run("report", "--db", db, "--series", "--format", "html")
        check(html.count("<polyline") >= 3 and "Full blocks per crawler" in
              html, "html has the line charts")
        text_out = run("report", "--db", db, "--series")
        check("Domains captured per period" in text_out and "2023" in text_out,
              "text output")
        bad = subprocess.run([ROBOTSCAN, "report", "--db", db, "--series",
                              "--from", "2022-13"], capture_output=True)
        check(bad.returncode == 2 and b"not a period" in bad.stderr,
              "a bad --from is a usage error")
    print("report --series: %d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
