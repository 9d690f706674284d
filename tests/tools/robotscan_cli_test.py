#!/usr/bin/env python3
"""End-to-end tests of `robotscan check` and `robotscan lint` (the built
binary): output line formats, exit codes, stdin, JSON, and bad input.

usage: robotscan_cli_test.py ROBOTSCAN
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROBOTSCAN = None
# Whether ROBOTSCAN is an AddressSanitizer build (set in __main__).
SANITIZED = False

ROBOTS = b"""User-agent: *
Disallow: /private
Allow: /private/ok
Disalow: /typo
"""


def run(*args, stdin=b""):
    proc = subprocess.run([ROBOTSCAN, *args], input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=30)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), \
        proc.stderr.decode("utf-8", "replace")


class CheckTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.robots = os.path.join(self.tmp.name, "robots.txt")
        with open(self.robots, "wb") as f:
            f.write(ROBOTS)

    def tearDown(self):
        self.tmp.cleanup()

    def test_lines_start_with_verdict_tab_url(self):
        rc, out, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot",
                         "https://e.com/private/x", "https://e.com/private/ok/1", "/open")
        self.assertEqual(rc, 1)
        self.assertEqual(out.splitlines(), [
            "disallowed\thttps://e.com/private/x\t2\tdisallow: /private",
            "allowed\thttps://e.com/private/ok/1\t3\tallow: /private/ok",
            "allowed\t/open\t0\tno-matching-rule",
        ])

    def test_all_allowed_exits_zero(self):
        rc, out, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot", "/a")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("allowed\t/a\t"))

    def test_urls_file_from_stdin_skips_blank_lines(self):
        rc, out, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot",
                         "--urls-file", "-", stdin=b"/a\r\n\n/private/b\n")
        self.assertEqual(rc, 1)
        self.assertEqual([l.split("\t")[:2] for l in out.splitlines()],
                         [["allowed", "/a"], ["disallowed", "/private/b"]])

    def test_json_has_one_object_per_url(self):
        rc, out, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot",
                         "--json", "/private/x", "/y")
        self.assertEqual(rc, 1)
        objects = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(len(objects), 2)
        self.assertEqual(objects[0]["allowed"], False)
        self.assertEqual(objects[0]["line"], 2)
        self.assertEqual(objects[0]["rule"], {"kind": "disallow", "pattern": "/private"})
        self.assertEqual(objects[1]["decision"], "no-matching-rule")
        self.assertIsNone(objects[1]["rule"])

    def test_json_names_preferences_crawl_delay_and_sitemaps(self):
        """Issue 29's contract: content_usage (label -> "y"/"n"), content_signal
        (key -> "yes"/"no"), license (a string), crawl_delay (seconds) and
        sitemaps (URL strings); null when a field has nothing to say, and no
        preferences for a URL the agent may not crawl."""
        body = os.path.join(self.tmp.name, "preferences.txt")
        with open(body, "wb") as f:
            f.write(b"User-agent: *\n"
                    b"Content-Usage: train-ai=n, search=y\n"
                    b"Content-Signal: search=yes, ai-train=no\n"
                    b"Crawl-delay: 2.5\n"
                    b"Disallow: /private\n"
                    b"\n"
                    b"User-agent: OtherBot\n"
                    b"Content-Usage: /docs/ train-ai=y\n"
                    b"Disallow: /x\n"
                    b"License: https://example.com/license.xml\n"
                    b"Sitemap: https://example.com/a.xml\n"
                    b"Sitemap: https://example.com/b.xml\n")
        rc, out, _ = run("check", "--robots-file", body, "--user-agent", "GPTBot",
                         "--json", "/article", "/private/x")
        self.assertEqual(rc, 1)
        allowed, disallowed = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(allowed["content_usage"], {"train-ai": "n", "search": "y"})
        self.assertEqual(allowed["content_signal"], {"search": "yes", "ai-train": "no"})
        self.assertEqual(allowed["license"], "https://example.com/license.xml")
        self.assertEqual(allowed["crawl_delay"], 2.5)
        self.assertEqual(allowed["sitemaps"], ["https://example.com/a.xml",
                                               "https://example.com/b.xml"])
        self.assertFalse(disallowed["allowed"])
        self.assertIsNone(disallowed["content_usage"])
        self.assertIsNone(disallowed["content_signal"])
        self.assertEqual(disallowed["crawl_delay"], 2.5)
        # Another agent's group: its own path-scoped line, no signal, no delay.
        rc, out, _ = run("check", "--robots-file", body, "--user-agent", "OtherBot",
                         "--json", "/docs/a", "/elsewhere")
        docs, elsewhere = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(docs["content_usage"], {"train-ai": "y"})
        self.assertIsNone(elsewhere["content_usage"])
        self.assertIsNone(docs["content_signal"])
        self.assertIsNone(docs["crawl_delay"])
        # A file without any of them: every field null.
        rc, out, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot",
                         "--json", "/a")
        plain = json.loads(out)
        for field in ("content_usage", "content_signal", "license", "crawl_delay",
                      "sitemaps"):
            self.assertIn(field, plain)
            self.assertIsNone(plain[field], field)

    def test_bad_url_is_an_input_error_for_that_url_only(self):
        rc, out, err = run("check", "--robots-file", self.robots, "--user-agent", "Bot",
                           "/ok", "/has space", "/private/z")
        self.assertEqual(rc, 2)
        self.assertEqual(len(out.splitlines()), 2)
        self.assertIn("cannot check URL '/has space'", err)

    def test_usage_errors_exit_two_with_a_message(self):
        rc, _, err = run("check", "--user-agent", "Bot", "/a")
        self.assertEqual(rc, 2)
        self.assertIn("--robots-file", err)
        rc, _, err = run("check", "--robots-file", "/nonexistent/robots.txt",
                         "--user-agent", "Bot", "/a")
        self.assertEqual(rc, 2)
        self.assertIn("cannot open '/nonexistent/robots.txt'", err)
        rc, _, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot",
                       "--compat", "bing", "/a")
        self.assertEqual(rc, 2)
        rc, _, err = run("check", "--robots-file", self.robots, "--user-agent", "Bot")
        self.assertEqual(rc, 2)
        self.assertIn("no URL", err)

    def test_binary_robots_file_is_not_a_crash(self):
        with open(self.robots, "wb") as f:
            f.write(bytes(range(256)) * 2000)
        rc, out, _ = run("check", "--robots-file", self.robots, "--user-agent", "Bot", "/a")
        self.assertIn(rc, (0, 1))
        self.assertTrue(out.startswith(("allowed\t", "disallowed\t")))

    def test_compat_urllib_answers_as_cpython(self):
        # The built command against the real urllib.robotparser on generated
        # files (the library's differential test covers thousands; this
        # covers the command's wiring: flag, URL list, exit status, errors).
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "robots"))
        import random
        import urllib.robotparser
        import urllib_reference
        rng = random.Random(5)
        urls = [u for u in urllib_reference.URLS if u and "\t" not in u]
        checked = disallowed = errors = 0
        for number in range(60):
            body = (urllib_reference.FIXED[number]
                    if number < len(urllib_reference.FIXED)
                    else urllib_reference.random_body(rng))
            with open(self.robots, "wb") as f:
                f.write(body)
            agent = rng.choice(urllib_reference.CALLERS)
            parser = urllib.robotparser.RobotFileParser()
            try:
                parser.parse(body.decode("utf-8", "replace").splitlines())
            except ValueError:
                pass
            expected = []
            for url in urls:
                try:
                    expected.append("allowed" if parser.can_fetch(agent, url)
                                    else "disallowed")
                except ValueError:
                    expected.append("error")
            rc, out, err = run("check", "--compat", "urllib", "--robots-file",
                               self.robots, "--user-agent", agent, "--json",
                               "--urls-file", "-",
                               stdin="\n".join(urls).encode("utf-8") + b"\n")
            answers = []
            for line in out.splitlines():
                record = json.loads(line)
                answers.append("error" if "error" in record else
                               "allowed" if record["allowed"] else "disallowed")
            self.assertEqual(answers, expected, (body, agent))
            want_rc = 2 if "error" in expected else 1 if "disallowed" in expected else 0
            self.assertEqual(rc, want_rc, (body, agent, err))
            checked += len(expected)
            disallowed += expected.count("disallowed")
            errors += expected.count("error")
        self.assertGreater(disallowed, 20)
        self.assertGreater(errors, 20)

    def test_compat_urllib_reports_where_cpython_raises(self):
        with open(self.robots, "wb") as f:
            f.write(b"User-agent: *\nDisallow: /a\nDisallow: //[x\nDisallow: /\n")
        rc, out, err = run("check", "--compat", "urllib", "--robots-file",
                           self.robots, "--user-agent", "Bot", "/b", "/a b",
                           "http://[x/")
        self.assertEqual(rc, 2)
        self.assertIn("raises ValueError at line 3", err)
        self.assertIn("cannot check URL 'http://[x/'", err)
        # The group being read when parse() raised is lost with it.
        self.assertEqual(out.splitlines(), ["allowed\t/b\t0\tno-group",
                                            "allowed\t/a b\t0\tno-group"])

    def test_help_and_version(self):
        for args in (["--help"], ["check", "--help"], ["lint", "--help"]):
            rc, out, _ = run(*args)
            self.assertEqual(rc, 0, args)
            self.assertIn("Usage", out)
        rc, out, _ = run("--version")
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"^robotscan \d+\.\d+\.\d+")


class LintTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, data):
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_compiler_style_lines_and_exit_status(self):
        warn = self.write("warn.txt", ROBOTS)
        rc, out, _ = run("lint", warn)
        self.assertEqual(rc, 0)  # Warnings only.
        self.assertEqual(out.splitlines(), [
            f"{warn}:4: warning: key 'Disalow' is a misspelling of 'disallow'; "
            "Google accepts it, other crawlers may not [typo]"])
        bad = self.write("bad.txt", b"Disallow: /\nUser-agent: *\nSitemap: /s.xml\n")
        rc, out, _ = run("lint", warn, bad)
        self.assertEqual(rc, 1)
        self.assertIn(f"{bad}:1: error: disallow before any user-agent line is ignored "
                      "[rule-outside-group]", out.splitlines())
        self.assertTrue(any(l.startswith(f"{bad}:3: error: ") for l in out.splitlines()))

    def test_json(self):
        bad = self.write("bad.txt", b"<html><body>404</body></html>\n")
        rc, out, _ = run("lint", "--json", bad)
        self.assertEqual(rc, 1)
        objects = [json.loads(l) for l in out.splitlines()]
        self.assertIn({"file": bad, "line": 0, "severity": "error", "code": "html-body",
                       "message": "body looks like an HTML page, not a robots.txt (a soft 404?)"},
                      objects)

    def test_unreadable_file(self):
        rc, _, err = run("lint", os.path.join(self.tmp.name, "missing.txt"))
        self.assertEqual(rc, 2)
        self.assertIn("cannot open", err)

class MaxBytesTest(unittest.TestCase):
    """check/lint --max-bytes N: the parse limit; 0 reads everything. The
    default is 512000 bytes in both --compat modes (README, "RFC 9309 vs
    Google")."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.big = os.path.join(self.tmp.name, "big.txt")
        # 624,030 bytes; the last line (48,002) is past 512,000.
        with open(self.big, "wb") as f:
            f.write(b"User-agent: *\n" + b"Allow: /keep\n" * 48000 +
                    b"Disallow: /late\n")

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, *extra):
        return run("check", "--robots-file", self.big, "--user-agent", "Bot",
                   *extra, "/late")

    def test_default_cuts_in_both_modes(self):
        for compat in ("rfc", "google"):
            rc, out, err = self.check("--compat", compat)
            self.assertEqual((rc, out), (0, "allowed\t/late\t0\tno-matching-rule\n"),
                             compat)
            self.assertIn("112037 bytes past the parse limit", err)

    def test_zero_reads_everything(self):
        for compat in ("rfc", "google"):
            rc, out, err = self.check("--compat", compat, "--max-bytes", "0")
            self.assertEqual((rc, out, err),
                             (1, "disallowed\t/late\t48002\tdisallow: /late\n", ""),
                             compat)

    def test_a_larger_limit_reads_more_and_a_smaller_one_is_raised(self):
        rc, out, _ = self.check("--max-bytes", "700000")
        self.assertEqual(rc, 1)
        self.assertTrue(out.startswith("disallowed\t/late\t48002\t"))
        # Below the RFC 9309 minimum: raised to 512000, so /late stays cut
        # and /keep (line 2) still decides.
        rc, out, _ = run("check", "--robots-file", self.big, "--user-agent", "Bot",
                         "--max-bytes", "10", "/keep", "/late")
        self.assertEqual(rc, 0)
        self.assertEqual([l.split("\t")[2] for l in out.splitlines()], ["2", "0"])

    def test_lint_limit(self):
        rc, out, _ = run("lint", self.big)
        self.assertEqual(rc, 1)
        self.assertIn(":0: error: file is 624030 bytes; the 112037 bytes past "
                      "the parse limit of 512000 bytes are ignored", out)
        self.assertIn("[size-limit]", out)
        rc, out, _ = run("lint", "--max-bytes", "0", self.big)
        self.assertEqual((rc, out), (0, ""))
        rc, out, _ = run("lint", "--max-bytes", "600000", self.big)
        self.assertEqual(rc, 1)
        self.assertIn("parse limit of 600000 bytes", out)

    def test_urllib_mode_reads_everything_and_refuses_a_limit(self):
        rc, out, _ = self.check("--compat", "urllib")
        self.assertEqual(rc, 1)
        self.assertTrue(out.startswith("disallowed\t/late\t"), out)
        rc, out, _ = self.check("--compat", "urllib", "--max-bytes", "0")
        self.assertEqual(rc, 1)
        rc, out, err = self.check("--compat", "urllib", "--max-bytes", "600000")
        self.assertEqual((rc, out), (2, ""))
        self.assertIn("--max-bytes does not apply to --compat urllib", err)

    def test_bad_values_are_usage_errors(self):
        for value in ("-1", "x", "1e6", ""):
            for cmd in (["check", "--robots-file", self.big, "--user-agent", "a"],
                        ["lint"]):
                rc, out, err = run(*cmd, "--max-bytes", value, self.big)
                self.assertEqual((rc, out), (2, ""), (cmd[0], value))
                self.assertIn("--max-bytes", err)


GNU_TIME = "/usr/bin/time"  # Debian's `time` (scripts/bootstrap installs it).


def run_measured(args, stdin=None, memory_limit=None, timeout=30):
    """Runs ROBOTSCAN with `args`; returns (exit status, stdout, stderr, peak
    RSS in KiB, or None without GNU time). A `memory_limit` (bytes) caps the
    address space (RLIMIT_AS), as `ulimit -v` or a container would.

    The peak RSS comes from GNU time, which forks robotscan itself: a child
    forked by this test process would count this process's pages (which hold
    the test's inputs) in its own peak until it execs."""
    def limit():
        if memory_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    with tempfile.TemporaryDirectory() as tmp:
        rss_file = os.path.join(tmp, "rss")
        command = [ROBOTSCAN, *args]
        if os.access(GNU_TIME, os.X_OK):
            command = [GNU_TIME, "-f", "%M", "-o", rss_file, *command]
        proc = subprocess.run(command,
                              stdin=stdin if stdin is not None else subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=limit, timeout=timeout)
        rss = None
        if os.path.exists(rss_file):
            with open(rss_file) as f:
                report = f.read()
            # "Command terminated by signal 6" (SIGABRT) fails every test
            # here; the figure is the last line either way.
            if "terminated by signal" in report:
                raise AssertionError(f"{args}: {report}")
            rss = int(report.split()[-1])
        return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace"), rss)


def feed(path_or_fd, head, size):
    """Writes `head`, then '#' lines up to `size` bytes, to a FIFO path or a
    pipe's write end, from a thread; the reader may stop early (EPIPE is
    expected then)."""
    def write():
        try:
            f = (os.fdopen(path_or_fd, "wb") if isinstance(path_or_fd, int)
                 else open(path_or_fd, "wb"))
            with f:
                f.write(head)
                filler = b"#" * 4095 + b"\n"
                for _ in range((size - len(head)) // len(filler)):
                    f.write(filler)
        except BrokenPipeError:
            pass
    # A daemon: if robotscan dies before it opens the FIFO, the writer's
    # open() never returns, and the test must still end (with its failure).
    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


class BoundedReadTest(unittest.TestCase):
    """Issue 30: check and lint read at most --max-bytes (and a byte) of any
    input: regular files, standard input, pipes, FIFOs and devices, so memory
    stays near the limit and endless inputs end. Before, /dev/urandom grew to
    1 GB in 10 s without end and /dev/zero under a 500 MB address-space
    limit died of SIGABRT without a message.

    Each input is larger than the address space the command may use
    (ADDRESS_SPACE): it cannot have been read whole. Peak RSS, measured by
    GNU time, must stay near the 500 KiB limit (4-5 MiB measured)."""

    ADDRESS_SPACE = 64 * 1024 * 1024  # robotscan needs 48 MiB to start.
    MAX_RSS_KIB = 16 * 1024
    STREAM_BYTES = 256 * 1024 * 1024

    @classmethod
    def setUpClass(cls):
        # AddressSanitizer reserves terabytes of address space for its
        # shadow and cannot start under any RLIMIT_AS (SIGABRT). In that
        # build the endless inputs are bounded by the 30 s timeout instead,
        # and the RSS bound is relative to the same command on a two-line
        # file (the sanitizer's own memory is several times a release
        # build's whole).
        cls.address_space = None if SANITIZED else cls.ADDRESS_SPACE
        cls.max_rss_kib = cls.MAX_RSS_KIB
        if SANITIZED:
            with tempfile.TemporaryDirectory() as tmp:
                small = os.path.join(tmp, "robots.txt")
                with open(small, "wb") as f:
                    f.write(cls.RULES)
                _, _, _, baseline = run_measured(
                    ["check", "--robots-file", small, "--user-agent", "Bot", "/x"])
            if baseline is not None:
                cls.max_rss_kib += baseline

    RULES = b"User-agent: *\nDisallow: /early\n"
    # The rules, and a rule at 600,000 bytes that the limit cuts off.
    HEAD = RULES + b"#" * (600000 - len(RULES) - 1) + b"\nDisallow: /late\n"

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def check_args(self, robots, *extra):
        return ["check", "--robots-file", robots, "--user-agent", "Bot", *extra,
                "/early", "/late"]

    def assert_small(self, rss, what):
        if rss is not None:
            self.assertLess(rss, self.max_rss_kib, what)

    def assert_cut_answers(self, out):
        self.assertEqual(out.splitlines(), [
            "disallowed\t/early\t2\tdisallow: /early",
            "allowed\t/late\t0\tno-matching-rule"])

    def test_devices_are_read_up_to_the_limit(self):
        for device in ("/dev/zero", "/dev/urandom"):
            rc, out, err, rss = run_measured(self.check_args(device),
                                             memory_limit=self.address_space)
            self.assertIn(rc, (0, 1), (device, err))
            self.assertIn(f"'{device}' is longer than the parse limit of 512000 "
                          "bytes: it was read no further", err)
            self.assert_small(rss, device)
            rc, out, err, rss = run_measured(["lint", device],
                                             memory_limit=self.address_space)
            self.assertEqual(rc, 1, (device, err))
            self.assertIn(f"{device}:0: error: input is longer than the parse limit "
                          "of 512000 bytes: it was read no further, and only its "
                          "first ", out)
            self.assertIn("[size-limit]", out)
            self.assert_small(rss, device)
        # /dev/zero has no line end: nothing of it is parsed.
        rc, out, err, _ = run_measured(self.check_args("/dev/zero"))
        self.assertEqual((rc, out.splitlines()[0]),
                         (0, "allowed\t/early\t0\tno-group"))
        self.assertIn("only its first 0 bytes", err)

    def test_stdin_pipe(self):
        read_end, write_end = os.pipe()
        writer = feed(write_end, self.HEAD, self.STREAM_BYTES)
        with os.fdopen(read_end, "rb") as stdin:
            rc, out, err, rss = run_measured(self.check_args("-"), stdin=stdin,
                                             memory_limit=self.address_space)
        writer.join()
        self.assertEqual(rc, 1, err)
        self.assert_cut_answers(out)
        self.assertIn("'-' is longer than the parse limit of 512000 bytes: it was read "
                      f"no further, and only its first {len(self.RULES)} bytes", err)
        self.assert_small(rss, "pipe")

    def test_fifo(self):
        fifo = os.path.join(self.tmp.name, "robots.fifo")
        for command in (self.check_args(fifo), ["lint", fifo]):
            os.mkfifo(fifo)
            writer = feed(fifo, self.HEAD, self.STREAM_BYTES)
            rc, out, err, rss = run_measured(command, memory_limit=self.address_space)
            writer.join()
            os.unlink(fifo)
            self.assertEqual(rc, 1, err)
            self.assert_small(rss, command[0])
            if command[0] == "check":
                self.assert_cut_answers(out)
            else:
                self.assertIn(f"{fifo}:0: error: input is longer than the parse limit",
                              out)

    def test_big_sparse_file_names_its_size(self):
        sparse = os.path.join(self.tmp.name, "sparse.txt")
        with open(sparse, "wb") as f:
            f.write(self.HEAD)
            f.truncate(1 << 30)
        ignored = (1 << 30) - len(self.RULES)  # Cut at the rules' last line end.
        rc, out, err, rss = run_measured(self.check_args(sparse),
                                         memory_limit=self.address_space)
        self.assertEqual(rc, 1, err)
        self.assert_cut_answers(out)
        self.assertIn(f"{ignored} bytes past the parse limit of '{sparse}' were ignored",
                      err)
        self.assert_small(rss, "sparse file")
        # A larger limit reads further, and no more.
        rc, out, err, rss = run_measured(self.check_args(sparse, "--max-bytes", "700000"),
                                         memory_limit=self.address_space)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out.splitlines()[1], "disallowed\t/late\t4\tdisallow: /late")
        self.assertIn(f"{(1 << 30) - len(self.HEAD)} bytes past the parse limit", err)
        self.assert_small(rss, "sparse file, 700000")
        rc, out, _, rss = run_measured(["lint", sparse], memory_limit=self.address_space)
        self.assertEqual(rc, 1)
        self.assertIn(f"{sparse}:0: error: file is {1 << 30} bytes; the {ignored} bytes "
                      "past the parse limit of 512000 bytes are ignored", out)
        self.assert_small(rss, "lint sparse file")

    def test_a_stream_of_exactly_the_limit_is_not_cut(self):
        body = self.RULES + b"#" * (512000 - len(self.RULES) - 1) + b"\n"
        self.assertEqual(len(body), 512000)
        for extra, cut in ((b"", False), (b"x", True)):
            read_end, write_end = os.pipe()
            writer = feed(write_end, body + extra, 0)
            with os.fdopen(read_end, "rb") as stdin:
                rc, out, err, _ = run_measured(self.check_args("-"), stdin=stdin)
            writer.join()
            self.assertEqual(rc, 1)
            self.assertEqual("is longer than the parse limit" in err, cut, err)

    def test_no_limit_out_of_memory_is_a_message_not_an_abort(self):
        if SANITIZED:
            self.skipTest("AddressSanitizer cannot run under the address-space "
                          "limit this test needs to run out of memory")
        # --max-bytes 0 reads everything, and --compat urllib always does:
        # /dev/zero then fills the memory the process may use. The command
        # says so and exits 2, instead of dying of SIGABRT in silence.
        message = ("robotscan: out of memory: the input is too large for the memory "
                   "this process may use\n")
        for command in (self.check_args("/dev/zero", "--max-bytes", "0"),
                        self.check_args("/dev/zero", "--compat", "urllib"),
                        ["lint", "--max-bytes", "0", "/dev/zero"],
                        ["check", "--robots-file", "/dev/null", "--user-agent", "Bot",
                         "--urls-file", "/dev/zero"]):
            rc, out, err, _ = run_measured(command, memory_limit=self.address_space)
            self.assertEqual((rc, out, err), (2, "", message), command)
        # A file too large to hold fails at once, from its size.
        sparse = os.path.join(self.tmp.name, "sparse.txt")
        with open(sparse, "wb") as f:
            f.truncate(1 << 40)
        rc, out, err, _ = run_measured(["lint", "--max-bytes", "0", sparse],
                                       memory_limit=self.address_space)
        self.assertEqual((rc, out, err), (2, "", message))


class TerminalEscapeTest(unittest.TestCase):
    """Issue 30: a hostile robots.txt cannot drive the terminal through check's
    or lint's text output: C0 controls, DEL and C1 controls (raw bytes
    0x80-0x9F and UTF-8 U+0080-U+009F) are printed as \\xHH. JSON stays
    exact."""

    HOSTILE = (b"User-agent: *\n"
               b"Disallow: /esc\x1b]0;owned\x07\x1b[2J\n"
               b"Disallow: /csi8\x9b2J\n"
               b"Disallow: /csi\xc2\x9b2J\n"
               b"Disallow: /tab\there\n"
               b"Disallow: /caf\xc3\xa9\xe2\x82\xac\n"
               b"Sitemap: /map\x1b[31m\xc2\x9b\n")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.robots = os.path.join(self.tmp.name, "robots.txt")
        with open(self.robots, "wb") as f:
            f.write(self.HOSTILE)

    def tearDown(self):
        self.tmp.cleanup()

    def raw(self, *args):
        proc = subprocess.run([ROBOTSCAN, *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=30)
        return proc.returncode, proc.stdout, proc.stderr

    def assert_no_control(self, data):
        text = data.decode("utf-8", "surrogateescape")
        for ch in text:
            code = ord(ch)
            # Line ends and the column TABs are the output's own.
            if ch in "\n\t":
                continue
            self.assertFalse(code < 0x20 or code == 0x7F or 0x80 <= code <= 0x9F,
                             (hex(code), text))
            # A raw byte 0x80-0x9F outside a character decodes to a surrogate.
            self.assertFalse(0xDC80 <= code <= 0xDC9F, (hex(code), text))

    def test_check_text_escapes_and_json_is_exact(self):
        # Bytes: each URL reaches the command exactly as written.
        urls = [b"/esc\x1b]0;owned\x07\x1b[2J/x", b"/csi\xc2\x9b2J", b"/tab\there",
                b"/caf\xc3\xa9\xe2\x82\xac"]
        rc, out, err = self.raw("check", "--robots-file", self.robots, "--user-agent",
                                "Bot", "--compat", "urllib", *urls)
        self.assertEqual(rc, 1, err)
        self.assert_no_control(out)
        self.assert_no_control(err)
        self.assertEqual(out.decode("utf-8").splitlines(), [
            "disallowed\t/esc\\x1B]0;owned\\x07\\x1B[2J/x\t2\t"
            "disallow: /esc\\x1B]0;owned\\x07\\x1B[2J",
            "disallowed\t/csi\\xC2\\x9B2J\t4\tdisallow: /csi\\xC2\\x9B2J",
            "disallowed\t/tab\\x09here\t5\tdisallow: /tab\\x09here",
            # Non-ASCII text whose bytes include 0x82 stays text.
            "disallowed\t/caf\u00e9\u20ac\t6\tdisallow: /caf\u00e9\u20ac",
        ])
        rc, out, _ = self.raw("check", "--robots-file", self.robots, "--user-agent",
                              "Bot", b"/csi8\x9b2J/x", b"/csi\xc2\x9b2J/x")
        self.assert_no_control(out)
        self.assertEqual([l.split("\t")[3] for l in out.decode().splitlines()],
                         ["disallow: /csi8\\x9B2J", "disallow: /csi\\xC2\\x9B2J"])
        rc, out, _ = self.raw("check", "--robots-file", self.robots, "--user-agent",
                              "Bot", "--json", "--compat", "urllib", *urls)
        records = [json.loads(line) for line in out.decode().splitlines()]
        self.assertEqual([r["url"] for r in records], [u.decode() for u in urls])
        self.assertEqual(records[0]["rule"]["pattern"], "/esc\x1b]0;owned\x07\x1b[2J")
        self.assertEqual(records[1]["rule"]["pattern"], "/csi\u009b2J")

    def test_user_agent_and_file_name_in_messages(self):
        name = os.path.join(self.tmp.name, "evil\x1b[2J.txt")
        with open(name, "wb") as f:
            f.write(b"User-agent: *\nDisallow: /\n" + b"#" * 600000 + b"\n")
        rc, _, err = self.raw("check", "--robots-file", name, "--user-agent",
                              "Bot\x1b[2J", "/x")
        self.assertEqual(rc, 1)
        self.assert_no_control(err)
        self.assertIn("user agent 'Bot\\x1B[2J' is not a valid product token", err.decode())
        self.assertIn("evil\\x1B[2J.txt' were ignored", err.decode())

    def test_lint_text_escapes_and_json_is_exact(self):
        name = os.path.join(self.tmp.name, "r\x1b[2J.txt")
        with open(name, "wb") as f:
            f.write(self.HOSTILE + b"Dis\xc2\x9ballow: /x\n")
        rc, out, err = self.raw("lint", name)
        self.assertEqual(rc, 1, err)
        self.assert_no_control(out)
        lines = out.decode("utf-8").splitlines()
        self.assertIn("r\\x1B[2J.txt:7: error: sitemap '/map?[31m?' is not an absolute "
                      "http(s) URL; crawlers ignore it [relative-sitemap]",
                      [l[len(self.tmp.name) + 1:] for l in lines])
        self.assertTrue(any(":8: warning: unknown directive 'Dis?allow' is ignored" in l
                            for l in lines), lines)
        rc, out, _ = self.raw("lint", "--json", name)
        records = [json.loads(line) for line in out.decode().splitlines()]
        self.assertEqual({r["file"] for r in records}, {name})

if __name__ == "__main__":
    ROBOTSCAN = sys.argv.pop(1)
    with open(ROBOTSCAN, "rb") as binary:
        SANITIZED = b"__asan_init" in binary.read()
    unittest.main(verbosity=1)
