#!/usr/bin/env python3
"""End-to-end: every conformance case through the built `robotscan check`.

Cases that share a robots.txt body and an agent are run as one command with
all their URLs; each output line's first TAB-separated field must give the
case's verdict, the second its URL, and the exit status must be 1 exactly
when some URL of the batch is disallowed. In
`--compat google` every case must pass; in the default (rfc) mode the cases
RFC 9309 decides differently (listed in tests/robots/conformance_test.cc)
must come out the other way.

usage: check_conformance.py ROBOTSCAN DATA_DIR
"""
import base64
import json
import os
import subprocess
import sys
import tempfile

RFC_DIFFERENCES = {
    "stress/327748#6", "stress/369883#6", "stress/369883#10",
    "stress/860237#10", "ID_Encoding#3", "ID_Encoding#5", "ID_Encoding#6",
    "correctness/non-ascii-paths#3", "correctness/non-ascii-paths#5",
    "correctness/non-ascii-paths#6",
}
FILES = {"google-robotstxt-cases.jsonl": 145, "google-spec-test-cases.jsonl": 400}


def body_of(record):
    text = record["robots_txt"]
    if record.get("encoding") == "base64":
        return base64.b64decode(text)
    return text.encode("utf-8")


def main():
    robotscan, data_dir = sys.argv[1], sys.argv[2]
    failures = []
    # Cases sharing a body and an agent are checked by one process (all their
    # URLs as arguments): the same code path, a third of the process starts.
    batches = {}
    for name, count in FILES.items():
        with open(os.path.join(data_dir, "conformance", name), encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        if len(records) != count:
            failures.append(f"{name}: {len(records)} records, expected {count}")
        for record in records:
            batches.setdefault((body_of(record), record["user_agent"]), []).append(record)
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        robots_path = os.path.join(tmp, "robots.txt")
        for (body, agent), records in batches.items():
            with open(robots_path, "wb") as out:
                out.write(body)
            for compat in ("google", "rfc"):
                wanted = []
                for record in records:
                    expected = record["allowed"]
                    if compat == "rfc" and record["id"] in RFC_DIFFERENCES:
                        expected = not expected
                    wanted.append(expected)
                # "--" so that an empty or dash-leading URL stays a URL.
                proc = subprocess.run(
                    [robotscan, "check", "--robots-file", robots_path,
                     "--user-agent", agent, "--compat", compat, "--",
                     *[r["url"] for r in records]],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
                lines = proc.stdout.decode("utf-8", "replace").split("\n")[:-1]
                want_rc = 0 if all(wanted) else 1
                if proc.returncode != want_rc or len(lines) != len(records):
                    failures.append(
                        f"{compat} {records[0]['id']}..: rc={proc.returncode} want {want_rc}, "
                        f"{len(lines)} lines for {len(records)} URLs; stderr={proc.stderr[:200]!r}")
                    continue
                for record, expected, line in zip(records, wanted, lines):
                    checked += 1
                    fields = line.split("\t")
                    want = "allowed" if expected else "disallowed"
                    if fields[0] != want or len(fields) < 2 or fields[1] != record["url"]:
                        failures.append(f"{compat} {record['id']}: got {line!r}, want {want}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or checked != 2 * sum(FILES.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
