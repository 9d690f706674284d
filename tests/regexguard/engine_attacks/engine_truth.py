#!/usr/bin/env python3
"""The ReDoS corpus's own attacks, judged on engines the corpus never ran.

The corpus (tests/data/redos/corpus.jsonl) records for CPython, Node and
PCRE2 whether each entry compiles and whether its verified attack is
super-linear (`engines_compile`, `verified.<engine>.superlinear`). This
script measures the same for java.util.regex (OpenJDK 17), Ruby 3.1's Onigmo
and Go's regexp, with the meters and the judge of engine_attacks_test.py
(same rule, same CPU-time discipline), and writes one line per entry and
engine:

  {"id", "engine", "compiles", "error" (the engine's refusal, when it does
   not compile), "superlinear" (the corpus attack, judged; false when the
   entry has no attack, null when the attack has several pumps, which the
   meters do not grow), "ratios", "n"}

The result is tests/data/redos/engine_truth.jsonl, which the per-engine
corpus evaluation (bench/regexguard/corpus_evaluation.cc) reads as the truth
for the java, ruby and go dialects. It takes minutes, so it is run by hand
when the corpus or an engine changes (the command is in bench/RESULTS.md);
the EngineAttacks test re-runs every attack regexguard reports on these
engines in CI.
"""
import argparse
import json
import sys
import threading

import engine_attacks_test as harness


def single_pump(attack):
    """The corpus attack as {"prefix", "pump", "suffix"}, or None when it has
    several pumps (recheck's form: {"pumps": [{"prefix", "pump"}...],
    "suffix"})."""
    if not attack:
        return None
    if "pumps" not in attack:
        return attack
    if len(attack["pumps"]) != 1:
        return None
    return {"prefix": attack["pumps"][0]["prefix"],
            "pump": attack["pumps"][0]["pump"], "suffix": attack["suffix"]}


def judge_engine(command, engine, corpus, sink):
    meter = harness.Meter(command)
    try:
        for entry in corpus:
            row = {"id": entry["id"], "engine": engine}
            attack = single_pump(entry.get("attack"))
            reply = meter.ask({"op": "compile", "pattern": entry["pattern"],
                               "flags": entry.get("flags", ""),
                               "attack": attack or {}})
            row["compiles"] = "error" not in reply
            if not row["compiles"]:
                row["error"] = reply["error"]
            row["superlinear"] = False
            if row["compiles"] and entry.get("attack") and not attack:
                # recheck's attacks with several pumps: the meters grow one.
                row["superlinear"] = None
            elif row["compiles"] and entry.get("attack"):
                try:
                    verdict = harness.Judge(meter, attack).judge(False)
                    row.update({k: verdict[k] for k in
                                ("superlinear", "ratios", "n")})
                except harness.AttackError as error:
                    # The engine gave up (a stack overflow): it did not
                    # run the attack to its end, so no verdict either way.
                    row["error"] = str(error)
            sink.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    finally:
        meter.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--engines", default="java,ruby,go")
    harness.add_meter_arguments(parser)
    args = parser.parse_args()
    with open(args.corpus, encoding="utf-8") as handle:
        corpus = [json.loads(line) for line in handle if line.strip()]
    commands = harness.meter_commands(args)
    engines = args.engines.split(",")
    rows = {engine: [] for engine in engines}
    threads = [threading.Thread(target=judge_engine,
                                args=(commands[engine], engine, corpus,
                                      rows[engine]))
               for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(args.out, "w", encoding="utf-8") as handle:
        for engine in engines:
            for row in rows[engine]:
                handle.write(json.dumps(row, sort_keys=True) + "\n")
    for engine in engines:
        compiled = [r for r in rows[engine] if r["compiles"]]
        print("%-5s entries %d, compile %d, corpus attack super-linear %d" % (
            engine, len(rows[engine]), len(compiled),
            sum(1 for r in compiled if r["superlinear"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
