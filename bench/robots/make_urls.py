#!/usr/bin/env python3
"""Writes N realistic URLs for a robots.txt: half start with a rule's literal
prefix, half are ordinary paths; a third carry a query. Deterministic.

usage: make_urls.py ROBOTS_FILE N > urls.txt
"""
import random
import re
import sys

robots_file, count = sys.argv[1], int(sys.argv[2])
prefixes = []
with open(robots_file, encoding="utf-8", errors="replace") as f:
    for line in f:
        m = re.match(r"\s*(?:dis)?allow\s*:\s*(\S+)", line, re.I)
        if m:
            p = re.split(r"[*$]", m.group(1))[0]
            if p.startswith("/"):
                prefixes.append(p)
words = ["questions", "profile", "search", "topic", "item", "homes", "about",
         "help", "ajax", "api", "answer", "user", "b", "sch", "itm"]
rng = random.Random(42)
out = []
for i in range(count):
    path = rng.choice(prefixes) if i % 2 == 0 else "/" + rng.choice(words)
    for _ in range(rng.randrange(3)):
        path += "/%s%d" % (rng.choice(words), rng.randrange(1000))
    if i % 3 == 0:
        path += "?q=%d&page=2" % rng.randrange(100000)
    out.append("https://www.example.com" + path)
sys.stdout.write("\n".join(out) + "\n")
