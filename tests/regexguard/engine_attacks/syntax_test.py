#!/usr/bin/env python3
"""Dialect syntax as the engines see it (issue 27, item 5).

Each pattern below is compiled by the real engine of a dialect (CPython's
re, OpenJDK's java.util.regex, Ruby's Onigmo, Go's regexp, through the
meters' "compile" request) and analysed by `regexguard check --dialect D`:
the engine refusing it must be regexguard's "invalid pattern" (exit 2, the
error in the report, never a finding), and the engine accepting it must not
be. The cases are the differences found by running candidate patterns
through the engines; each row names the engines it was checked on.

Usage: syntax_test.py REGEXGUARD [--java JAVA] [--ruby RUBY] [--go-meter
BIN]; an engine whose program is missing is skipped and said so, and the
test exits 77 (a counted skip) when none is there.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engine_attacks_test as harness  # noqa: E402

# (pattern, dialects to check it in). What each engine says is measured,
# not written here: the test asserts regexguard agrees with it.
CASES = [
    # CPython 3.11: global flags only at the start.
    ("/(?i)Eng-USA/(.*)\\.xml", ["python", "java", "ruby"]),
    ("a(?i)b", ["python", "java", "ruby"]),
    ("^(?i)a", ["python"]),
    ("a|(?i)b", ["python"]),
    ("((?i)a)", ["python"]),
    ("(?i)a", ["python", "java", "ruby", "go"]),
    ("(?i)(?s)a", ["python", "java", "go"]),
    ("(?#c)(?i)a", ["python"]),
    # Python's named groups are Python's (and PCRE's).
    ("(?P<name>a)", ["python", "java", "ruby", "go"]),
    ("(?P<n>a)(?P=n)", ["python", "java", "ruby"]),
    ("(?<name>a)\\k<name>", ["java", "ruby"]),
    ("(?<my_name>a)", ["java", "ruby", "go"]),
    ("(?<n>a)(?<n>b)", ["ruby", "java", "python"]),
    # Unknown inline flags.
    ("(?Q)a", ["java", "ruby", "python"]),
    ("(?J)a", ["java", "ruby", "python"]),
    ("(?U)a", ["ruby"]),
    # Braces: Java wants a count after every {.
    ("a{,3}", ["java", "python", "ruby"]),
    ("x{", ["java", "ruby", "python"]),
    ("{x", ["java", "ruby", "python"]),
    ("a{1,2", ["java", "ruby", "python"]),
    ("a{2}", ["java", "ruby", "python", "go"]),
    # Repeats of repeats: Ruby takes every form (and reduces the popular
    # pairs), Java only a counted one, Python and Go none.
    ("a**", ["java", "ruby", "python", "go"]),
    ("a{2}{3}", ["java", "ruby", "python", "go"]),
    ("a{2}*", ["java", "ruby", "python", "go"]),
    # Ranges with a shorthand end.
    ("[a-\\d]", ["java", "ruby", "python"]),
    ("[\\d-z]", ["ruby"]),
    # Escapes.
    ("\\xZ", ["java", "ruby"]),
    ("\\x{41}", ["java", "ruby"]),
    ("\\x41", ["java", "ruby", "python", "go"]),
    ("\\u0041", ["java", "ruby", "python"]),
    ("\\u{41}", ["ruby"]),
    ("\\q", ["ruby"]),
    ("a\\Eb", ["java", "ruby"]),
    ("\\Qa.b\\E", ["java"]),
    ("\\H", ["ruby"]),
    # Lookbehind lengths.
    ("(?<=a|bc)d", ["java", "ruby", "python"]),
    ("(?<=a?)b", ["ruby"]),
    ("(?<=a{1,3})b", ["java", "ruby"]),
    # Go refuses what needs backtracking.
    ("(a)\\1", ["go"]),
    ("(?=a)", ["go"]),
    ("a++", ["go", "java", "ruby"]),
]


def engine_verdicts(command, patterns):
    """{pattern: error or None} from one meter process."""
    meter = harness.Meter(command)
    try:
        out = {}
        for pattern in patterns:
            reply = meter.ask({"op": "compile", "pattern": pattern,
                               "flags": "", "attack": {}})
            out[pattern] = reply.get("error")
        return out
    finally:
        meter.close()


def regexguard_invalid(regexguard, pattern, dialect):
    """(invalid?, finding?, message) from `regexguard check`."""
    run = subprocess.run(
        [regexguard, "check", "--dialect", dialect, "--format", "json",
         "--timeout-per-regex", "0.5", "--", pattern],
        capture_output=True, text=True, check=False)
    report = json.loads(run.stdout) if run.stdout.strip() else {}
    finding = report.get("verdict") in ("exponential", "polynomial")
    message = (report.get("error") or {}).get("message")
    return run.returncode == 2, finding, message


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("regexguard")
    parser.add_argument("--java", default=shutil.which("java"))
    parser.add_argument("--ruby", default=shutil.which("ruby"))
    parser.add_argument("--go-meter")
    args = parser.parse_args()

    commands = {"python": [sys.executable,
                           os.path.join(HERE, "python_attack_meter.py")]}
    if args.java:
        # Source-file mode: the JDK compiles the meter as it starts it.
        commands["java"] = [args.java, os.path.join(HERE,
                                                    "JavaAttackMeter.java")]
    if args.ruby:
        commands["ruby"] = [args.ruby,
                            os.path.join(HERE, "ruby_attack_meter.rb")]
    if args.go_meter:
        commands["go"] = [args.go_meter]
    for dialect in ("java", "ruby", "go"):
        if dialect not in commands:
            print("skipped: %s (its engine is not installed; "
                  "scripts/bootstrap --extras)" % dialect)
    if sys.version_info[:2] != (3, 11):
        # The rules are CPython 3.11's.
        del commands["python"]
        print("skipped: python (this is not CPython 3.11)")
    if not commands:
        return 77

    failures, checked = 0, 0
    for dialect, command in commands.items():
        patterns = [p for p, dialects in CASES if dialect in dialects]
        verdicts = engine_verdicts(command, patterns)
        for pattern in patterns:
            error = verdicts[pattern]
            invalid, finding, message = regexguard_invalid(
                args.regexguard, pattern, dialect)
            checked += 1
            agree = (error is not None) == invalid and not (
                error is not None and finding)
            print("%-4s %-7s %-26s engine: %-55s regexguard: %s" % (
                "ok" if agree else "FAIL", dialect, pattern,
                (error or "compiles")[:55],
                ("invalid: " + (message or "")) if invalid else "valid"))
            failures += not agree
    print("%d checks, %d disagreements" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
