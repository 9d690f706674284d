#!/usr/bin/env python3
"""The go dialect against Go's own regexp (issue 27, item 2).

regexguard never reports a super-linear verdict for `--dialect go`: Go's
regexp (RE2's automata) is linear. This test checks both halves on Debian's
Go: it builds go_attack_meter.go with `go build` (a private GOCACHE), then
for corpus entries whose attack is super-linear on the backtracking engines
(exponential and polynomial ones, search restarts among them) and that Go
compiles, it asserts that regexguard's go verdict is not a finding and that
the attack, judged by the EngineAttacks rule on Go's regexp, is not
super-linear either. It also runs syntax_test.py's go cases (Go 1.19
refusals are regexguard's invalid patterns).

Usage: go_engine_test.py REGEXGUARD CORPUS [--go GO]; exits 77 (a counted
skip) without Go.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engine_attacks_test as harness  # noqa: E402
import syntax_test  # noqa: E402

# Corpus entries whose attacks explode on PCRE2, CPython or Node (chosen to
# cover nested loops, alternation loops and search restarts); each is run
# on Go with its own attack.
ENTRIES = ("cve-2021-27290-ssri", "cve-2015-8315-ms", "regexlib-228",
           "regexlib-1465", "cve-2017-16138-mime-ext", "cve-2021-32640-ws")

# Go's regexp runs its bit-state backtracker (bounded, still linear) when
# the program size times the subject length fits 256 Kibit, and its NFA
# otherwise. The switch is a one-time ~3x step in cost per character (seen
# at 16k -> 32k characters for regexlib-228), which a doubling ratio would
# read as growth; every subject the judge compares is longer than this.
GO_BACKTRACK_LIMIT = 256 * 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("regexguard")
    parser.add_argument("corpus")
    parser.add_argument("--go", default=shutil.which("go"))
    args = parser.parse_args()
    if not args.go:
        print("skipped: go is not installed (scripts/bootstrap --extras)")
        return 77
    with open(args.corpus, encoding="utf-8") as handle:
        corpus = {row["id"]: row for row in map(json.loads, handle)
                  if row["id"] in ENTRIES}
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        meter = os.path.join(scratch, "go_attack_meter")
        env = dict(os.environ, GOCACHE=os.path.join(scratch, "cache"),
                   GOPATH=os.path.join(scratch, "gopath"), GOFLAGS="")
        subprocess.run([args.go, "build", "-o", meter,
                        os.path.join(HERE, "go_attack_meter.go")],
                       check=True, env=env)
        judged = 0
        for entry_id in ENTRIES:
            entry = corpus[entry_id]
            attack = entry["attack"]
            if "pumps" in attack:
                attack = {"prefix": attack["pumps"][0]["prefix"],
                          "pump": attack["pumps"][0]["pump"],
                          "suffix": attack["suffix"]}
            run = subprocess.run(
                [args.regexguard, "check", "--dialect", "go", "--flags",
                 entry["flags"].replace("x", ""), "--format", "json", "--",
                 entry["pattern"]], capture_output=True, text=True,
                check=False)
            report = json.loads(run.stdout)
            finding = report["verdict"] in ("exponential", "polynomial")
            go_meter = harness.Meter([meter])
            try:
                reply = go_meter.ask({"op": "compile",
                                      "pattern": entry["pattern"],
                                      "flags": entry["flags"],
                                      "attack": attack})
                if "error" in reply:
                    print("FAIL %s: Go does not compile it: %s" % (
                        entry_id, reply["error"]))
                    failures += 1
                    continue
                verdict = harness.Judge(go_meter, attack).judge(
                    False, least_length=GO_BACKTRACK_LIMIT)
            finally:
                go_meter.close()
            judged += 1
            bad = finding or verdict["superlinear"]
            failures += bad
            print("%-4s %-28s regexguard go: %-8s Go regexp: %s at %d "
                  "characters, ratios %s" % (
                      "FAIL" if bad else "ok", entry_id, report["verdict"],
                      "super-linear" if verdict["superlinear"] else "linear",
                      verdict["length"],
                      ", ".join("%.2f" % r for r in verdict["ratios"])))
        # Go's syntax refusals, through syntax_test's cases.
        patterns = [p for p, dialects in syntax_test.CASES
                    if "go" in dialects]
        refusals = syntax_test.engine_verdicts([meter], patterns)
        for pattern in patterns:
            invalid, finding, _ = syntax_test.regexguard_invalid(
                args.regexguard, pattern, "go")
            agree = (refusals[pattern] is not None) == invalid and not finding
            failures += not agree
            print("%-4s go syntax %-16s engine: %s" % (
                "ok" if agree else "FAIL", pattern,
                refusals[pattern] or "compiles"))
    print("%d attacks judged on Go, %d failures" % (judged, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
