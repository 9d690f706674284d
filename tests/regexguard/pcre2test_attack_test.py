#!/usr/bin/env python3
"""regexguard's PCRE attacks against pcre2test, PCRE2's own test program.

For patterns regexguard reports as exponential with --dialect pcre, the
reported attack at a modest size must exhaust pcre2test's default match
limit (10,000,000): what a PCRE2 user running the program as shipped sees.
For the issue-12 patterns that are polynomial, pcre2test must run the attack
to completion (no limit fires: the match limit restarts at every start
position) and regexguard's verdict must name the interpreter.

usage: pcre2test_attack_test.py REGEXGUARD PCRE2TEST
"""
import json
import subprocess
import sys
import tempfile

EXPONENTIAL = [
    r"^(\w+\s?)+$",
    r"^([a-z0-9]+)-([A-Za-z0-9+/=]{44,88})(\?[\x21-\x7E]*)*$",
    r"^(a|a)*$",
]
POLYNOMIAL = [
    r"^NLST\s+[^\n]*\x2a{10}",
    r"[A-Z]*,",
    r"\([^)]*\)|[\n\t]",
    r"(\(.*\))",
]


def analyze(regexguard, pattern):
    done = subprocess.run([regexguard, "check", pattern, "--format", "json"],
                          capture_output=True, text=True, check=False)
    return json.loads(done.stdout.splitlines()[0])


def pcre2test_subject(text):
    """A pcre2test subject line: every character as \\x{hh} so none is taken
    as pcre2test syntax."""
    return "".join("\\x{%x}" % ord(c) for c in text)


def run_pcre2test(pcre2test, pattern, subject):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False,
                                     encoding="utf-8") as handle:
        handle.write("/%s/utf\n%s\n\n" % (pattern.replace("/", "\\/"),
                                           pcre2test_subject(subject)))
        path = handle.name
    done = subprocess.run([pcre2test, "-q", path], capture_output=True,
                          text=True, check=False, timeout=300)
    return done.stdout + done.stderr


def main():
    regexguard, pcre2test = sys.argv[1], sys.argv[2]
    failures = 0
    for pattern in EXPONENTIAL:
        report = analyze(regexguard, pattern)
        attack = report.get("attack")
        if report.get("verdict") != "exponential" or not attack:
            print("FAIL %s: verdict %s" % (pattern, report.get("verdict")))
            failures += 1
            continue
        subject = attack["prefix"] + attack["pump"] * 40 + attack["suffix"]
        output = run_pcre2test(pcre2test, pattern, subject)
        limited = "match limit exceeded" in output
        print("%s %s: %d characters -> %s" % (
            "ok  " if limited else "FAIL", pattern, len(subject),
            "match limit exceeded" if limited else output.strip()[-200:]))
        failures += 0 if limited else 1
    for pattern in POLYNOMIAL:
        report = analyze(regexguard, pattern)
        attack = report.get("attack")
        configs = report.get("configs", {})
        interpreter = configs.get("pcre2", {}).get("explodes", False)
        if report.get("verdict") != "polynomial" or not attack or not interpreter:
            print("FAIL %s: verdict %s, interpreter explodes: %s" % (
                pattern, report.get("verdict"), interpreter))
            failures += 1
            continue
        subject = attack["prefix"] + attack["pump"] * 2000 + attack["suffix"]
        output = run_pcre2test(pcre2test, pattern, subject)
        finished = "error" not in output.lower()
        print("%s %s: %d characters, no limit fired" % (
            "ok  " if finished else "FAIL", pattern, len(subject)))
        failures += 0 if finished else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
