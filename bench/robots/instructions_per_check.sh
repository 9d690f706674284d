#!/bin/bash
# Instructions per check on the realistic 54 KB file and the 100,000 URLs of
# make_urls.py, counted by callgrind (load-independent, unlike wall time on
# a shared machine): only the checks are counted (--toggle-collect), parsing
# and compiling the automaton are not.
#
#   bench/robots/instructions_per_check.sh [BUILD_DIR]   (default build/ci)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/ci}
driver=$build/bench/robots/robots_check_driver
robots=bench/data/realistic-50k.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/robots/make_urls.py "$robots" 100000 > "$work/urls.txt"
printf '%-10s %-7s %-10s %12s\n' agent compat way instructions/check
for agent in Googlebot SomeResearchBot; do
  for compat in rfc google; do
    for way in direct trie automaton; do
      case $way in
        direct) collect='*IsAllowedFor*' ;;
        *) collect='*AgentMatcher::IsAllowed*' ;;
      esac
      valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
        --toggle-collect="$collect" "$driver" "$robots" "$work/urls.txt" \
        "$agent" "$compat" "$way" > /dev/null 2> "$work/err"
      total=$(callgrind_annotate "$work/cg" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
      printf '%-10s %-7s %-10s %12d\n' "$agent" "$compat" "$way" $((total / 300000))
    done
  done
done
