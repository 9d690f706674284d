#!/usr/bin/env python3
"""The reference side of the urllib compat mode's differential test
(urllib_reading_test.cc): generates robots.txt files and URLs built from
the pieces CPython's urllib.robotparser reads differently from RFC 9309, and
prints what the real urllib.robotparser answers for each, one JSON object
per file:

  {"id": ..., "body": base64, "raised": bool, "sitemaps": [...] | null,
   "checks": [[agent, url, true | false | "error"], ...],
   "delays": [[agent, float | null | "inf"], ...],
   "rates": [[agent, [requests, seconds] | null], ...]}

The body is decoded as RobotFileParser.read() does, but with
errors="replace" (read() would raise on invalid UTF-8), then split with
str.splitlines() and given to parse(); a ValueError from parse() is caught
and the parser used as it was left, as a study that catches it would.

    python3 urllib_reference.py --seed 1 --files 3000
"""
import argparse
import base64
import json
import random
import urllib.robotparser

KEYS = ["User-agent", "user-agent", "USER-AGENT", "User-Agent ", " user-agent",
        "useragent", "User agent", "Disallow", "disallow", "DISALLOW",
        "Disallow ", "Allow", "allow", "Disalow", "Crawl-delay",
        "crawl-delay", "Request-rate", "request-rate", "Sitemap", "sitemap",
        "Host", "Noindex", "\u0130ser-agent", "Disallo\u0077"]
SEPARATORS = [":", ": ", " : ", "\t:\t", ":\u00a0", " ", ""]
AGENTS = ["*", "* ", "*%20", "GPTBot", "gptbot", "Googlebot", "googlebot/2.1",
          "Googlebot-Image", "bot", "oBot", "o", "", "Mozilla/5.0", "Bing",
          "bingbot", "MJ12bot", "%47PTBot", "G%50TBot", "ClaudeBot",
          "\u212aelvin", "\u0130bot", "\u0412\u041e\u0422", "robotscan",
          "RobotscanGeneric", "a b", "*bot", "google", "%2A", "Googlebot ",
          "\u3000GPTBot"]
PATHS = ["/", "", "/a", "/a/", "/a/b", "/A", "/%61", "/%7e", "/%7E", "/~x",
         "/a b", "/a%20b", "/a?b", "/a?", "/a;b", "/a;", "/a;b/c", "/a/b;c",
         "/a%23b", "/*", "*", "/a*b", "/a$", "/%2A", "/%2F", "/a%2Fb",
         "/\u00fc", "/%C3%BC", "/%c3%bc", "/%C3", "/%FF", "/%", "/%zz", "/%4",
         "//x", "//", "//x/a", "http://h/a", "HTTP://h/a", "http:/a",
         "mailto:x", "a:b", "a", "//[::1]/a", "//[x/a", "//]a", "//[v1.x]/a",
         "//[v1.]/a", "//[1.2.3.4]/a", "//[::ffff:1.2.3.4]/a", "//[fe80::1%25z]/",
         "//[1:2:3:4:5:6:7:8]/", "//[1::2::3]/", "//h\uff0fx/a", "//h\u00fc/a",
         "/\t/a", "/a%09b", "/a%0Ab", "/robots.txt", "/a\u00a0", "\u3000/a",
         "/a%3Fb", "/a?b=c&d", "/%E2%80%A8", "ftp://h/a;type=a", "tel:1;x",
         "/a%00", "/.", "/a/../b", "/a#"]
DELAYS = ["1", "10", " 5", "1.5", "-1", "abc", "", "\u00b2", "\u0663", "1\u00b2",
          "%31", "1" * 4301, "1" * 4300, "1" * 20, "0", "007", "1 2",
          "\u0661\u0660"]
RATES = ["1/5", "1/5s", "3/60", "a/b", "1/\u00b2", "\u0663/5", "1/2/3", "/5",
         "1/", " 2 / 7 ", "%31/2"]
SITEMAPS = ["https://x/s.xml", "/s.xml", "%68ttp://x", "", "http://x/%C3%BC"]
COMMENTS = ["# c", "#", " # x", "#Disallow: /", "\t#"]
BLANKS = ["", " ", "\t", "# only a comment", "\u00a0"]
ENDINGS = ["\n"] * 12 + ["\r\n"] * 4 + ["\r", "\x0b", "\x0c", "\x1c", "\x85",
                                        "\u2028"]
INVALID = [b"\xff", b"\xc3", b"\xe0\x80", b"\xed\xa0\x80", b"\xf0\x90\x80",
           b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\x80"]
CALLERS = ["GPTBot", "Googlebot", "googlebot-image", "RobotscanGenericCrawler",
           "bingbot", "Mozilla/5.0 (compatible; bingbot/2.0)", "MJ12bot", "o",
           "ClaudeBot", "Kelvin"]
URLS = ["/", "/a", "/a/", "/a/b", "/A", "/a?b", "/a;b", "/a#b", "/a%23b",
        "http://example.com/a", "https://example.com", "https://example.com?x",
        "//example.com/a", "/%61", "/~x", "/%7Ex", "/a b", "/\u00fc",
        "/%C3%BC", "/%C3", "/%FF", "*x", "a", "", "//[::1]/a", "http://[x/",
        "http://[v1.a]/b", "http://[1.2.3.4]/", "/robots.txt",
        "http://h/a%2Fb", "/a\tb", "/a%09b", "HTTP://H/A", "http://h\uff0f/a",
        "/a/../b", "?q", ";p", "#f", "/a;b/c", "mailto:a@b", "http:/a",
        "http://u@h:80/a?b#c", "/%2A", "/a*b", "/a$"]


def random_line(rng):
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(BLANKS)
    if roll < 0.12:
        return rng.choice(COMMENTS)
    key = rng.choice(KEYS)
    lower = key.strip().lower()
    if "agent" in lower:
        value = rng.choice(AGENTS)
    elif lower.startswith("crawl"):
        value = rng.choice(DELAYS)
    elif lower.startswith("request"):
        value = rng.choice(RATES)
    elif lower.startswith("sitemap"):
        value = rng.choice(SITEMAPS)
    else:
        value = rng.choice(PATHS)
        if rng.random() < 0.2:
            value += rng.choice(PATHS).lstrip("/")
    line = key + rng.choice(SEPARATORS) + value
    if rng.random() < 0.1:
        line += " " + rng.choice(COMMENTS)
    return line


def random_group(rng):
    """A well-formed group, so that most files say something."""
    lines = ["User-agent: " + rng.choice(AGENTS[:12])
             for _ in range(rng.randint(1, 2))]
    for _ in range(rng.randint(1, 4)):
        lines.append(rng.choice(["Disallow: ", "Allow: "]) +
                     rng.choice(PATHS[:30]))
    return lines


def random_body(rng):
    parts = []
    if rng.random() < 0.1:
        parts.append(b"\xef\xbb\xbf")
    lines = []
    wanted = rng.randint(0, 18)
    while len(lines) < wanted:
        if rng.random() < 0.3:
            lines.extend(random_group(rng))
        else:
            lines.append(random_line(rng))
    for line in lines:
        line = line.encode("utf-8")
        if rng.random() < 0.04:
            at = rng.randint(0, len(line))
            line = line[:at] + rng.choice(INVALID) + line[at:]
        parts.append(line + rng.choice(ENDINGS).encode("utf-8"))
    if parts and rng.random() < 0.2:
        parts[-1] = parts[-1].rstrip(b"\n")
    return b"".join(parts)


# Files written by hand: what the issue names, and each quirk alone.
FIXED = [
    b"User-agent: oBot\nDisallow: /\n",
    b"\xef\xbb\xbfUser-agent: *\nDisallow: /\n",
    b"User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n",
    b"User-agent: GPTBot\n\nDisallow: /\n",
    b"User-agent: *\nDisallow: /\nAllow: /a\n",
    b"User-agent: *\nDisallow:\nDisallow: /\n",
    b"User-agent: MJ12bot\nDisallow: /\n",
    b"User-agent: *\nDisallow: //[x\nUser-agent: GPTBot\nDisallow: /\n",
    b"User-agent: *\nCrawl-delay: \xc2\xb2\nDisallow: /\n",
    b"User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\n",
    b"User-agent: *\nUser-agent: GPTBot\nDisallow: /x\n",
    b"User-agent:\nDisallow: /\n",
    b"Disallow: /\nUser-agent: *\nDisallow: /a\n",
    b"User-agent: *\r\nDisallow: /a\r\n",
    b"User-agent: *\x85Disallow: /a\n",
]


def reference(body, callers, urls):
    parser = urllib.robotparser.RobotFileParser()
    raised = None
    try:
        parser.parse(body.decode("utf-8", "replace").splitlines())
    except ValueError as error:
        raised = str(error)
    checks = []
    for agent in callers:
        for url in urls:
            try:
                answer = parser.can_fetch(agent, url)
            except ValueError:
                answer = "error"
            checks.append([agent, url, answer])
    delays, rates = [], []
    for agent in callers:
        delay = parser.crawl_delay(agent)
        if delay is not None:
            try:
                delay = float(delay)
            except OverflowError:
                delay = "inf"
        delays.append([agent, delay])
        rate = parser.request_rate(agent)
        if rate is not None:
            rate = [float(rate.requests), float(rate.seconds)]
        rates.append([agent, rate])
    return {"raised": raised is not None, "sitemaps": parser.site_maps(),
            "checks": checks, "delays": delays, "rates": rates}


def main():
    options = argparse.ArgumentParser()
    options.add_argument("--seed", type=int, default=1)
    options.add_argument("--files", type=int, default=3000)
    args = options.parse_args()
    rng = random.Random(args.seed)
    bodies = list(FIXED)
    while len(bodies) < args.files:
        bodies.append(random_body(rng))
    for number, body in enumerate(bodies[:args.files]):
        urls = rng.sample(URLS, 6) + ["/" + rng.choice(PATHS).lstrip("/")
                                      for _ in range(6)]
        callers = rng.sample(CALLERS, 4)
        record = {"id": number, "body": base64.b64encode(body).decode()}
        record.update(reference(body, callers, urls))
        print(json.dumps(record))


if __name__ == "__main__":
    main()
