#!/usr/bin/env python3
"""What `robotscan import wayback` itself costs, against the loopback
emulator of tests/history (bench/RESULTS.md, "issue 28, item 2"): DOMAINS
domains with a capture in each month of 2023, imported unpaced with
--concurrency N, then the same command again (every unit done). Prints the
import's wall time, its CPU (user, sys) and peak RSS from /usr/bin/time,
and the most requests the emulator saw at once. The emulator (Python,
single process) sets the wall time; the CPU is robotscan's own.

  wayback_import_bench.py ROBOTSCAN DOMAINS CONCURRENCY [WORKDIR]
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tests", "history"))
import wayback_emulator as wb  # noqa: E402


def timed_import(robotscan, db, listing, base, *extra):
    started = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", robotscan,
                        "import", "wayback", "--db", db, "--list", listing,
                        "--from", "2023", "--to", "2023", "--wayback-url",
                        base, "--json", "-q", *extra], capture_output=True,
                       check=True)
    user, system, rss = p.stderr.decode().strip().split("\n")[-1].split()
    return (time.time() - started, float(user), float(system), int(rss),
            json.loads(p.stdout))


def main():
    robotscan, domains, concurrency = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    work = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp()
    plain = [("Content-Type", "text/plain")]
    captures = {}
    for i in range(domains):
        d = "d%06d.test" % i
        captures[d] = [wb.Capture(
            "2023%02d%02d000000" % (m, i % 28 + 1), "http://%s/robots.txt" % d,
            "200", "text/plain",
            b"User-agent: *\nDisallow: /%d/%d\n" % (i, m) * 20, plain)
            for m in range(1, 13)]
    archive = wb.Archive(captures)
    server, base = wb.start(archive)
    listing = os.path.join(work, "top.csv")
    with open(listing, "w") as f:
        for rank, d in enumerate(sorted(captures), 1):
            f.write("%d,%s\n" % (rank, d))
    db = os.path.join(work, "bench.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    try:
        wall, user, system, rss, s = timed_import(
            robotscan, db, listing, base, "--concurrency", concurrency,
            "--cdx-per-minute", "0", "--snapshots-per-second", "0")
        print("import: %d domains, %d CDX answers, %d snapshots, %d fetches; "
              "%.1f s wall, %.2f s user, %.2f s sys, %d KB peak; at most %d "
              "requests at once" % (domains, s["cdx_requests"],
                                    s["snapshot_requests"], s["fetches"], wall,
                                    user, system, rss, archive.max_in_flight))
        wall, user, system, rss, s = timed_import(robotscan, db, listing, base)
        print("rerun, every unit done: %.2f s wall, %.2f s user, %.2f s sys; "
              "%d requests" % (wall, user, system,
                               s["cdx_requests"] + s["snapshot_requests"]))
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
