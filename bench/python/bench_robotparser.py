#!/usr/bin/env python3
"""Whole-program benchmark of the robotscan Python package against urllib.robotparser.

The same work in one run, on the realistic 54 KB robots.txt (bench/data) and
100,000 URLs from bench/robots/make_urls.py (deterministic):

1. per call: RobotFileParser.can_fetch, robotscan.robotparser vs
   urllib.robotparser, one Python call per URL (target >= 20x);
2. batched: one RobotsTxt.check_many call vs a Python loop over
   urllib.robotparser.can_fetch (target >= 200x);
3. threads: check_many from 1 thread vs from 4 threads at once, total URLs
   checked per second (target >= 1.8x on 2 cores; check_many releases the GIL).

Each measurement is the best of --repeat rounds (interleaved: every round
times every contender). The load average is printed before and after, since
the machine may be shared.

usage: PYTHONPATH=build/ci/python /usr/bin/python3 bench/python/bench_robotparser.py
           [--urls N] [--repeat R] [--agent A] [--compat rfc|google] [--cpu N]
"""

import argparse
import os
import pathlib
import random
import subprocess
import sys
import threading
import time
import urllib.robotparser

import robotscan
from robotscan import robotparser

REPO = pathlib.Path(__file__).resolve().parents[2]
ROBOTS = REPO / "bench" / "data" / "realistic-50k.txt"
MAKE_URLS = REPO / "bench" / "robots" / "make_urls.py"


def best_of(rounds):
    return min(rounds)


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def threads_throughput(robots, agent, urls, threads, calls_per_thread, compat_numpy):
    barrier = threading.Barrier(threads + 1)

    def work():
        barrier.wait()
        for _ in range(calls_per_thread):
            robots.check_many(agent, urls, as_numpy=compat_numpy)

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for thread in pool:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in pool:
        thread.join()
    seconds = time.perf_counter() - start
    return threads * calls_per_thread * len(urls) / seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--agent", default="Googlebot")
    parser.add_argument("--compat", default="rfc", choices=["rfc", "google"])
    parser.add_argument("--thread-calls", type=int, default=4, help="check_many calls per thread")
    parser.add_argument("--part", choices=["all", "calls", "threads"], default="all",
                        help="calls: parts 1-2 only; threads: part 3 only")
    parser.add_argument("--cpu", type=int, default=None,
                        help="run parts 1-2 on this CPU only (steadier on a VM whose process "
                             "migrations cost caches); part 3 runs on every CPU")
    args = parser.parse_args()

    body = ROBOTS.read_bytes()
    urls = subprocess.run(
        [sys.executable, str(MAKE_URLS), str(ROBOTS), str(args.urls)], capture_output=True, text=True, check=True
    ).stdout.split()
    lines = body.decode("utf-8", "replace").splitlines()
    peer = urllib.robotparser.RobotFileParser()
    peer.parse(lines)
    ours = robotparser.RobotFileParser(compat=args.compat)
    ours.parse(lines)
    robots = robotscan.RobotsTxt.parse(body, args.compat)
    agent = args.agent

    print(f"robots.txt: {ROBOTS.relative_to(REPO)} ({len(body)} bytes), {len(urls)} URLs, agent {agent}, "
          f"compat {args.compat}")
    print(f"python {sys.version.split()[0]} ({sys.executable}), robotscan {robotscan.__version__}, "
          f"{os.cpu_count()} CPUs")
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())

    if args.part != "threads":
        every_cpu = os.sched_getaffinity(0)
        if args.cpu is not None:
            os.sched_setaffinity(0, {args.cpu})
            print(f"parts 1-2 pinned to CPU {args.cpu}")
        measure_calls(args, urls, peer, ours, robots, agent)
        os.sched_setaffinity(0, every_cpu)
    if args.part != "calls":
        measure_threads(args, urls, robots, agent)
    print("load average after:  %.2f %.2f %.2f" % os.getloadavg())


def measure_calls(args, urls, peer, ours, robots, agent):
    peer_rounds, ours_rounds, batch_rounds, batch_list_rounds, shuffled_rounds = [], [], [], [], []
    # The same URLs in another order: their str objects are then read out of
    # the order they were allocated in, as a frontier built up over time is.
    shuffled = list(urls)
    random.Random(0).shuffle(shuffled)
    for _ in range(args.repeat):
        seconds, peer_verdicts = timed(lambda: [peer.can_fetch(agent, u) for u in urls])
        peer_rounds.append(seconds)
        seconds, our_verdicts = timed(lambda: [ours.can_fetch(agent, u) for u in urls])
        ours_rounds.append(seconds)
        seconds, batch = timed(lambda: robots.check_many(agent, urls))
        batch_rounds.append(seconds)
        seconds, batch_list = timed(lambda: robots.check_many(agent, urls, as_numpy=False))
        batch_list_rounds.append(seconds)
        seconds, _ = timed(lambda: robots.check_many(agent, shuffled))
        shuffled_rounds.append(seconds)
    assert list(batch) == our_verdicts == batch_list

    n = len(urls)
    peer_s, ours_s, batch_s, batch_list_s = (best_of(r) for r in (peer_rounds, ours_rounds, batch_rounds,
                                                                  batch_list_rounds))
    per_call = peer_s / ours_s
    batched = peer_s / batch_s
    print(f"per call  urllib.robotparser.can_fetch        {peer_s / n * 1e6:9.2f} us/URL")
    print(f"per call  robotscan.robotparser.can_fetch     {ours_s / n * 1e6:9.2f} us/URL   "
          f"ratio {per_call:6.1f}x (target >= 20x)")
    print(f"batched   RobotsTxt.check_many (NumPy array)  {batch_s / n * 1e6:9.3f} us/URL   "
          f"ratio {batched:6.1f}x (target >= 200x)")
    print(f"batched   RobotsTxt.check_many (list)         {batch_list_s / n * 1e6:9.3f} us/URL   "
          f"ratio {peer_s / batch_list_s:6.1f}x")
    shuffled_s = best_of(shuffled_rounds)
    print(f"batched   RobotsTxt.check_many (NumPy, shuffled) {shuffled_s / n * 1e6:6.3f} us/URL   "
          f"ratio {peer_s / shuffled_s:6.1f}x")
    agree = sum(a == b for a, b in zip(peer_verdicts, our_verdicts))
    print(f"verdicts agree on {agree}/{n} URLs (urllib.robotparser: first match, no wildcards)")



def measure_threads(args, urls, robots, agent):
    robots.check_many(agent, urls)  # warm: the matcher builds some indexes on first use
    one, four = [], []
    for _ in range(args.repeat):
        one.append(threads_throughput(robots, agent, urls, 1, args.thread_calls, True))
        four.append(threads_throughput(robots, agent, urls, 4, args.thread_calls, True))
    print(f"threads   check_many, 1 thread   {max(one) / 1e6:7.2f} M URLs/s")
    print(f"threads   check_many, 4 threads  {max(four) / 1e6:7.2f} M URLs/s   "
          f"scaling {max(four) / max(one):4.2f}x (target >= 1.8x on 2 cores)")


if __name__ == "__main__":
    main()
