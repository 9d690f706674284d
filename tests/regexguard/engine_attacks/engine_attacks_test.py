#!/usr/bin/env python3
"""Every attack regexguard reports on the ReDoS corpus, run on the real engine.

regexguard decides from counted steps on PCRE2 (and a model of the JIT); this
test checks those verdicts the way a user meets them, by CPU time in the
engine the dialect stands for:

  pcre dialect, interpreter finding  ->  PCRE2 10.42 pcre2_match (as shipped)
  pcre dialect, JIT finding          ->  PCRE2 10.42 after pcre2_jit_compile
  python dialect                     ->  CPython's re (this interpreter)
  javascript dialect                 ->  V8 (node)

Input: the per-engine results of regexguard_eval_corpus (--per-engine
--results FILE), written by the WholeCorpus.PerEngine test. An attack counts
as reproduced when doubling the input multiplies the time by 2.8 or more once
a run costs 3 ms, or failing that 15 ms (attack_timing.h). Fails when fewer than 99.5% of one
engine's findings reproduce, and lists every one that did not.

Timing rather than counting is the point here: CPython and V8 have no step
counter, and the question is what the engine really does.
"""
import argparse
import json
import re
import subprocess
import sys
import threading
import time
import warnings


def python_flags(letters):
    flags = 0
    for c in letters:
        flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}.get(c, 0)
    return flags


def time_python(row):
    """attack_timing.h's rule, in this process with CPython's re."""
    out = {"id": row["id"], "engine": "python"}
    try:
        with warnings.catch_warnings():
            # Corpus patterns CPython warns about ("possible nested set").
            warnings.simplefilter("ignore")
            compiled = re.compile(row["pattern"],
                                  python_flags(row.get("flags", "")))
    except (re.error, ValueError) as error:
        out["error"] = "does not compile: %s" % error
        return out
    glob = "g" in row.get("flags", "")
    attack = row["attack"]

    def build(n):
        return attack["prefix"] + attack["pump"] * n + attack["suffix"]

    def run(subject):
        if glob:
            for _ in compiled.finditer(subject):
                pass
        else:
            compiled.search(subject)

    def timed(n):
        subject = build(n)
        best = 1e9
        for _ in range(3):
            start = time.thread_time()
            run(subject)
            spent = time.thread_time() - start
            best = min(best, spent)
            if spent > 0.5:
                break
        return best

    pump_length = max(len(attack["pump"]), 1)
    fixed = len(attack["prefix"]) + len(attack["suffix"])

    def grow_until(n, target):
        seconds = timed(n)
        while seconds < target and fixed + pump_length * n < 4000000:
            n += max(1, n // 2 if seconds < target / 8 else n // 8)
            seconds = timed(n)
        return n, seconds

    target = 0.003
    n, seconds = grow_until(1, target)
    ratio = seconds / max(timed(n // 2), 1e-9) if n >= 2 else 0
    if not (seconds >= target and ratio >= 2.8):
        target = 0.015
        n, seconds = grow_until(n, target)
        ratio = seconds / max(timed(n // 2), 1e-9) if n >= 2 else 0
    out.update(n=n, length=len(build(n)), seconds=seconds, ratio=ratio,
               superlinear=seconds >= target and ratio >= 2.8)
    return out


def findings(results):
    """(engine, job) for every reported attack, by the engine that decides."""
    jobs = []
    for row in results:
        if row.get("verdict") not in ("exponential", "polynomial"):
            continue
        base = {"id": row["id"], "pattern": row["pattern"],
                "flags": row.get("flags", "")}
        if row["dialect"] == "pcre":
            configs = row.get("configs", {})
            for config, engine in (("pcre2", "pcre2"), ("pcre2-jit", "pcre2jit")):
                verdict = configs.get(config, {})
                if verdict.get("explodes") and verdict.get("attack"):
                    jobs.append((engine, dict(base, engine=engine,
                                              attack=verdict["attack"])))
        elif row["dialect"] == "python":
            jobs.append(("python", dict(base, attack=row["attack"])))
        elif row["dialect"] == "javascript":
            jobs.append(("node", dict(base, attack=row["attack"])))
    return jobs


def run_tool(command, jobs, sink):
    """Feeds jobs to a timer process, one JSON line each way."""
    payload = "".join(json.dumps(job) + "\n" for job in jobs)
    done = subprocess.run(command, input=payload, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        sink.append({"error": "%s exited %d: %s" % (command[0], done.returncode,
                                                    done.stderr[-2000:])})
        return
    for line in done.stdout.splitlines():
        if line.strip():
            sink.append(json.loads(line))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", required=True)
    parser.add_argument("--pcre2-timer", required=True)
    parser.add_argument("--node-timer", required=True)
    parser.add_argument("--node", default="node")
    parser.add_argument("--min-precision", type=float, default=0.995)
    args = parser.parse_args()

    with open(args.results, encoding="utf-8") as handle:
        results = [json.loads(line) for line in handle if line.strip()]
    jobs = findings(results)
    by_engine = {}
    for engine, job in jobs:
        by_engine.setdefault(engine, []).append(job)
    if not by_engine:
        print("no findings in %s" % args.results)
        return 1

    # PCRE2 and Node run in their own processes while CPython times in this
    # one: CPU time per thread or process is what is compared, so running
    # side by side on two cores changes no ratio.
    timed = {engine: [] for engine in by_engine}
    threads = []
    pcre2_jobs = by_engine.get("pcre2", []) + by_engine.get("pcre2jit", [])
    pcre2_out = []
    if pcre2_jobs:
        threads.append(threading.Thread(
            target=run_tool, args=([args.pcre2_timer], pcre2_jobs, pcre2_out)))
    node_out = []
    if by_engine.get("node"):
        # --single-threaded: V8's garbage collector and compiler threads
        # would otherwise add their CPU time to the process's, and a
        # collection landing in the smaller run halves the ratio.
        threads.append(threading.Thread(
            target=run_tool,
            args=([args.node, "--single-threaded", args.node_timer],
                  by_engine["node"], node_out)))
    for thread in threads:
        thread.start()
    for job in by_engine.get("python", []):
        timed["python"].append(time_python(job))
    for thread in threads:
        thread.join()
    for row in pcre2_out + node_out:
        if "engine" not in row:
            print("timer failure:", row.get("error"))
            return 1
        timed[row["engine"]].append(row)

    failed = False
    names = {"pcre2": "PCRE2 interpreter", "pcre2jit": "PCRE2 JIT",
             "python": "CPython re", "node": "Node (V8)"}
    print("regexguard findings on the corpus, re-run on the real engines")
    print("  %-18s %8s %10s %8s" % ("engine", "findings", "reproduced",
                                    "share"))
    for engine in ("pcre2", "pcre2jit", "python", "node"):
        rows = timed.get(engine, [])
        if not rows:
            continue
        reproduced = sum(1 for r in rows if r.get("superlinear"))
        share = reproduced / len(rows)
        print("  %-18s %8d %10d %7.2f%%" % (names[engine], len(rows),
                                            reproduced, 100 * share))
        for r in rows:
            if not r.get("superlinear"):
                print("    not reproduced: %s %s" % (r.get("id"), json.dumps(
                    {k: r.get(k) for k in ("n", "length", "seconds", "ratio",
                                           "error")})))
        if len(rows) != len(by_engine[engine]):
            print("  %s: %d findings but %d timings" % (
                engine, len(by_engine[engine]), len(rows)))
            failed = True
        if share < args.min_precision:
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
