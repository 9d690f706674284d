#!/usr/bin/env python3
"""End-to-end: every conformance case through the built `robotscan check`.

For each case the robots.txt body is written to a file and the command is
run with the case's agent and URL; the first TAB-separated field of the
output line and the exit status must both say the expected verdict. In
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
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        robots_path = os.path.join(tmp, "robots.txt")
        for name, count in FILES.items():
            with open(os.path.join(data_dir, "conformance", name), encoding="utf-8") as f:
                records = [json.loads(line) for line in f if line.strip()]
            if len(records) != count:
                failures.append(f"{name}: {len(records)} records, expected {count}")
            for record in records:
                with open(robots_path, "wb") as out:
                    out.write(body_of(record))
                for compat in ("google", "rfc"):
                    expected = record["allowed"]
                    if compat == "rfc" and record["id"] in RFC_DIFFERENCES:
                        expected = not expected
                    # "--" so that an empty or dash-leading URL stays a URL.
                    proc = subprocess.run(
                        [robotscan, "check", "--robots-file", robots_path,
                         "--user-agent", record["user_agent"], "--compat", compat,
                         "--", record["url"]],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
                    checked += 1
                    line = proc.stdout.decode("utf-8", "replace").rstrip("\n")
                    fields = line.split("\t")
                    verdict = fields[0] if fields else ""
                    want = "allowed" if expected else "disallowed"
                    want_rc = 0 if expected else 1
                    if verdict != want or proc.returncode != want_rc or len(fields) < 2 \
                            or fields[1] != record["url"]:
                        failures.append(
                            f"{compat} {record['id']}: got {line!r} rc={proc.returncode}, "
                            f"want {want} rc={want_rc}; stderr={proc.stderr[:200]!r}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
