#!/usr/bin/env python3
"""Precision and recall of `regexguard scan`'s regex-injection findings
(rule regexguard/injection) per language, on the labelled corpus
tests/data/regex_injection/ (see its README): every regex call there is
labelled `expect: injection` or `expect: clean` on its line.

A finding on an `injection` line is a true positive, one on a `clean` line
or on an unlabelled line a false positive; an `injection` line without a
finding a false negative. Fails when a language of the development set
(every file but the held-out ones) falls below the thresholds below, when
it has too few labels of either kind to measure, or when the scan itself
fails. The held-out files never fail the test: a gate on them would invite
tuning on them.

Usage: injection_corpus_test.py REGEXGUARD_BINARY CORPUS_DIR

Prints the per-language tables as Markdown (bench/RESULTS.md): the
development set, the first held-out set alone (named *set1*: seen since,
so part of the development set now), and the current held-out set (named
*heldout2*: written before the finder's last changes, measured once after
them, never tuned on). Misses and false positives are listed for the
development set only.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# The thresholds the finder is held to on this corpus (measured figures are
# in bench/RESULTS.md; the corpus holds known misses on purpose).
MIN_PRECISION = 0.85
MIN_RECALL = 0.80
# Fewer labels than this of either kind measure nothing.
MIN_LABELS = 5

LABEL = re.compile(r"expect:\s*(injection|clean)")
RULE = "regexguard/injection"


def read_labels(corpus):
    """{(relative path, line): label} and {language: [relative paths]}."""
    labels = {}
    files = {}
    for language in sorted(os.listdir(corpus)):
        folder = os.path.join(corpus, language)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(language, name)
            files.setdefault(language, []).append(path)
            with open(os.path.join(corpus, path), encoding="utf-8") as f:
                for number, text in enumerate(f, start=1):
                    match = LABEL.search(text)
                    if match:
                        labels[(path, number)] = match.group(1)
    return labels, files


def scan(binary, corpus):
    with tempfile.TemporaryDirectory() as cache:
        result = subprocess.run(
            [binary, "scan", "--format", "json", "--no-git", "--no-config",
             "--no-cache", "."],
            cwd=corpus, capture_output=True, text=True, check=False,
            env=dict(os.environ, XDG_CACHE_HOME=cache))
    if result.returncode not in (0, 1):
        sys.exit(f"FAIL: regexguard scan exited {result.returncode}: "
                 f"{result.stderr}")
    found = set()
    for line in result.stdout.splitlines():
        finding = json.loads(line)
        if finding.get("rule") == RULE:
            path = os.path.normpath(finding["path"])
            found.add((path, finding["line"]))
            if "injection" not in finding:
                sys.exit(f"FAIL: {path}:{finding['line']}: an injection "
                         "finding without its 'injection' object")
    return found


def measure(language, paths, labels, found, verbose):
    """(language, positives, negatives, TP, FP, FN, precision, recall)."""
    in_language = {key: label for key, label in labels.items()
                   if key[0] in paths}
    positives = {k for k, v in in_language.items() if v == "injection"}
    negatives = {k for k, v in in_language.items() if v == "clean"}
    reported = {k for k in found if k[0] in paths}
    tp = len(reported & positives)
    fp = len(reported - positives)
    fn = len(positives - reported)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    if verbose:
        for key in sorted(reported - positives):
            print(f"false positive: {key[0]}:{key[1]} "
                  f"({in_language.get(key, 'unlabelled')})")
        for key in sorted(positives - reported):
            print(f"missed: {key[0]}:{key[1]}")
    return (language, len(positives), len(negatives), tp, fp, fn, precision,
            recall)


def print_table(title, rows):
    print(f"\n{title}:\n")
    print("| language | injection labels | clean labels | TP | FP | FN | "
          "precision | recall |")
    print("|---|---|---|---|---|---|---|---|")
    totals = [0, 0, 0, 0, 0]
    for language, pos, neg, tp, fp, fn, precision, recall in rows:
        print(f"| {language} | {pos} | {neg} | {tp} | {fp} | {fn} | "
              f"{precision:.2f} | {recall:.2f} |")
        for i, value in enumerate((pos, neg, tp, fp, fn)):
            totals[i] += value
    pos, neg, tp, fp, fn = totals
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    print(f"| all | {pos} | {neg} | {tp} | {fp} | {fn} | {precision:.2f} | "
          f"{recall:.2f} |")


HELDOUT = "heldout2"  # the current held-out set
FIRST_HELDOUT = "set1"  # the first held-out set, seen since


def main():
    binary, corpus = sys.argv[1], sys.argv[2]
    labels, files = read_labels(corpus)
    found = scan(binary, corpus)
    failed = False
    rows = []
    first_rows = []
    heldout_rows = []
    for language, all_paths in files.items():
        paths = [p for p in all_paths if HELDOUT not in p.lower()]
        row = measure(language, paths, labels, found, verbose=True)
        rows.append(row)
        pos, neg, precision, recall = row[1], row[2], row[6], row[7]
        if pos < MIN_LABELS or neg < MIN_LABELS:
            failed = True
            print(f"FAIL: {language}: {pos} injection and {neg} clean "
                  f"labels, at least {MIN_LABELS} of each are needed")
        if precision < MIN_PRECISION or recall < MIN_RECALL:
            failed = True
            print(f"FAIL: {language}: precision {precision:.2f} (min "
                  f"{MIN_PRECISION}), recall {recall:.2f} (min {MIN_RECALL})")
        first = [p for p in paths if FIRST_HELDOUT in p.lower()]
        if first:
            first_rows.append(measure(language, first, labels, found,
                                      verbose=False))
        heldout = [p for p in all_paths if HELDOUT in p.lower()]
        if heldout:
            heldout_rows.append(measure(language, heldout, labels, found,
                                        verbose=False))
    print_table("development set (all files but the held-out ones)", rows)
    print_table("first held-out set only (frozen finder 15a748f; seen "
                "since, part of the development set)", first_rows)
    print_table("held-out set 2 only (written before the finder's last "
                "changes, measured once, never tuned on)", heldout_rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
