#!/usr/bin/env python3
"""`robotscan crawl --signals` against loopback hosts (issue 29, item 3).

A loopback server answers by Host header for a handful of test domains, each
publishing a different mix of AI-preference signals: llms.txt files real and
fake (an HTML page, an empty 200, a redirect to the homepage: soft 404s),
TDMRep files valid and not, and homepage headers (X-Robots-Tag on two
lines, Content-Usage, tdm-reservation, tdm-policy). One domain's host does
not answer at all. The crawl's signal_fetch rows are then judged by this
script's own reading of what the server sent: every row's status, body,
headers and present/absent verdict; a second run resumes without fetching
anything twice; and `robotscan report` part 9's signal figures equal this
script's count from the database.

  crawl_signals_test.py ROBOTSCAN

Exit 0 when every check passed, 1 otherwise. Traffic stays on 127.0.0.1.
"""
import http.server
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import urllib.robotparser

ROBOTSCAN = sys.argv[1] if len(sys.argv) > 1 else "robotscan"
HTML = {"Content-Type": "text/html; charset=utf-8"}
TEXT = {"Content-Type": "text/plain"}
JSON = {"Content-Type": "application/json"}
ALLOW_ALL = b"User-agent: *\nAllow: /\n"
TDM_VALID = (b'[{"location": "/", "tdm-reservation": 1, '
             b'"tdm-policy": "https://tdm.test/policy.json"}]')

# host -> path -> (status, [(header, value)...], body)
SITES = {
    "llms.test": {
        "/robots.txt": (200, TEXT, b"User-agent: *\nAllow: /\n"
                        b"Content-Signal: search=yes, ai-train=no\n"),
        "/llms.txt": (200, {"Content-Type": "text/markdown"},
                      b"# Llms\n\n> A site for tests.\n\n- [Docs](/docs)\n"),
        "/": (200, [("Content-Type", "text/html"), ("X-Robots-Tag", "noai"),
                    ("X-Robots-Tag", "noimageai")], b"<html>home</html>"),
    },
    "soft.test": {
        "/robots.txt": (200, TEXT, b"User-agent: GPTBot\nDisallow: /\n"),
        "/llms.txt": (200, HTML, b"<!DOCTYPE html><title>Not found</title>"),
        "/.well-known/tdmrep.json": (200, TEXT,
                                     b"  <html><body>Oops</body></html>"),
        "/": (200, HTML, b"<html>soft</html>"),
    },
    "redirect.test": {
        "/robots.txt": (200, TEXT,
                        b"# BEGIN Cloudflare Managed content\n"
                        b"User-agent: *\nContent-Signal: search=yes,"
                        b"ai-train=no\nAllow: /\n"
                        b"# END Cloudflare Managed Content\n\n"
                        b"User-agent: CCBot\nDisallow: /\n"),
        "/llms.txt": (302, [("Location", "/")], b""),
        "/.well-known/tdmrep.json": (301, [("Location",
                                            "http://redirect.test/")], b""),
        "/": (200, [("Content-Type", "text/html"),
                    ("Content-Usage", "train-ai=n")], b"<html>r</html>"),
    },
    "tdm.test": {
        "/robots.txt": (200, TEXT, b"User-agent: GPTBot\nAllow: /\n"),
        "/.well-known/tdmrep.json": (200, JSON, TDM_VALID),
        "/": (200, [("Content-Type", "text/html"), ("tdm-reservation", "1"),
                    ("tdm-policy", "https://tdm.test/policy.json")],
              b"<html>t</html>"),
    },
    "badtdm.test": {
        "/robots.txt": (404, TEXT, b"none"),
        "/llms.txt": (200, TEXT, b"   \n"),
        "/.well-known/tdmrep.json": (200, JSON, b'[{"location": 5}]'),
        "/": (500, TEXT, b"broken"),
    },
    "more.test": {
        "/robots.txt": (200, TEXT,
                        b"License: https://more.test/license.xml\n\n"
                        b"User-agent: CCBot\nDisallow: /private\n\n"
                        b"User-agent: *\nContent-Usage: train-ai=y\n"
                        b"Allow: /\n\nUser-agent: GPTBot\nDisallow: /\n"),
        "/llms.txt": (200, TEXT, b"# More\n"),
        "/.well-known/tdmrep.json": (200, JSON,
                                     b'[{"location": "/", "tdm-reservation": 0}]'),
        "/": (200, [("Content-Type", "text/html"),
                    ("X-Robots-Tag", "googlebot: noai"),
                    ("tdm-reservation", "0")], b"<html>m</html>"),
    },
}
DEAD = "dead.test"  # Its connections go to a closed port.
RANKS = {"llms.test": 1, "soft.test": 2, "redirect.test": 3, "tdm.test": 4,
         "badtdm.test": 2000, "more.test": 50000, DEAD: 5}
KINDS = {"llms.txt": "/llms.txt", "tdmrep.json": "/.well-known/tdmrep.json",
         "homepage": "/"}

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL", what)


class Server:
    def __init__(self):
        self.requests = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                host = (self.headers.get("Host") or "").split(":")[0]
                server.requests.append((host, self.path))
                status, headers, body = SITES.get(host, {}).get(
                    self.path, (404, TEXT, b"not found"))
                self.send_response(status)
                items = headers.items() if isinstance(headers, dict) \
                    else headers
                for key, value in items:
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                     Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05})
        self.thread.daemon = True
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.thread.join()
        self.httpd.server_close()


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- The independent reading -------------------------------------------------


def looks_like_html(content_type, body):
    mime = content_type.split(";")[0].strip().lower()
    if mime in ("text/html", "application/xhtml+xml"):
        return True
    text = body.lstrip(b"\xef\xbb\xbf").strip().lower()
    return text.startswith((b"<!doctype html", b"<html", b"<head", b"<body"))


def valid_tdmrep(body):
    try:
        data = json.loads(body)
    except ValueError:
        return False
    if not isinstance(data, list):
        return False
    for entry in data:
        if not isinstance(entry, dict) or \
                not isinstance(entry.get("location"), str) or \
                entry.get("tdm-reservation") not in (0, 1) or \
                isinstance(entry.get("tdm-reservation"), bool):
            return False
        if "tdm-policy" in entry and not isinstance(entry["tdm-policy"], str):
            return False
    return True


def served(host, path):
    """(status, {lower header: joined value}, body, redirects, final path)."""
    redirects = 0
    while True:
        status, headers, body = SITES.get(host, {}).get(
            path, (404, TEXT, b"not found"))
        items = list(headers.items() if isinstance(headers, dict)
                     else headers)
        joined = {}
        for key, value in items:
            k = key.lower()
            joined[k] = joined[k] + ", " + value if k in joined else value
        if status in (301, 302) and "location" in joined:
            location = joined["location"]
            path = "/" + location.split("://", 1)[-1].split("/", 1)[1] \
                if "://" in location else location
            redirects += 1
            continue
        return status, joined, body, redirects, path


def expected_signal(host, kind):
    """What signal_fetch must say: (present, absent_reason, valid, body)."""
    if host == DEAD:
        return False, "not-fetched", None, b""
    status, headers, body, redirects, final = served(host, KINDS[kind])
    if not 200 <= status <= 299:
        return False, "status", None, b""
    if kind == "homepage":
        return True, None, None, b""
    if redirects and final == "/":
        return False, "soft-404", None, b""
    if looks_like_html(headers.get("content-type", ""), body):
        return False, "html", None, b""
    if not body.strip():
        return False, "empty", None, b""
    valid = (1 if valid_tdmrep(body) else 0) if kind == "tdmrep.json" \
        else None
    return True, None, valid, body


# --- The test -----------------------------------------------------------------


def run(*args):
    return subprocess.run([ROBOTSCAN, *args], capture_output=True, timeout=120)


def main():
    server = Server()
    dead_port = closed_port()
    try:
        with tempfile.TemporaryDirectory() as work:
            top = os.path.join(work, "top.csv")
            with open(top, "w") as out:
                for host, rank in sorted(RANKS.items(), key=lambda i: i[1]):
                    out.write("%d,%s\n" % (rank, host))
            db = os.path.join(work, "crawl.sqlite")
            crawl = ["crawl", "--db", db, top, "--quiet", "--signals",
                     "--schemes", "http", "--retries", "0", "--timeout", "5s",
                     "--connect-timeout", "2s", "--allow-private-addresses",
                     "--connect-to", "%s:80:127.0.0.1:%d" % (DEAD, dead_port),
                     "--connect-to", ":80:127.0.0.1:%d" % server.port]
            result = run(*crawl)
            check(result.returncode == 0,
                  "crawl exit %d: %s" % (result.returncode, result.stderr))
            con = sqlite3.connect(db)
            rows = con.execute(
                "SELECT d.name, s.kind, s.url, s.final_url, s.http_status, "
                "s.redirects, s.content_type, s.present, s.absent_reason, "
                "s.valid, s.validation_error, s.x_robots_tag, "
                "s.content_usage, s.tdm_reservation, s.tdm_policy, s.body, "
                "s.bytes FROM signal_fetch s JOIN fetch f ON f.id = "
                "s.fetch_id JOIN domain d ON d.id = f.domain_id").fetchall()
            by_key = {(r[0], r[1]): r for r in rows}
            check(len(rows) == len(RANKS) * 3,
                  "%d signal rows, expected %d" % (len(rows),
                                                   len(RANKS) * 3))
            for host in RANKS:
                for kind in KINDS:
                    row = by_key.get((host, kind))
                    if row is None:
                        check(False, "no %s row for %s" % (kind, host))
                        continue
                    present, reason, valid, body = expected_signal(host, kind)
                    got = (bool(row[7]), row[8], row[9], bytes(row[15] or b""))
                    check(got == (present, reason, valid, body),
                          "%s %s: %s, expected %s" % (
                              host, kind, got, (present, reason, valid, body)))
                    if host == DEAD:
                        check(row[2] is None and row[4] is None,
                              "%s %s was requested" % (host, kind))
                        continue
                    status, headers, _, redirects, _ = served(host,
                                                              KINDS[kind])
                    check(row[4] == status and row[5] == redirects,
                          "%s %s status %s/%s redirects, expected %s/%s" % (
                              host, kind, row[4], row[5], status, redirects))
                    for column, header in ((11, "x-robots-tag"),
                                           (12, "content-usage"),
                                           (13, "tdm-reservation"),
                                           (14, "tdm-policy")):
                        check(row[column] == headers.get(header),
                              "%s %s %s: %r, expected %r" % (
                                  host, kind, header, row[column],
                                  headers.get(header)))
            check(by_key[("badtdm.test", "tdmrep.json")][10] ==
                  "entry 1: location is not a string" or
                  by_key[("badtdm.test", "tdmrep.json")][10].startswith(
                      "entry 1: "),
                  "validation error %r" % (
                      by_key[("badtdm.test", "tdmrep.json")][10],))
            # Nothing was asked of the dead host but its robots.txt, and
            # nothing twice: three signal requests per reachable domain.
            asked = sorted(r for r in server.requests if r[1] != "/robots.txt")
            expected = []
            for host in SITES:
                for kind, path in KINDS.items():
                    expected.append((host, path))
                    expected += [(host, "/")] * served(host, path)[3]
            check(asked == sorted(expected),
                  "signal requests %s, expected %s" % (asked,
                                                       sorted(expected)))
            before = len(server.requests)
            fetches = con.execute("SELECT count(*) FROM fetch").fetchone()[0]
            con.close()

            # A second run resumes: every domain is done, nothing is fetched
            # or written again.
            again = run(*crawl)
            check(again.returncode == 0, "rerun: %s" % again.stderr)
            con = sqlite3.connect(db)
            check(con.execute("SELECT count(*) FROM fetch").fetchone()[0] ==
                  fetches and con.execute(
                      "SELECT count(*) FROM signal_fetch").fetchone()[0] ==
                  len(rows), "the rerun wrote nothing new")
            check(len(server.requests) == before,
                  "the rerun fetched %d more" % (len(server.requests) -
                                                 before))
            check(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok",
                  "integrity_check")
            con.close()
            report_checks(db)
    finally:
        server.close()
    print("crawl --signals: %d failures" % failures)
    return 1 if failures else 0


def report_checks(db):
    """Part 9's signal figures against this script's own count."""
    result = run("report", "--db", db, "--format", "json", "--no-sensitivity")
    check(result.returncode == 0, "report: %s" % result.stderr)
    if result.returncode != 0:
        return
    preference_line_checks(db, json.loads(result.stdout)["ai_preferences"])
    figures = json.loads(result.stdout)["ai_preferences"].get("signals")
    check(figures is not None, "report has ai_preferences.signals")
    if figures is None:
        return
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT lf.domain, lf.rank, s.kind, s.present, s.valid, "
        "s.x_robots_tag, s.content_usage, s.tdm_reservation, s.body, "
        "b.data, lf.http_status FROM latest_fetch lf JOIN signal_fetch s ON "
        "s.fetch_id = lf.fetch_id LEFT JOIN fetch f ON f.id = lf.fetch_id "
        "LEFT JOIN body b ON b.id = f.body_id").fetchall()
    con.close()
    domains = {}
    for domain, rank, kind, present, valid, xrt, cu, tdm, body, robots, \
            status in rows:
        d = domains.setdefault(domain, {"rank": rank, "robots": robots,
                                        "status": status})
        d[kind] = (present, valid, xrt, cu, tdm, body)

    def has(d, name):
        llms, tdmrep, home = d["llms.txt"], d["tdmrep.json"], d["homepage"]
        if name == "llms-txt":
            return bool(llms[0])
        if name == "tdmrep-json":
            return bool(tdmrep[0]) and tdmrep[1] == 1
        if name == "x-robots-tag-noai":
            # Directives are comma-separated, each maybe for one crawler
            # ("googlebot: noai").
            return "noai" in [t.split(":")[-1].strip().lower() for t in
                              (home[2] or "").replace(";", ",").split(",")]
        if name == "content-usage-header":
            return bool(home[3])
        if name == "tdm-reservation":
            return (home[4] or "").strip() == "1" or reserved_by_file(tdmrep)
        raise KeyError(name)

    def reserved_by_file(tdmrep):
        if not tdmrep[0] or tdmrep[1] != 1:
            return False
        return any(e.get("tdm-reservation") == 1
                   for e in json.loads(bytes(tdmrep[5])))

    strata = [("top 1k", 1000), ("top 10k", 10000), ("top 100k", 100000),
              ("top 1M", 1000000), ("all", None)]
    for name in ("llms-txt", "tdmrep-json", "x-robots-tag-noai",
                 "content-usage-header", "tdm-reservation"):
        for stratum, limit in strata:
            mine = [d for d in domains.values()
                    if limit is None or 0 < d["rank"] <= limit]
            want = (sum(1 for d in mine if has(d, name)), len(mine))
            got = figures["presence"][stratum][name]
            check((got["count"], got["denominator"]) == want,
                  "signal %s %s: %s, expected %s" % (name, stratum, got,
                                                     want))
    # A TDMRep reservation while every AI training crawler may fetch /:
    # tdm.test (GPTBot allowed; no rule for the others).
    contradiction = [c for c in json.loads(run(
        "report", "--db", db, "--format", "json",
        "--no-sensitivity").stdout)["ai_preferences"]["contradictions"]
        if c["kind"] == "tdm-reservation-but-ai-crawlers-allowed"]
    expected = sorted(
        d for d, v in domains.items() if has(v, "tdm-reservation") and
        ai_crawlers_allowed(v["robots"], v["status"]))
    check(bool(contradiction) and sorted(
        x["domain"] for x in contradiction[0]["domains"]) == expected,
        "tdm contradiction %s, expected %s" % (contradiction, expected))


REGISTRY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "report", "data", "agent_registry.json")


def registry_tokens(purpose):
    with open(REGISTRY, encoding="utf-8") as handle:
        agents = json.load(handle)["agents"]
    return [a["token"] for a in agents if a["purpose"] == purpose]


def purposes_with_agents():
    with open(REGISTRY, encoding="utf-8") as handle:
        agents = json.load(handle)["agents"]
    return sorted({a["purpose"] for a in agents} - {"other"})


def groups_of(body):
    """[(user-agent tokens, [(key, value)...])] in file order, and the
    (key, value) lines before the first group."""
    groups, before, current, in_agents = [], [], None, False
    for raw in body.decode("utf-8", "replace").splitlines():
        line = raw.split("#", 1)[0].strip()
        if ":" not in line:
            continue
        key, value = (part.strip() for part in line.split(":", 1))
        key = key.lower()
        if key == "user-agent":
            if current is None or not in_agents:
                current = ([], [])
                groups.append(current)
            current[0].append(value.lower())
            in_agents = True
        else:
            in_agents = False
            (current[1] if current is not None else before).append(
                (key, value))
    return groups, before


def group_for(body, token):
    """The lines of the group that governs `token` (RFC 9309: the groups
    naming it, merged; else the * groups)."""
    groups, _ = groups_of(body)
    named = [g[1] for g in groups if token.lower() in g[0]]
    chosen = named or [g[1] for g in groups if "*" in g[0]]
    return [line for lines in chosen for line in lines]


def may_fetch_root(body, token):
    rules = [(k, v) for k, v in group_for(body, token)
             if k in ("allow", "disallow") and v]
    # Longest match at "/": every non-empty rule here starts with "/".
    best = max((len(v), k == "allow") for k, v in rules if "/".startswith(v)) \
        if any("/".startswith(v) for _, v in rules) else (0, True)
    return best[1]


def restricted(body, token):
    return any(k == "disallow" and v for k, v in group_for(body, token))


def says_no_to(body, token, purpose):
    """A preference line of the token's group says no to the purpose's use
    at / (the test's bodies use the unconditional forms only)."""
    uses = {"training": ("train-ai", "ai-train"), "search": ("search",),
            "user-triggered": ("ai-input",), "agent": ("ai-input",)}[purpose]
    for key, value in group_for(body, token):
        if key not in ("content-usage", "content-signal"):
            continue
        for item in value.split(","):
            if "=" not in item:
                continue
            name, answer = (x.strip().lower() for x in item.split("=", 1))
            if name.split()[-1] in uses and answer in ("n", "no"):
                return True
    return False


def is_robots_file(status, content_type, body):
    return status is not None and 200 <= status <= 299 and body is not None \
        and not content_type.lower().startswith("text/html")


def ai_crawlers_allowed(robots, status):
    """No training agent of the registry is kept out of anything."""
    if status == 0 or 500 <= status or status == 429:
        return False
    if not 200 <= status <= 299 or robots is None:
        return True  # No robots.txt: everything may be fetched.
    body = bytes(robots)
    return not any(restricted(body, t) for t in registry_tokens("training"))


def preference_line_checks(db, figures):
    """Part 9's robots.txt figures (presence, purposes, contradictions)."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT lf.domain, lf.rank, lf.http_status, lf.content_type, b.data "
        "FROM latest_fetch lf LEFT JOIN fetch f ON f.id = lf.fetch_id "
        "LEFT JOIN body b ON b.id = f.body_id").fetchall()
    con.close()
    files = [(d, r, bytes(b)) for d, r, st, ct, b in rows
             if is_robots_file(st, ct or "", b)]
    strata = [("top 1k", 1000), ("top 10k", 10000), ("top 100k", 100000),
              ("top 1M", 1000000), ("all", None)]
    keys = {"content-usage": "content-usage", "content-signal":
            "content-signal", "license": "license"}
    for row in figures["presence"]:
        limit = dict(strata)[row["stratum"]]
        mine = [f for f in files if limit is None or 0 < f[1] <= limit]
        check(row["files"] == len(mine), "files %s" % row)
        for name in ("content-usage", "content-signal", "license",
                     "cloudflare-managed"):
            if name == "cloudflare-managed":
                count = sum(1 for f in mine if
                            b"# BEGIN Cloudflare Managed content" in f[2])
            else:
                count = sum(1 for f in mine if any(
                    line.split(b":")[0].strip().lower() == keys[name].encode()
                    for line in f[2].splitlines()))
            check(row[name]["count"] == count,
                  "presence %s %s: %s, expected %d" % (
                      row["stratum"], name, row[name], count))
    for out in figures["purposes"]:
        purpose = out["purpose"]
        tokens = registry_tokens(purpose)
        rules = {f[0] for f in files if any(
            not may_fetch_root(f[2], t) for t in tokens)}
        preference = {f[0] for f in files if any(
            may_fetch_root(f[2], t) and says_no_to(f[2], t, purpose)
            for t in tokens)}
        for key, want in (("by_rules", rules), ("by_preference", preference),
                          ("by_either", rules | preference),
                          ("by_both", rules & preference)):
            check(out[key]["count"] == len(want) and
                  out[key]["denominator"] == len(files),
                  "purpose %s %s: %s, expected %s" % (
                      purpose, key, out[key], sorted(want)))
    check(sorted(o["purpose"] for o in figures["purposes"]) ==
          purposes_with_agents(), "purpose classes %s" % [
              o["purpose"] for o in figures["purposes"]])
    training = registry_tokens("training")
    want = {
        "ai-train-no-but-training-crawlers-allowed": sorted(
            f[0] for f in files
            if any(may_fetch_root(f[2], t) and says_no_to(f[2], t, "training")
                   and any(k == "content-signal" for k, _ in group_for(f[2], t))
                   for t in training)
            and not any(restricted(f[2], t) for t in training)),
        "train-ai-yes-but-gptbot-disallowed": sorted(
            f[0] for f in files
            if b"train-ai=y" in f[2] and not may_fetch_root(f[2], "GPTBot")),
    }
    for c in figures["contradictions"]:
        if c["kind"] in want:
            got = sorted(d["domain"] for d in c["domains"])
            check(got == want[c["kind"]] and c["files"]["count"] == len(got),
                  "contradiction %s: %s, expected %s" % (c["kind"], got,
                                                        want[c["kind"]]))
    check(all(want.values()), "the data exercises both contradictions: %s" %
          want)


if __name__ == "__main__":
    sys.exit(main())
