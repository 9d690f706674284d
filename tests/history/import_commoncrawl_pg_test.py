#!/usr/bin/env python3
"""`robotscan import commoncrawl` into PostgreSQL by three workers at once
(issue 28, item 1): they share the files through history_file's leases.

Nine hand-made WARC files (gzip per record) hold captures of overlapping
domains at different times. Three importers run on the same file list: the
first is killed with SIGKILL while it holds a file half read, so that file
stays leased until the lease (2 s here) runs out and the two others, started
then, take it over from the last commit; one of the two is stopped
(SIGSTOP) longer than its lease while it holds a file. Then a fourth run
finds everything done. Checked in the
database itself (psql): one run for the crawl ID, every file done and read
once (record counts), exactly one fetch per domain, and it is the domain's
earliest capture with the bytes written; domains point at their newest
fetch; no batch of the killed worker was half written.

  import_commoncrawl_pg_test.py ROBOTSCAN

Needs the test run's PostgreSQL cluster (ROBOTSCAN_TEST_PG_DIR, the ctest
fixture of tests/pg): exit 77 (a counted skip) without it.
"""
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

ROBOTSCAN = sys.argv[1] if len(sys.argv) > 1 else "robotscan"
CRAWL_ID = "CC-MAIN-2024-10"
FILES = 9
RECORDS = 400  # Per file.
DOMAINS = 1500

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL", what)


def psql(uri, sql):
    out = subprocess.run(["psql", uri, "-At", "-F", "|", "-c", sql],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise SystemExit("psql failed: %s\n%s" % (sql, out.stderr))
    return out.stdout.strip()


def warc_record(uri, date, body):
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body
    head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
            "WARC-Date: %s\r\nContent-Type: application/http; "
            "msgtype=response\r\nContent-Length: %d\r\n\r\n" % (
                uri, date, len(http))).encode()
    return gzip.compress(head + http + b"\r\n\r\n", compresslevel=1)


def main():
    pg_dir = os.environ.get("ROBOTSCAN_TEST_PG_DIR", "")
    if not pg_dir or not os.path.exists(os.path.join(pg_dir, "uri")):
        reason = "no PostgreSQL test cluster"
        skip = os.path.join(pg_dir, "skip") if pg_dir else ""
        if skip and os.path.exists(skip):
            reason = open(skip).read().strip()
        print("skipped:", reason)
        return 77
    admin = open(os.path.join(pg_dir, "uri")).read().strip()
    name = "import_workers_%d" % os.getpid()
    psql(admin, "CREATE DATABASE %s" % name)
    # The admin URI names a database; ours replaces it.
    base, _, query = admin.partition("?")
    uri = base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")
    rng = random.Random(28)
    # What the files hold: (domain) -> [(fetched_at, file, offset, body)].
    captures = {}
    total_records = 0
    with tempfile.TemporaryDirectory() as work:
        paths = []
        for f in range(FILES):
            file_name = "CC-MAIN-20240220-%05d.warc.gz" % f
            path = os.path.join(work, file_name)
            offset = 0
            with open(path, "wb") as out:
                for i in range(RECORDS):
                    domain = "d%04d.test" % rng.randrange(DOMAINS)
                    date = "2024-02-%02dT%02d:%02d:%02dZ" % (
                        rng.randrange(1, 28), rng.randrange(24),
                        rng.randrange(60), rng.randrange(60))
                    body = ("User-agent: *\nDisallow: /%s/%d/%d\n" % (
                        domain, f, i)).encode()
                    member = warc_record("https://%s/robots.txt" % domain,
                                         date, body)
                    out.write(member)
                    captures.setdefault(domain, []).append(
                        (date, file_name, offset, body))
                    offset += len(member)
                    total_records += 1
            paths.append(path)
        command = [ROBOTSCAN, "import", "commoncrawl", "--db", uri,
                   "--crawl-id", CRAWL_ID, "--lease", "2", "--batch", "50",
                   "--quiet", "--json", *paths]
        started = time.monotonic()

        def holds_open_file(pid):
            return psql(uri, "SELECT count(*) FROM history_file WHERE "
                             "holder LIKE '%%:%d' AND state <> 'done'" %
                        pid) != "0"

        def wait_until_holding(worker, deadline_s=60):
            # history_file exists once the first importer has made the
            # schema; until then the query fails, which counts as "not yet".
            limit = time.monotonic() + deadline_s
            while time.monotonic() < limit and worker.poll() is None:
                try:
                    if holds_open_file(worker.pid):
                        return True
                except SystemExit:
                    pass
                time.sleep(0.01)
            return False

        # The victim starts alone and is killed while it holds a file it
        # has not finished, so that file stays leased (2 s) when the others
        # come to it: they must wait for it and take it over from its last
        # commit. Starting it alone makes that certain, not a matter of
        # which process wins the race to the first files. (A victim that
        # finished its file between the poll and the kill holds none; then
        # another victim is tried.)
        victim_held = False
        for _ in range(3):
            victim = subprocess.Popen(command, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
            holding = wait_until_holding(victim)
            victim.send_signal(signal.SIGKILL)
            victim.communicate()
            if holding and holds_open_file(victim.pid):
                victim_held = True
                break
        check(victim_held, "the victim never held an unfinished file")
        workers = [subprocess.Popen(command, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
                   for _ in range(2)]
        # One survivor stalls (SIGSTOP) for longer than its lease while it
        # holds a file: the other comes to that file meanwhile and takes it
        # over, and the stalled one's next commit then finds the lease lost
        # and writes nothing of that batch (leases_lost; whether the other
        # gets there first depends on timing, exactly-once must hold
        # either way).
        stalled = workers[0]
        check(wait_until_holding(stalled), "the stalled worker never held "
                                           "a file")
        stalled.send_signal(signal.SIGSTOP)
        time.sleep(3.5)
        stalled.send_signal(signal.SIGCONT)
        summaries = []
        for w in workers:
            out, err = w.communicate(timeout=120)
            check(w.returncode == 0, "a worker exited %d: %s" % (
                w.returncode, err.decode()))
            if w.returncode == 0:
                summaries.append(json.loads(out))
        elapsed = time.monotonic() - started
        # The survivors came to files another held: the killed one's at
        # least, taken over once its lease ran out. How the files split
        # between them depends on timing (under ASan one survivor may read
        # nearly all); that every file is done once, below, does not.
        check(len(summaries) == 2, "both survivors reported")
        check(sum(s["files_waited_for"] for s in summaries) > 0,
              "no worker ever waited for another's file")
        print("  survivors: %s in %.1f s" % ([
            {k: s[k] for k in ("files_imported", "files_already_done",
                               "files_waited_for", "leases_lost", "fetches",
                               "duplicates")} for s in summaries], elapsed))
        done = psql(uri, "SELECT count(*) FROM history_file WHERE state = "
                         "'done'")
        check(done == str(FILES), "%s of %d files done after the workers "
                                  "(%.1f s)" % (done, FILES, elapsed))
        # A last run: nothing left.
        again = subprocess.run(command, capture_output=True, timeout=120)
        check(again.returncode == 0, "the last run: %s" % again.stderr)
        check(b'"fetches": 0' in again.stdout,
              "the last run wrote fetches: %s" % again.stdout[:300])

    runs = psql(uri, "SELECT count(*) FROM crawl_run WHERE source = "
                     "'commoncrawl' AND source_crawl = '%s'" % CRAWL_ID)
    check(runs == "1", "%s runs for the crawl ID" % runs)
    records = psql(uri, "SELECT sum(records) FROM history_file")
    check(records == str(total_records),
          "history_file counts %s records, the files hold %d" % (
              records, total_records))
    rows = psql(uri, "SELECT d.name, f.fetched_at, f.source_file, "
                     "f.source_offset, encode(b.data, 'hex') FROM \"fetch\" "
                     "f JOIN domain d ON d.id = f.domain_id JOIN body b ON "
                     "b.id = f.body_id ORDER BY d.name").splitlines()
    got = {}
    for row in rows:
        domain, at, file_name, offset, body = row.split("|", 4)
        check(domain not in got, "two fetches of %s" % domain)
        got[domain] = (at, file_name, int(offset), body)
    check(set(got) == set(captures),
          "%d domains imported, the files name %d" % (len(got),
                                                     len(captures)))
    wrong = 0
    for domain, seen in captures.items():
        date, file_name, offset, body = min(seen)
        # fetched_at is the capture time in robotscan's ISO form.
        mine = got.get(domain)
        if mine is None or mine[0][:19] != date[:19] or \
                mine[1] != file_name or mine[2] != offset or \
                mine[3] != body.hex():
            wrong += 1
            if wrong <= 3:
                print("  %s: %s, expected %s" % (domain, mine,
                                                  (date, file_name, offset)))
    check(wrong == 0, "%d domains without their earliest capture" % wrong)
    dup = psql(uri, "SELECT sum(duplicates) + sum(fetches) FROM history_file")
    check(dup == str(total_records),
          "fetches + duplicates = %s, records %d" % (dup, total_records))
    stray = psql(uri, "SELECT count(*) FROM domain d WHERE d.latest_fetch_id "
                      "IS DISTINCT FROM (SELECT g.id FROM \"fetch\" g WHERE "
                      "g.domain_id = d.id ORDER BY g.fetched_at DESC, g.id "
                      "DESC LIMIT 1)")
    check(stray == "0", "%s domains not at their newest fetch" % stray)
    psql(admin, "DROP DATABASE %s" % name)
    print("import commoncrawl into PostgreSQL, 3 workers, one killed: "
          "%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
