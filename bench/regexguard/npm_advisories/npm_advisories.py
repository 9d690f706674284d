#!/usr/bin/env python3
"""npm ReDoS advisories in the real packages (issue 27).

For every advisory in advisories.json: download the vulnerable and the first
fixed version from the npm registry (`npm pack`, one tarball per version,
cached), unpack it, run `regexguard scan` over the unpacked package as a user
would, and judge

  vulnerable version: FOUND   a ReDoS finding (exponential, polynomial,
                              search-restart) on the literal that holds the
                              vulnerable regex (its file, line and column)
                      MISSED  anything else (the verdict said is printed)
  fixed version:      CLEAN   no ReDoS finding on the literal that replaced it
                              (or the fix removed the regex)
                      FALSE-ALARM  a ReDoS finding there whose attack does
                              not blow up Node's own regex engine
                      STILL-VULN   a ReDoS finding there whose attack does
                              blow up Node (the fix was incomplete; listed,
                              not counted as a false alarm)

Every finding's attack is replayed in Node (`node -e`): the pump count is
doubled from 1 until one match takes 0.2 s, and more than 8x the time of a quarter
of that count (best of three runs each) is super-linear.

This is a measurement script that needs the network (registry.npmjs.org); it
is not a ctest test.

Exit status: 0 when every advisory is FOUND and no fixed version has a
FALSE-ALARM, 1 otherwise, 2 on a usage, download or data error.
"""

import argparse
import json
import os
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REDOS_RULES = {"regexguard/exponential", "regexguard/polynomial",
               "regexguard/search-restart"}


def fetch(cache, package, version):
    """Unpacked tarball of package@version (downloaded once, then cached)."""
    folder = os.path.join(cache, package.replace("/", "__") + "@" + version)
    unpacked = os.path.join(folder, "unpacked")
    if os.path.isdir(unpacked):
        return unpacked
    os.makedirs(folder, exist_ok=True)
    tarballs = [f for f in os.listdir(folder) if f.endswith(".tgz")]
    if not tarballs:
        run = subprocess.run(
            ["npm", "pack", f"{package}@{version}", "--pack-destination",
             folder, "--silent"],
            capture_output=True, text=True, timeout=300)
        if run.returncode != 0:
            raise RuntimeError(f"npm pack {package}@{version} failed: "
                               f"{run.stderr.strip()[-400:]}")
        tarballs = [f for f in os.listdir(folder) if f.endswith(".tgz")]
    tmp = unpacked + ".tmp"
    if os.path.isdir(tmp):
        subprocess.run(["rm", "-rf", tmp], check=True)
    os.makedirs(tmp)
    with tarfile.open(os.path.join(folder, tarballs[0])) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(tmp, filter="data")
        else:  # Python < 3.12 without the backport
            tar.extractall(tmp)
    os.rename(tmp, unpacked)
    return unpacked


def package_root(unpacked):
    """The tarball's single top folder (`package/` for most packages)."""
    entries = [e for e in os.listdir(unpacked)
               if os.path.isdir(os.path.join(unpacked, e))]
    if len(entries) != 1:
        raise RuntimeError(f"{unpacked}: expected one top folder, got {entries}")
    return entries[0]


def scan(regexguard, unpacked, timeout):
    """regexguard scan over the package: every literal it found, by path."""
    top = package_root(unpacked)
    cmd = [regexguard, "scan", "--no-git", "--no-config", "--no-cache",
           "--format", "json", "--show-info", "--injection-severity", "off",
           "--timeout-per-regex", str(timeout), top]
    started = time.monotonic()
    run = subprocess.run(cmd, cwd=unpacked, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if run.returncode not in (0, 1):
        raise RuntimeError(f"regexguard scan exited {run.returncode}: "
                           f"{run.stderr.strip()[-400:]}")
    literals = {}
    # JSON Lines: split on "\n" only (str.splitlines would also split inside
    # strings holding U+2028, U+0085, ...)
    for line in run.stdout.split("\n"):
        if line.strip():
            item = json.loads(line)
            literals.setdefault(item["path"], []).append(item)
    return literals, seconds


def locate(unpacked, path, snippet):
    """(line, byte column) of the last character of the first occurrence of
    snippet, both counted from 1; None when the file or snippet is absent."""
    full = os.path.join(unpacked, path)
    if not os.path.isfile(full):
        return None
    with open(full, "rb") as f:
        data = f.read()
    needle = snippet.encode("utf-8")
    at = data.find(needle)
    if at < 0:
        return None
    end = at + len(needle) - 1
    line = data.count(b"\n", 0, end) + 1
    column = end - (data.rfind(b"\n", 0, end) + 1) + 1
    return line, column


def literal_at(literals, path, where):
    """The literal holding the snippet: on the line where the snippet ends,
    the last literal starting at or before the snippet's last character
    (snippets end inside the vulnerable regex or just after it; None when
    the scanner took no literal there)."""
    line, column = where
    best = None
    for item in literals.get(path, []):
        if item["line"] == line and item["column"] <= column:
            if best is None or item["column"] > best["column"]:
                best = item
    return best


def describe(item):
    if item is None:
        return "no literal extracted there"
    verdict = item.get("verdict") or item.get("rule") or "?"
    if item.get("verdict") == "polynomial" and item.get("degree"):
        verdict += f"({item['degree']})"
    if item.get("cause") == "search-restart":
        verdict += " search-restart"
    text = f"{verdict} [{item.get('rule') or 'no rule'}]"
    attack = item.get("attack")
    if attack:
        text += " attack " + json.dumps(attack, ensure_ascii=True)
    if item.get("reason"):
        text += f" ({item['reason']})"
    return text


def is_redos(item):
    return item is not None and item.get("rule") in REDOS_RULES


REPRODUCED = "attack reproduces in node (super-linear)"
NOT_REPRODUCED = "attack does not reproduce in node"
NODE_REPLAY = r"""
const [pattern, flags, prefix, pump, suffix] = JSON.parse(process.argv[1]);
const re = new RegExp(pattern, flags.replace(/[^dgimsuyv]/g, ''));
function run(n) {  // best of three (the machine may be shared)
  const s = prefix + pump.repeat(n) + suffix;
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = process.hrtime.bigint();
    if (re.global) { re.lastIndex = 0; s.replace(re, ''); } else re.exec(s);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
    if (best > 1.0) break;
  }
  return best;
}
// Double the pump count until one match takes 0.2 s (or the subject is 4 MB),
// then compare with a quarter of that count: a linear match takes about 4x
// as long, a quadratic one 16x; more than 8x is super-linear.
// An exponential attack can pass 0.2 s one doubling after a fast run (16
// pumps after 8): then the two runs decide, a doubling that costs more than
// 8x being super-linear too.
const times = [];
let grows = false, n = 1;
for (; n <= 4194304; n *= 2) {
  const t = run(n);
  times.push([n, t]);
  if (t > 0.2 || (prefix.length + pump.length * n) > 4000000) break;
}
if (times.length >= 3) {
  const [nb, tb] = times[times.length - 1], [na, ta] = times[times.length - 3];
  grows = tb > 0.05 && tb / Math.max(ta, 1e-6) > 8.0;
} else if (times.length == 2) {
  const [nb, tb] = times[1], [na, ta] = times[0];
  grows = tb > 0.05 && tb / Math.max(ta, 1e-6) > 8.0;
}
console.log(JSON.stringify({grows, times}));
"""


def node_replay(item):
    """Does the finding's attack make Node's own regex engine super-linear?"""
    attack = item.get("attack") or {}
    if not attack.get("pump"):
        return None
    args = json.dumps([item["pattern"], item.get("flags") or "",
                       attack.get("prefix", ""), attack["pump"],
                       attack.get("suffix", "")])
    try:
        run = subprocess.run(["node", "-e", NODE_REPLAY, args],
                             capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:  # one match ran for 30 s
        return REPRODUCED
    except OSError as e:
        return f"node replay failed: {e}"
    if run.returncode != 0:
        return "node replay failed: " + run.stderr.strip().splitlines()[-1][:120]
    result = json.loads(run.stdout)
    return REPRODUCED if result["grows"] else NOT_REPRODUCED


def judge(entry, args):
    vuln = fetch(args.cache, entry["package"], entry["vulnerable"])
    fixed = fetch(args.cache, entry["package"], entry["fixed"])
    path = entry["file"]
    fixed_path = entry.get("fixed_file") or path
    result = {"id": entry["id"], "package": entry["package"],
              "vulnerable": entry["vulnerable"], "fixed": entry["fixed"],
              "file": path}

    where = locate(vuln, path, entry["vulnerable_snippet"])
    if where is None:
        raise RuntimeError(f"{entry['id']}: vulnerable snippet not in "
                           f"{entry['package']}@{entry['vulnerable']}:{path}")
    if locate(fixed, fixed_path, entry["vulnerable_snippet"]) is not None:
        raise RuntimeError(f"{entry['id']}: vulnerable snippet still in "
                           f"{entry['package']}@{entry['fixed']}:{fixed_path}")
    if entry.get("fixed_snippet") and locate(
            fixed, fixed_path, entry["fixed_snippet"]) is None:
        raise RuntimeError(f"{entry['id']}: fixed snippet not in "
                           f"{entry['package']}@{entry['fixed']}:{fixed_path}")
    if args.verify_only:
        print(f"verified {entry['id']}: {entry['package']} "
              f"{entry['vulnerable']} {path}:{where[0]} -> {entry['fixed']}")
        return None
    literals, seconds = scan(args.regexguard, vuln, args.timeout_per_regex)
    item = literal_at(literals, path, where)
    result["vulnerable_line"] = where[0]
    result["vulnerable_verdict"] = describe(item)
    result["vulnerable_pattern"] = item["pattern"] if item else None
    result["found"] = is_redos(item)
    result["vulnerable_replay"] = node_replay(item) if is_redos(item) else None
    result["scan_seconds"] = seconds

    if entry.get("fixed_snippet"):
        fwhere = locate(fixed, fixed_path, entry["fixed_snippet"])
        if fwhere is None:
            raise RuntimeError(f"{entry['id']}: fixed snippet not in "
                               f"{entry['package']}@{entry['fixed']}:{fixed_path}")
        fliterals, fseconds = scan(args.regexguard, fixed,
                                   args.timeout_per_regex)
        fitem = literal_at(fliterals, fixed_path, fwhere)
        result["fixed_line"] = fwhere[0]
        result["fixed_verdict"] = describe(fitem)
        result["fixed_replay"] = node_replay(fitem) if is_redos(fitem) else None
        # A finding on the fixed regex whose attack still blows up Node's
        # own engine is true: the fix was incomplete (listed, not counted)
        result["still_vulnerable"] = (is_redos(fitem) and
                                      result["fixed_replay"] == REPRODUCED)
        result["false_alarm"] = (is_redos(fitem) and
                                 not result["still_vulnerable"])
        result["scan_seconds"] += fseconds
    else:
        result["fixed_line"] = None
        result["fixed_verdict"] = "regex removed by the fix"
        result["false_alarm"] = False
        result["still_vulnerable"] = False
        result["fixed_replay"] = None
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--regexguard",
                        help="the regexguard binary")
    parser.add_argument("--advisories",
                        default=os.path.join(HERE, "advisories.json"))
    parser.add_argument("--cache", default=os.path.expanduser(
        "~/.cache/robotscan-npm-advisories"),
        help="download cache (one tarball per version)")
    parser.add_argument("--only", action="append", default=[],
                        help="advisory id (or package name) to run; repeatable")
    parser.add_argument("--timeout-per-regex", type=float, default=1.0)
    parser.add_argument("--verify-only", action="store_true",
                        help="only download and check the snippets (vulnerable"
                        " one present, absent from the fixed version, fixed "
                        "one present); no scan")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--markdown", action="store_true",
                        help="print the table as markdown")
    args = parser.parse_args()
    if not args.verify_only and not args.regexguard:
        parser.error("--regexguard is required (unless --verify-only)")
    if args.regexguard:
        args.regexguard = os.path.abspath(args.regexguard)

    with open(args.advisories) as f:
        entries = json.load(f)
    if args.only:
        entries = [e for e in entries
                   if any(o in e["id"] or o == e["package"] for o in args.only)]
        if not entries:
            print("no advisory matches --only", file=sys.stderr)
            return 2

    results = []
    for entry in entries:
        try:
            r = judge(entry, args)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"ERROR {entry['id']}: {e}", file=sys.stderr)
            return 2
        if r is None:
            continue
        results.append(r)
        vuln = "FOUND" if r["found"] else "MISSED"
        fix = ("FALSE-ALARM" if r["false_alarm"] else
               "STILL-VULN" if r["still_vulnerable"] else "CLEAN")
        vuln_text = r["vulnerable_verdict"]
        if r["vulnerable_replay"]:
            vuln_text += "; " + r["vulnerable_replay"]
        fixed_text = r["fixed_verdict"]
        if r["fixed_line"]:
            fixed_text = f"line {r['fixed_line']}: " + fixed_text
        if r["fixed_replay"]:
            fixed_text += "; " + r["fixed_replay"]
        if args.markdown:
            cells = [r["id"],
                     f"{r['package']} {r['vulnerable']} → {r['fixed']}",
                     f"`{r['file']}:{r['vulnerable_line']}`",
                     f"{vuln}: {vuln_text}", f"{fix}: {fixed_text}"]
            print("| " + " | ".join(c.replace("|", "\\|") for c in cells)
                  + " |", flush=True)
        else:
            print(f"{vuln:6} {fix:11} {r['id']}  {r['package']} "
                  f"{r['vulnerable']} -> {r['fixed']}  "
                  f"{r['file']}:{r['vulnerable_line']}", flush=True)
            print(f"    vulnerable: {vuln_text}")
            print(f"    fixed:      {fixed_text}", flush=True)

    if args.verify_only:
        return 0
    found = sum(r["found"] for r in results)
    alarms = [r for r in results if r["false_alarm"]]
    still = [r for r in results if r["still_vulnerable"]]
    print(f"\nadvisories: {len(results)}  found: {found}/{len(results)}  "
          f"missed: {len(results) - found}  false alarms on fixed versions: "
          f"{len(alarms)}  fixed versions still vulnerable (finding's attack "
          f"reproduced in node): {len(still)}")
    for r in results:
        if not r["found"]:
            print(f"  missed: {r['id']} {r['package']}@{r['vulnerable']} "
                  f"{r['file']}:{r['vulnerable_line']}: {r['vulnerable_verdict']}")
    for r in alarms:
        print(f"  false alarm: {r['id']} {r['package']}@{r['fixed']} "
              f"line {r['fixed_line']}: {r['fixed_verdict']}"
              + (f"; {r['fixed_replay']}" if r["fixed_replay"] else ""))
    for r in still:
        print(f"  still vulnerable: {r['id']} {r['package']}@{r['fixed']} "
              f"line {r['fixed_line']}: {r['fixed_verdict']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if found == len(results) and not alarms else 1


if __name__ == "__main__":
    sys.exit(main())
