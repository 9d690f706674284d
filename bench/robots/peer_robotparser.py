#!/usr/bin/env python3
"""Peer for compare_check.sh: the same job as `robotscan check --urls-file`
done with Python's standard urllib.robotparser (one verdict line per URL).

usage: peer_robotparser.py ROBOTS_FILE AGENT URLS_FILE
"""
import sys
import urllib.robotparser

robots_file, agent, urls_file = sys.argv[1:4]
parser = urllib.robotparser.RobotFileParser()
with open(robots_file, encoding="utf-8", errors="replace") as f:
    parser.parse(f.read().splitlines())
out = sys.stdout
disallowed = 0
with open(urls_file, encoding="utf-8") as f:
    for line in f:
        url = line.rstrip("\n")
        if not url:
            continue
        ok = parser.can_fetch(agent, url)
        disallowed += not ok
        out.write(("allowed\t" if ok else "disallowed\t") + url + "\n")
sys.exit(1 if disallowed else 0)
