"""Threads: one RobotsTxt shared by 8 threads, and the GIL released where promised."""

import random
import sys
import threading
import time

import pytest

from robotscan import RobotsTxt, regexguard, robotparser

AGENTS = ["Googlebot", "bingbot", "Slurp", "SomeBot", "Applebot"]


def make_urls(body: bytes, count: int, seed: int):
    prefixes = [line.split(b":", 1)[1].strip().split(b"*")[0].decode("utf-8", "replace")
                for line in body.splitlines() if line.lower().startswith((b"disallow:", b"allow:"))]
    prefixes = [p for p in prefixes if p.startswith("/")]
    rng = random.Random(seed)
    return [rng.choice(prefixes) + rng.choice(["", "x", "/1", "?q=2", ".pdf"]) for _ in range(count)]


def run_threads(count, target):
    errors = []
    barrier = threading.Barrier(count)

    def wrapped(index):
        try:
            barrier.wait()
            target(index)
        except BaseException as error:  # reported below, with the thread's index
            errors.append((index, repr(error)))

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_eight_threads_share_one_robots_txt(realistic_body):
    robots = RobotsTxt.parse(realistic_body)
    urls = make_urls(realistic_body, 20_000, seed=3)
    expected = {agent: robots.check_many(agent, urls, as_numpy=False) for agent in AGENTS}
    assert all(0 < sum(v) < len(v) for v in expected.values())
    sample = urls[:300]
    expected_detail = {agent: [robots.check(agent, u) for u in sample] for agent in AGENTS}
    results = {}

    def work(index):
        agent = AGENTS[index % len(AGENTS)]
        for _ in range(5):  # batched, GIL released: the threads really overlap
            assert robots.check_many(agent, urls, as_numpy=False) == expected[agent]
        assert [robots.check(agent, u) for u in sample] == expected_detail[agent]
        assert robots.crawl_delay(agent) == robots.crawl_delay(agent)
        results[index] = True

    run_threads(8, work)
    assert len(results) == 8


def test_eight_threads_share_one_drop_in_parser(realistic_body):
    parser = robotparser.RobotFileParser()
    parser.parse(realistic_body.splitlines())
    urls = make_urls(realistic_body, 3000, seed=4)
    expected = [parser.can_fetch("Googlebot", u) for u in urls]

    def work(index):
        assert [parser.can_fetch("Googlebot", u) for u in urls] == expected

    run_threads(8, work)


def progress_while(call):
    """How often the main thread ran while `call` ran in another thread.

    The switch interval is raised to 5 s for the measurement, so the thread
    running `call` keeps the GIL unless it releases it itself: if the native
    part of `call` held the GIL, the main thread could not run until `call`
    returned (the count stays 0 or 1); if it releases the GIL, the main thread
    runs throughout (time.sleep(0) hands the GIL back each round).
    """
    started = threading.Event()
    done = threading.Event()

    def run():
        started.set()
        call()
        done.set()

    previous = sys.getswitchinterval()
    sys.setswitchinterval(5.0)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        started.wait()
        spins = 0
        while not done.is_set():
            spins += 1
            time.sleep(0)
        thread.join()
    finally:
        sys.setswitchinterval(previous)
    return spins


def test_the_gil_probe_sees_a_call_that_holds_the_gil():
    data = [random.random() for _ in range(300_000)]
    assert progress_while(lambda: sorted(data)) <= 2  # sorted() keeps the GIL


def test_check_many_releases_the_gil(realistic_body):
    robots = RobotsTxt.parse(realistic_body)
    urls = make_urls(realistic_body, 400_000, seed=5)  # about 0.1-0.3 s of native work
    spins = progress_while(lambda: robots.check_many("Googlebot", urls))
    assert spins > 50


def test_regexguard_analysis_releases_the_gil():
    # Runs into its time budget (0.3 s): one long native call.
    spins = progress_while(lambda: regexguard.analyze(r"(.*a){12}", timeout=0.3))
    assert spins > 50


@pytest.mark.parametrize("agent", ["Googlebot", "*"])
def test_parse_in_threads_gives_equal_results(realistic_body, agent):
    urls = make_urls(realistic_body, 2000, seed=6)
    reference = RobotsTxt.parse(realistic_body).check_many(agent, urls, as_numpy=False)

    def work(index):
        assert RobotsTxt.parse(realistic_body).check_many(agent, urls, as_numpy=False) == reference

    run_threads(8, work)


def test_check_many_survives_a_list_emptied_while_it_runs(realistic_body):
    """Another thread empties and refills the list during the GIL-free parts: the URLs it
    frees are ones check_many may hold references to (never read after they are freed), and
    a list shortened meanwhile ends the answer where it ends, as a loop over it would."""
    robots = RobotsTxt.parse(realistic_body)
    template = make_urls(realistic_body, 50_000, seed=8)
    expected = robots.check_many("Googlebot", template, as_numpy=False)
    # Fresh str objects (equal to the template's), freed when the list lets go of them.
    fresh = lambda: [(u + "#")[:-1] for u in template]  # noqa: E731
    urls = fresh()
    stop = threading.Event()
    mutations = 0

    def mutate():
        nonlocal mutations
        while not stop.is_set():
            urls.clear()
            urls.extend(fresh())
            mutations += 1
            time.sleep(0)

    thread = threading.Thread(target=mutate)
    thread.start()
    try:
        answers = []
        for _ in range(20):
            answer = robots.check_many("Googlebot", urls, as_numpy=False)
            answers.append(answer)
    finally:
        stop.set()
        thread.join()
    assert mutations > 0
    # Each call saw the list whole, or empty, or part-way refilled (in the template's
    # order): every answer is the right one for the URL it read.
    for answer in answers:
        assert answer == expected[: len(answer)]


def test_check_many_answers_a_list_shortened_while_it_runs(realistic_body):
    """Another thread cuts the list short once check_many has read its length: the answer
    ends where the list then ends, and every URL it covers is answered, not left False."""
    robots = RobotsTxt.parse(realistic_body)
    template = make_urls(realistic_body, 50_000, seed=9)
    expected = robots.check_many("Googlebot", template, as_numpy=False)
    assert any(expected[:6000]) and not all(expected[:6000])
    shortened = 0
    for _ in range(20):
        urls = list(template)
        go = threading.Event()

        def cut(urls=urls, go=go):
            go.wait()
            del urls[6000:]  # Inside the first stretch of 4,096 URLs or after it.

        thread = threading.Thread(target=cut)
        thread.start()
        go.set()
        answer = robots.check_many("Googlebot", urls, as_numpy=False)
        thread.join()
        assert answer == expected[: len(answer)]
        shortened += len(answer) < len(template)
    assert shortened > 0
