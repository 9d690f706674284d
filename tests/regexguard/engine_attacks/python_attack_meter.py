#!/usr/bin/env python3
"""python_attack_meter: what an attack costs CPython's re, for EngineAttacks.

re.compile with the pattern's flags, then search (or finditer to the end
with the g flag), in CPU time of this thread (time.thread_time); the judge
(engine_attacks_test.py) decides from these times whether the attack is
super-linear. CPython has no step counter; the judge makes CPU time a stable
verdict. Runs in a process of its own, like the PCRE2 and Node meters, so
that the judge's threads never wait for the GIL behind a long match.

Protocol, one JSON line each way (as pcre2_attack_meter.cc):
  {"op": "compile", "pattern", "flags", "attack"} -> {"unit": "cpu-seconds"}
  or {"error"}; {"op": "measure", "n": [...], "runs": k} -> {"costs": [...],
  "lengths": [...]}, each the least of k runs (no more runs once one costs
  over 0.5 s).
"""
import json
import re
import sys
import time
import warnings

FLAGS = {"i": re.I, "m": re.M, "s": re.S, "x": re.X}


class Attack:
    def __init__(self, request):
        flags = 0
        for letter in request.get("flags", ""):
            flags |= FLAGS.get(letter, 0)
        with warnings.catch_warnings():
            # Corpus patterns CPython warns about ("possible nested set").
            warnings.simplefilter("ignore")
            self.compiled = re.compile(request["pattern"], flags)
        self.glob = "g" in request.get("flags", "")
        self.attack = request["attack"]

    def build(self, n):
        return self.attack["prefix"] + self.attack["pump"] * n + \
            self.attack["suffix"]

    def cost(self, subject):
        start = time.thread_time()
        if self.glob:
            for _ in self.compiled.finditer(subject):
                pass
        else:
            self.compiled.search(subject)
        return time.thread_time() - start

    def measure(self, sizes, runs):
        costs, lengths = [], []
        for n in sizes:
            subject = self.build(n)
            least = float("inf")
            for _ in range(max(runs, 1)):
                spent = self.cost(subject)
                least = min(least, spent)
                if spent > 0.5:
                    break
            costs.append(least)
            lengths.append(len(subject))
        return {"costs": costs, "lengths": lengths}


def main():
    attack = None
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if request.get("op") == "compile":
                try:
                    attack = Attack(request)
                    reply = {"unit": "cpu-seconds"}
                except (re.error, ValueError, OverflowError) as error:
                    attack = None
                    reply = {"error": "does not compile: %s" % error}
            elif request.get("op") == "measure" and attack is not None:
                try:
                    reply = attack.measure(request["n"],
                                           request.get("runs", 1))
                except (MemoryError, OverflowError, RecursionError) as error:
                    reply = {"error": "%s: %s" % (type(error).__name__,
                                                  error)}
            else:
                reply = {"error": "bad request"}
        except (ValueError, KeyError, TypeError) as error:
            reply = {"error": "bad request line: %s" % error}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
