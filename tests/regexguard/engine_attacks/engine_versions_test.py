#!/usr/bin/env python3
"""regexguard.EngineVersions.slow: the version-aware verdicts (issue 27,
item 3) and V8's shortcuts (item 1) checked on the engines that
run here.

V8's linear engine (Node >= 16 under --enable-experimental-regexp-engine,
the `l` flag):
  * reach: for every row of REACH, `regexguard check --dialect javascript
    --flags <f>l` calls the pattern safe exactly when Node compiles
    new RegExp(pattern, f + "l"), and an invalid pattern ("Cannot be
    executed in linear time") exactly when Node refuses it;
  * linearity: for every pattern of LINEAR, regexguard reports a finding
    without the flag and says V8's linear engine reaches it; its attack is
    then super-linear on V8's backtracker and linear with the `l` flag,
    judged by the EngineAttacks judge on node_attack_meter.js.

V8's shortcuts (issue 27, item 1): for every pattern of TWO_BYTE, one with
a character above U+00FF, regexguard's attack holds a character above
U+00FF too, and is super-linear on V8 (the Latin-1 attacks it reported
before ran flat: V8's one-byte code fails them at once); for every pattern
of QUICK_CHECK, one with a scanning negative lookahead, the attack is
super-linear on V8 (the pumps before ran flat: V8's quick check skipped the
lookahead when the characters after it could not continue the match).

Ruby's memoization (3.2 and later):
  * on a Ruby without Regexp.linear_time? (3.1, Debian's), every pattern of
    MEMOIZED, which regexguard calls "linear on Ruby >= 3.2", is still
    super-linear on its reported attack (ruby_attack_meter.rb): the
    default verdict stays the one for this Ruby;
  * on a Ruby with it (3.2 and later), regexguard's reach must never claim
    linear where Regexp.linear_time? says no (it may claim less: its rules
    are conservative).

usage: engine_versions_test.py REGEXGUARD --node NODE --node-meter JS
           --ruby RUBY --ruby-meter RB
Exit 0 when every check holds, 1 otherwise; 77 (skipped) when Node has no
--enable-experimental-regexp-engine.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_attacks_test import Judge, Meter  # noqa: E402

NODE_LINEAR_FLAG = "--enable-experimental-regexp-engine"

# (pattern, flags without l): V8's rules (experimental-compiler.cc
# CanBeHandledVisitor) at their edges.
REACH = [
    ("(a+)+$", ""), ("(a+)+$", "i"), ("(a+)+$", "u"), ("(a+?)+$", ""),
    ("\\bfoo", ""), ("^a.b$", "ms"), ("(?<n>a)", ""), ("(a)\\1", ""),
    ("(?<n>a)\\k<n>", ""), ("(?=a)a", ""), ("(?!a)b", ""), ("(?<=a)b", ""),
    ("(?<!a)b", ""), ("a{16}", ""), ("a{17}", ""), ("a{0,16}", ""),
    ("a{0,17}", ""), ("a{15,}", ""), ("a{16,}", ""), ("a{20,}", ""),
    ("(a{0,4}){0,4}", ""), ("(a{0,4}){0,5}", ""), ("(?:a{2,5}){2,5}", ""),
    ("(((a+)+)+)+", ""), ("((((a+)+)+)+)+", ""), ("(a{2,3}b+)+", ""),
    ("(?:a{3,}){4}", ""), ("(?:a{3,}){5}", ""), ("[a-z]+@[a-z]+", "g"),
    ("^(\\w+\\s?)+$", ""), ("(x+x+)+y", ""),
]

# Findings on V8's backtracker that its linear engine reaches.
LINEAR = ["^(a+)+$", "^(\\w+\\s?)+$", "(x+x+)+y", "^(a|a)*$", "^\\d*\\d*x"]

# Findings whose attack V8's one-byte code would hide (issue 27, item 1):
# a pattern character above U+00FF makes regexguard's attack two-byte.
TWO_BYTE = ["(\u5143|\\d+)\u5e74", "(\\w+)+\u3002$", "^(a|a)*\u00e9\u4e00"]

# Findings whose attack V8's quick check would skip (item 1): a scanning
# negative lookahead, and after it what the pattern reads next.
QUICK_CHECK = [
    ("(yandex(?:(?:mobile)?(?:accessibility|additional|com|renderresources|"
     "screenshot|sprav)?bot(?!.+mirror)|image(?:s|resizer)|adnet|blogs|"
     "favicons|market|media|metrika|news|ontodb(?:api)?|partner|rca|tracker|"
     "turbo|verti(?:cal)?s|webmaster|video(?:parser)?))\\/([\\w.]+)", "i"),
    ("foo(?!.+bar)\\/\\w+", ""), ("id(?!.*=end)=\\d+;", ""),
    ("x(?!.*y)(?:ab|cd)", ""),
]

# Findings on Ruby 3.1 that regexguard says Ruby 3.2 memoizes.
MEMOIZED = ["^(a+)+$", "\\A(\\w+\\s?)+\\z", "\\A(x+x+)+y"]

# For a Ruby with Regexp.linear_time?: rows where regexguard's reach is
# asked of the engine itself.
RUBY_REACH = MEMOIZED + [
    "(a)\\1", "(?=a)(a+)+$", "(?>a+)+b", "a++b", "(?=(a))a",
    "(?:\\d{1,3}\\.)+", "(?:a{2}){3}", "\\d{1,3}", "(?:a+){2,5}",
]


def check(regexguard, rows):
    """regexguard's JSON rows for [(pattern, dialect, flags)]."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as patterns:
        for pattern, dialect, flags in rows:
            patterns.write(json.dumps({"pattern": pattern, "dialect": dialect,
                                       "flags": flags}) + "\n")
        patterns.flush()
        run = subprocess.run([regexguard, "check", "--file", patterns.name,
                              "--format", "json", "--jobs", "2"],
                             capture_output=True, text=True, check=False)
    out = [json.loads(line) for line in run.stdout.splitlines() if line]
    if len(out) != len(rows):
        raise RuntimeError("regexguard: %s" % run.stderr)
    return out


def node_compiles(node, rows):
    """[(compiles, message)] for new RegExp(p, f + "l") on Node."""
    script = (
        "const rows = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(rows.map(([p, f]) => {"
        "  try { new RegExp(p, f + 'l'); return [true, '']; }"
        "  catch (e) { return [false, e.message]; } })));")
    run = subprocess.run([node, NODE_LINEAR_FLAG, "-e", script],
                         input=json.dumps(rows), capture_output=True,
                         text=True, check=True)
    return json.loads(run.stdout)


def judge(command, pattern, flags, attack):
    meter = Meter(command)
    try:
        reply = meter.ask({"op": "compile", "pattern": pattern,
                           "flags": flags, "attack": attack})
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return Judge(meter, attack).judge(counted=False)
    finally:
        meter.close()


def check_v8(args, failures):
    rows = [(p, "javascript", f + "l") for p, f in REACH]
    verdicts = check(args.regexguard, rows)
    node = node_compiles(args.node, REACH)
    for (pattern, flags), row, (compiles, message) in zip(REACH, verdicts,
                                                          node):
        error = (row.get("error") or {}).get("message", "")
        says_linear = row["verdict"] == "safe" and not error
        says_refused = "Cannot be executed in linear time" in error
        agree = says_linear if compiles else says_refused
        print("%-5s /%s/%sl node %s, regexguard %s" % (
            "ok" if agree else "FAIL", pattern, flags,
            "compiles" if compiles else "refuses (%s)" % message,
            "linear" if says_linear else error or row["verdict"]))
        if not agree:
            failures.append("reach /%s/%sl" % (pattern, flags))

    rows = [(p, "javascript", "") for p in LINEAR]
    backtracker = [args.node, "--single-threaded", args.node_meter]
    linear_engine = [args.node, "--single-threaded", NODE_LINEAR_FLAG,
                     args.node_meter]
    for pattern, row in zip(LINEAR, check(args.regexguard, rows)):
        defence = row["defences"][0] if row["defences"] else {}
        if row["verdict"] not in ("exponential", "polynomial") or \
                defence.get("reached_from") != "16":
            failures.append("linear /%s/: regexguard %s, reach %s" % (
                pattern, row["verdict"], defence.get("reached_from")))
            continue
        attack = row["attack"]
        slow = judge(backtracker, pattern, "", attack)
        fast = judge(linear_engine, pattern, "l", attack)
        ok = slow["superlinear"] and not fast["superlinear"]
        print("%-5s /%s/ %s: backtracker ratios %s at n=%d; l flag ratios %s "
              "at n=%d (%.1f ms)" % (
                  "ok" if ok else "FAIL", pattern, row["verdict"],
                  ["%.1f" % r for r in slow["ratios"]], slow["n"],
                  ["%.2f" % r for r in fast["ratios"]], fast["n"],
                  fast["cost"] * 1e3))
        if not ok:
            failures.append("linear /%s/" % pattern)


def check_two_byte(args, failures):
    """Each TWO_BYTE finding's attack holds a character above U+00FF and is
    super-linear on V8's backtracker."""
    rows = [(p, "javascript", "") for p in TWO_BYTE]
    backtracker = [args.node, "--single-threaded", args.node_meter]
    for pattern, row in zip(TWO_BYTE, check(args.regexguard, rows)):
        attack = row["attack"]
        if attack is None:
            failures.append("two-byte /%s/: regexguard %s" % (pattern,
                                                              row["verdict"]))
            continue
        text = attack["prefix"] + attack["pump"] + attack["suffix"]
        two_byte = any(ord(c) > 0xFF for c in text)
        result = judge(backtracker, pattern, "", attack)
        ok = two_byte and result["superlinear"]
        print("%-5s /%s/ %s, attack %s: V8 ratios %s at n=%d" % (
            "ok" if ok else "FAIL", pattern, row["verdict"],
            json.dumps(attack, ensure_ascii=False),
            ["%.1f" % r for r in result["ratios"]], result["n"]))
        if not ok:
            failures.append("two-byte /%s/" % pattern)


def check_quick_check(args, failures):
    """Each QUICK_CHECK finding's attack is super-linear on V8."""
    rows = [(p, "javascript", f) for p, f in QUICK_CHECK]
    backtracker = [args.node, "--single-threaded", args.node_meter]
    for (pattern, flags), row in zip(QUICK_CHECK, check(args.regexguard,
                                                        rows)):
        if row["attack"] is None:
            failures.append("quick check /%s/: regexguard %s" % (
                pattern, row["verdict"]))
            continue
        result = judge(backtracker, pattern, flags, row["attack"])
        print("%-5s /%s/%s %s, pump %r: V8 ratios %s at n=%d" % (
            "ok" if result["superlinear"] else "FAIL", pattern[:40], flags,
            row["verdict"], row["attack"]["pump"],
            ["%.1f" % r for r in result["ratios"]], result["n"]))
        if not result["superlinear"]:
            failures.append("quick check /%s/" % pattern)


def ruby_has_linear_time(ruby):
    run = subprocess.run([ruby, "-e", "print Regexp.respond_to?(:linear_time?)"],
                         capture_output=True, text=True, check=True)
    return run.stdout == "true"


def check_ruby(args, failures):
    if ruby_has_linear_time(args.ruby):
        rows = [(p, "ruby", "") for p in RUBY_REACH]
        script = ("require 'json'; puts JSON.generate(JSON.parse(STDIN.read)"
                  ".map { |p| Regexp.linear_time?(Regexp.new(p)) })")
        run = subprocess.run([args.ruby, "-e", script],
                             input=json.dumps(RUBY_REACH), capture_output=True,
                             text=True, check=True)
        for pattern, row, linear in zip(RUBY_REACH, check(args.regexguard,
                                                          rows),
                                        json.loads(run.stdout)):
            claims = bool(row["defences"] and
                          row["defences"][0]["reached_from"])
            ok = linear or not claims
            print("%-5s /%s/ linear_time? %s, regexguard reach %s" % (
                "ok" if ok else "FAIL", pattern, linear,
                row["defences"][0]["reached_from"] if claims else None))
            if not ok:
                failures.append("ruby reach /%s/" % pattern)
        return
    rows = [(p, "ruby", "") for p in MEMOIZED]
    for pattern, row in zip(MEMOIZED, check(args.regexguard, rows)):
        expected = "linear on Ruby >= 3.2 (memoization)"
        if row["verdict"] not in ("exponential", "polynomial") or \
                expected not in (row["versions"] or ""):
            failures.append("ruby /%s/: %s, %s" % (pattern, row["verdict"],
                                                   row["versions"]))
            continue
        result = judge([args.ruby, args.ruby_meter], pattern, "",
                       row["attack"])
        print("%-5s /%s/ on this Ruby (no memoization): ratios %s at n=%d; "
              "regexguard: %s" % (
                  "ok" if result["superlinear"] else "FAIL", pattern,
                  ["%.1f" % r for r in result["ratios"]], result["n"],
                  row["versions"]))
        if not result["superlinear"]:
            failures.append("ruby /%s/ not super-linear" % pattern)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("regexguard")
    parser.add_argument("--node", required=True)
    parser.add_argument("--node-meter", required=True)
    parser.add_argument("--ruby", required=True)
    parser.add_argument("--ruby-meter", required=True)
    args = parser.parse_args()
    probe = subprocess.run([args.node, NODE_LINEAR_FLAG, "-e", "/a/l"],
                           capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        print("skipped: %s has no working %s" % (args.node, NODE_LINEAR_FLAG))
        return 77
    failures = []
    check_v8(args, failures)
    check_two_byte(args, failures)
    check_quick_check(args, failures)
    check_ruby(args, failures)
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
