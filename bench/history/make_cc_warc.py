#!/usr/bin/env python3
"""Writes a synthetic Common Crawl-like robots.txt WARC for the import
benchmark (bench/RESULTS.md, "issue 28"): per capture a request, a response
and a metadata record, each its own gzip member (level 6, no timestamp: the
same bytes on every run), as Common Crawl writes them; robots.txt bodies of 100 B to 16 KB (log-uniform), decoded
with X-Crawler-Content-Length as Common Crawl keeps them.

  make_cc_warc.py OUT.warc.gz CAPTURES [--distinct FRACTION]

--distinct 1 (default): every body differs (the worst case for the body
table). --distinct 0.1: one capture in ten brings a new body, the others
repeat one of 97 earlier ones (popular robots.txt files recur).
"""
import argparse
import gzip
import random


def record(fields, block):
    head = "WARC/1.0\r\n" + "".join("%s: %s\r\n" % kv for kv in fields)
    head += "Content-Length: %d\r\n\r\n" % len(block)
    return head.encode() + block + b"\r\n\r\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("captures", type=int)
    parser.add_argument("--distinct", type=float, default=1.0)
    args = parser.parse_args()
    rng = random.Random(1)
    words = ["Disallow", "Allow", "User-agent", "Crawl-delay", "Sitemap"]
    pool = []
    every = max(1, round(1 / args.distinct)) if args.distinct > 0 else 0
    with open(args.out, "wb") as f:
        for i in range(args.captures):
            host = "site%d.example" % i
            uri = "https://%s/robots.txt" % host
            date = "2024-02-%02dT%02d:%02d:%02dZ" % (20 + i % 5, i % 24,
                                                     i % 60, (i * 7) % 60)
            size = int(10 ** rng.uniform(2, 4.2))
            lines, total = [], 0
            while total < size:
                line = "%s: /%x/%x\n" % (rng.choice(words),
                                        rng.getrandbits(24), i)
                lines.append(line)
                total += len(line)
            body = "".join(lines).encode()
            if every and i % every and pool:
                body = pool[i % len(pool)]
            elif len(pool) < 97:
                pool.append(body)
            request = (b"GET /robots.txt HTTP/1.1\r\nHost: %s\r\n"
                       b"User-Agent: CCBot/2.0\r\n\r\n" % host.encode())
            response = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                        b"X-Crawler-Content-Length: %d\r\nContent-Length: %d"
                        b"\r\nDate: Tue, 20 Feb 2024 10:00:00 GMT\r\n\r\n"
                        % (len(body), len(body))) + body
            common = [("WARC-Target-URI", uri), ("WARC-Date", date),
                      ("WARC-Record-ID",
                       "<urn:uuid:%032x>" % rng.getrandbits(128))]
            f.write(gzip.compress(mtime=0, compresslevel=6, data=record(
                [("WARC-Type", "request")] + common +
                [("Content-Type", "application/http; msgtype=request")],
                request)))
            f.write(gzip.compress(mtime=0, compresslevel=6, data=record(
                [("WARC-Type", "response")] + common +
                [("Content-Type", "application/http; msgtype=response"),
                 ("WARC-IP-Address", "192.0.2.%d" % (i % 250))],
                response)))
            f.write(gzip.compress(mtime=0, compresslevel=6, data=record(
                [("WARC-Type", "metadata")] + common +
                [("Content-Type", "application/warc-fields")],
                b"fetchTimeMs: 123\r\n")))


if __name__ == "__main__":
    main()
