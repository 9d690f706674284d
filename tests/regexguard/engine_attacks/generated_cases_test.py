#!/usr/bin/env python3
"""Generated patterns for the java and ruby dialects, judged on the engines
(issue 27, item 2: "over the corpus entries ... and over generated cases").

The corpus holds what people wrote; these families hold the shapes where
the two engines part from PCRE2 and from each other, in every combination:

  nested     a quantifier on a quantified `a`, in a capturing and in a
             non-capturing group, ? * + *? +? {1,3} {2,3} on both levels
             (Onigmo rewrites the non-capturing ones when it parses them:
             (?:a+)+ is a+; Java keeps them and memoises its loops)
  overlap    alternations whose branches overlap, inside a loop
  restart    search-restart quadratics, some needing a literal of an
             alternation that Onigmo searches for before it matches
  dot        a leading .+ / .* / .{2,} (Onigmo skips the rest of a line)
  lookahead  password-style lookaheads before the pattern, with and
             without ^
  caseless   the same shapes under the i flag

Every pattern is analysed with `regexguard check --dialect D --file`, and
every attack regexguard reports is timed on OpenJDK 17 and Ruby 3.1 by
engine_attacks_test.py's rule (its meters, its judge): all must reproduce.
Two verdicts are pinned as well, one each way, so that a regexguard that
reported nothing would fail: ruby's `^(a+)+b$` is exponential and ruby's
`^(?:a+)+b$` is not reported (Ruby 3.1 runs it as `^a+b$`).

  generated_cases_test.py REGEXGUARD --java JAVA --java-meter-source F
      --ruby RUBY --ruby-meter F
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

QUANTIFIERS = ["?", "*", "+", "*?", "+?", "{1,3}", "{2,3}"]
OUTER = ["*", "+", "?", "+?", "{1,3}", "{2,3}", "{2,}"]


def families():
    """(family, pattern, flags) triples, the same for both dialects."""
    for group in ("(?:", "("):
        for inner in QUANTIFIERS:
            for outer in OUTER:
                yield "nested", "^%sa%s)%sb$" % (group, inner, outer), ""
    for pattern in (r"^(a|a)*b$", r"^(a|ab)*c$", r"^(\w|\d)+!$",
                    r"(\s|\t)+$", r"^(x+|y)+z", r"^(?:[a-c]|b)+d$",
                    r"^(?:a|b|ab)*c$", r"^(\d+|\d+\.)+x$"):
        yield "overlap", pattern, ""
    for pattern in (r"\d+\s*(mm|cm|h)", r"[a-z]+\d+x", r"\s+$", r"a+(x|yz)",
                    r"(ab|cd)+e", r"\w+@\w+\.com", r"(\d+)(px|em|%)",
                    r"^(\s*(GET|POST)\s*)+X", r"\d*[.,]\d+e", r"[0-9]+[A-Z]"):
        yield "restart", pattern, ""
    for pattern in (r".+\.(jpg|png)$", r".*\.(jpg|png)x", r"(.+)@(.+)\.com",
                    r".{2,}x", r"^.+\s+.+$", r".+?\.(jpg|png)$"):
        yield "dot", pattern, ""
    for pattern in (r"(?=.*[A-Z])(?=.*\d)[a-z]+!", r"(?=.*\d)^\w{8,}$",
                    r"(?=.*[A-Z])(?=.*[a-z])x+y", r"(?=.*[a-z])(?=.{7,})",
                    r"(?=\w)\w+\s+\w+!"):
        yield "lookahead", pattern, ""
    for pattern in (r"^(ab+)+C$", r"(?:foo|bar)+\s+BAZ", r"^(a|A)+b$",
                    r"\d+\s*(MM|CM)"):
        yield "caseless", pattern, "i"


def analyse(regexguard, dialect, cases, work):
    path = os.path.join(work, "%s.jsonl" % dialect)
    with open(path, "w") as out:
        for i, (family, pattern, flags) in enumerate(cases):
            out.write(json.dumps({"id": "gen-%s-%s-%d" % (dialect, family, i),
                                  "pattern": pattern, "flags": flags,
                                  "dialect": dialect}) + "\n")
    run = subprocess.run([regexguard, "check", "--dialect", dialect,
                          "--file", path, "--format", "json"],
                         capture_output=True, text=True, timeout=900)
    rows = []
    for i, line in enumerate(run.stdout.splitlines()):
        if not line.strip():
            continue
        report = json.loads(line)
        family, pattern, flags = cases[i]
        rows.append({"id": "gen-%s-%s-%d" % (dialect, family, i),
                     "pattern": report.get("pattern", pattern),
                     "flags": flags, "dialect": dialect,
                     "verdict": report.get("verdict"),
                     "attack": report.get("attack")})
    if len(rows) != len(cases):
        raise SystemExit("regexguard answered %d of %d patterns (exit %d): %s"
                         % (len(rows), len(cases), run.returncode,
                            run.stderr[:500]))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("regexguard")
    parser.add_argument("--java", required=True)
    parser.add_argument("--java-meter-source", required=True)
    parser.add_argument("--ruby", required=True)
    parser.add_argument("--ruby-meter", required=True)
    args = parser.parse_args()
    cases = list(families())
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        rows = []
        for dialect in ("java", "ruby"):
            got = analyse(args.regexguard, dialect, cases, work)
            found = [r for r in got
                     if r["verdict"] in ("exponential", "polynomial")]
            print("%s: %d generated patterns, %d findings" % (
                dialect, len(got), len(found)))
            rows.extend(got)
        by_pattern = {(r["dialect"], r["pattern"]): r["verdict"]
                      for r in rows}
        pinned = {("ruby", "^(a+)+b$"): "exponential",
                  ("ruby", "^(?:a+)+b$"): None}
        for key, verdict in pinned.items():
            got = by_pattern.get(key)
            if verdict is None and got in ("exponential", "polynomial"):
                failures += 1
                print("FAIL %s %s reported %s; Ruby 3.1 runs it linearly" % (
                    key[0], key[1], got))
            elif verdict is not None and got != verdict:
                failures += 1
                print("FAIL %s %s is %s, expected %s" % (key[0], key[1], got,
                                                         verdict))
        results = os.path.join(work, "results.jsonl")
        with open(results, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        judged = subprocess.run(
            [sys.executable, os.path.join(HERE, "engine_attacks_test.py"),
             "--results", results, "--java", args.java,
             "--java-meter-source", args.java_meter_source,
             "--ruby", args.ruby, "--ruby-meter", args.ruby_meter,
             "--engine-floor", "java=1.0", "--engine-floor", "ruby=1.0"],
            timeout=1200)
        if judged.returncode != 0:
            failures += 1
    print("generated java/ruby cases on their engines: %d failures" %
          failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
