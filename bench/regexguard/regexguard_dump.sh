#!/bin/sh
# The issue 25 behaviour dump (regexguard_dump.cc) over this machine's
# corpora: run it before and after a refactoring, then `cmp` the outputs.
#   bench/regexguard/regexguard_dump.sh BUILD_DIR > dump.txt
#   bench/regexguard/regexguard_dump.sh BUILD_DIR --fresh > analyses.txt
# Patterns: every string of the ReDoS corpus (/work/shared/redos-corpus and
# its copy in tests/data) plus every extracted literal; sources: Debian's
# Python packages and standard library, the Google Cloud SDK, npm's and
# Debian's JavaScript, the C/C++ headers and tests/data; full analyses: the
# corpus entries, each in its dialect.
# One thread and no address-space randomisation, as the dumps before
# 2026-12-03 were taken: Explain (proof/explain.cc, LoopOf) then broke ties
# between loops by their nodes' addresses, so the culprits of a few reports
# differed between runs (9 of 928 here). Ties now go to the loop first in
# the pattern, and three runs with randomisation agree. --fresh prints only
# the full analyses, each entry in its own process.
set -eu
build=${1:?usage: $0 BUILD_DIR [--fresh]}
root=$(cd "$(dirname "$0")/../.." && pwd)
dump="$build/bench/regexguard/regexguard_dump"
corpus="$root/tests/data/redos/corpus.jsonl"
if [ "${2:-}" = "--fresh" ]; then
  entries=$(mktemp -d)
  trap 'rm -rf "$entries"' EXIT
  split -l 1 -d -a 4 --additional-suffix=.jsonl "$corpus" "$entries/e"
  for entry in "$entries"/e*.jsonl; do
    setarch "$(uname -m)" -R "$dump" --jobs 1 --analyze-from "$entry" |
      grep '^A'
  done
  exit 0
fi
exec setarch "$(uname -m)" -R "$dump" --jobs 1 \
  --patterns-from /work/shared/redos-corpus/corpus.jsonl "$corpus" \
  --sources /usr/lib/python3/dist-packages /usr/lib/python3.11 \
    /usr/lib/google-cloud-sdk /usr/lib/node_modules /usr/share/javascript \
    /usr/include "$root/tests/data" \
  --analyze-from "$corpus"
