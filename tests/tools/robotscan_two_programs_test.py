#!/usr/bin/env python3
"""bin/robotscan runs check, lint and --version itself and hands every other
command line to robotscan-full (tools/robotscan/main.cc). This test holds the
two to their promise:

  * the same command line prints the same stdout and stderr and exits with
    the same status whichever program runs it (argv[0] the same);
  * bin/robotscan does not link the crawler's libraries (what makes it start
    fast), while robotscan-full does;
  * crawl and report really reach robotscan-full through bin/robotscan, and
    a missing robotscan-full is a clear error (exit 127), not a crash.

usage: robotscan_two_programs_test.py ROBOTSCAN ROBOTSCAN_FULL
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROBOTSCAN = None
ROBOTSCAN_FULL = None

ROBOTS = b"User-agent: *\nDisallow: /private\nDisalow: /typo\n"

# Command lines (after argv[0]) whose behaviour both programs must share.
# {r} is a robots.txt file, {u} a URL list, {big} a 600 KiB robots.txt.
CASES = [
    ["--version"],
    ["--help"],
    [],
    ["check"],
    ["check", "--help"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "/x"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "/private/x", "/y"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "--json", "/private/x"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "--urls-file", "{u}"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "bad url"],
    ["check", "--robots-file", "{big}", "--user-agent", "a", "/late"],
    ["check", "--robots-file", "{big}", "--user-agent", "a", "--max-bytes", "0", "/late"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "--max-bytes", "x", "/a"],
    ["check", "--robots-file", "{big}", "--user-agent", "a", "--compat", "urllib", "/late"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "--compat", "urllib",
     "--max-bytes", "600000", "/a"],
    ["check", "--robots-file", "missing.txt", "--user-agent", "a", "/x"],
    ["check", "--robots-file", "{r}", "--user-agent", "a"],
    ["check", "--robots-file", "{r}", "--user-agent", "a/1", "/x"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "--compat", "nope", "/x"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "--bogus", "/x"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "/x", "crawl"],
    ["check", "--robots-file", "{r}", "--user-agent", "a", "/x", "report"],
    ["check", "--version"],
    ["lint", "{r}"],
    ["lint", "--json", "{r}"],
    ["lint", "--help"],
    ["lint"],
    ["lint", "missing.txt", "{r}"],
    ["lint", "{r}", "crawl"],
    ["lint", "{big}"],
    ["lint", "--max-bytes", "0", "{big}"],
    ["crawl", "--help"],
    ["report", "--help"],
    ["report"],
    ["report", "--db", "missing.sqlite"],
    ["crawl"],
    ["bogus"],
    ["--version", "--help"],
    ["-h"],
]

# Shared objects the crawl and report commands need and check/lint must not
# load (the start-up cost this split removes).
CRAWL_ONLY_LIBRARIES = ["libcurl", "libsqlite3", "libcares", "libidn2", "libzstd"]


def run_as(program, args, cwd):
    """Runs `program` with argv[0] = "robotscan", as a shell would."""
    proc = subprocess.run(["robotscan", *args], executable=program, cwd=cwd,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def needed_libraries(program):
    out = subprocess.run(["readelf", "-d", program], stdout=subprocess.PIPE,
                         check=True, text=True).stdout
    return [line.split("[", 1)[1].rstrip("]")
            for line in out.splitlines() if "(NEEDED)" in line]


class SameBehaviourTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        with open(os.path.join(d, "r.txt"), "wb") as f:
            f.write(ROBOTS)
        with open(os.path.join(d, "u.txt"), "wb") as f:
            f.write(b"/a\n/private/b\n")
        with open(os.path.join(d, "big.txt"), "wb") as f:
            f.write(b"User-agent: *\n" + b"Allow: /keep\n" * 48000 +
                    b"Disallow: /late\n")
        self.files = {"r": "r.txt", "u": "u.txt", "big": "big.txt"}

    def tearDown(self):
        self.tmp.cleanup()

    def test_every_case_prints_and_exits_alike(self):
        for case in CASES:
            args = [a.format(**self.files) for a in case]
            with self.subTest(args=args):
                light = run_as(ROBOTSCAN, args, self.tmp.name)
                full = run_as(ROBOTSCAN_FULL, args, self.tmp.name)
                self.assertEqual(light, full)
                # Nothing crashed: exit statuses are the documented ones.
                self.assertIn(light[0], (0, 1, 2))

    def test_cases_cover_both_programs_paths(self):
        # The list must exercise output, findings and errors, or it proves
        # little: at least one case of each exit status.
        statuses = {run_as(ROBOTSCAN, [a.format(**self.files) for a in c],
                           self.tmp.name)[0] for c in CASES}
        self.assertEqual(statuses, {0, 1, 2})


class LinkingTest(unittest.TestCase):
    def test_robotscan_does_not_link_the_crawlers_libraries(self):
        needed = needed_libraries(ROBOTSCAN)
        for lib in CRAWL_ONLY_LIBRARIES:
            self.assertFalse(any(n.startswith(lib) for n in needed),
                             f"{ROBOTSCAN} links {lib}: {needed}")

    def test_robotscan_full_links_them(self):
        # Control for the test above: readelf does see them where they are.
        needed = needed_libraries(ROBOTSCAN_FULL)
        self.assertTrue(any(n.startswith("libcurl") for n in needed), needed)


class HandOverTest(unittest.TestCase):
    def test_report_reaches_robotscan_full(self):
        # Only robotscan-full knows `report`; its own error message proves
        # the hand-over (bin/robotscan alone would say "bogus subcommand").
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run_as(ROBOTSCAN, ["report", "--db",
                                            os.path.join(d, "none.sqlite")], d)
        self.assertEqual(rc, 2)
        self.assertIn(b"robotscan report:", err)

    def test_missing_full_program_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as d:
            lonely = os.path.join(d, "bin", "robotscan")
            os.mkdir(os.path.dirname(lonely))
            shutil.copy(ROBOTSCAN, lonely)
            rc, out, err = run_as(lonely, ["crawl", "--help"], d)
            self.assertEqual(rc, 127)
            self.assertEqual(out, b"")
            self.assertIn(b"robotscan: cannot run ", err)
            self.assertIn(b"robotscan-full", err)
            # check still works without it.
            with open(os.path.join(d, "r.txt"), "wb") as f:
                f.write(ROBOTS)
            rc, out, _ = run_as(lonely, ["check", "--robots-file", "r.txt",
                                         "--user-agent", "a", "/private/x"], d)
            self.assertEqual(rc, 1)
            self.assertTrue(out.startswith(b"disallowed\t/private/x\t2\t"))


if __name__ == "__main__":
    ROBOTSCAN, ROBOTSCAN_FULL = map(os.path.abspath, sys.argv[1:3])
    del sys.argv[1:3]
    unittest.main(verbosity=1)
