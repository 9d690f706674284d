#!/usr/bin/env python3
"""Runs CPython's own Lib/test/test_robotparser.py against robotscan.robotparser.

Adapted by import substitution only: ``urllib.robotparser`` is replaced by
``robotscan.robotparser`` in sys.modules (and as the attribute of the
``urllib`` package) before the test module is imported; no test case is
edited. The test module comes from the interpreter's ``test`` package
(Debian: libpython3.11-testsuite).

Network access: test.support's resources are set to none, so the
``network`` resource is denied and NetworkTestCase (www.pythontest.net) is
skipped with unittest's message; the other server test binds 127.0.0.1.

Passes when exactly the cases in EXPECTED_FAILURES fail -- those where
urllib.robotparser contradicts RFC 9309 (docs/python.md has the same list)
-- and everything else passes. A listed case that starts passing fails the
run too, so the list cannot go stale.
"""

import sys
import unittest
import urllib

import robotscan.robotparser as drop_in

# test id (with subtest parameters) -> the RFC 9309 section urllib contradicts.
EXPECTED_FAILURES = {
    "test.test_robotparser.UseFirstUserAgentWildcardTest.test_good_urls "
    "(url='/another/path', agent='test_robotparser')": "§2.2.1: groups with the same user-agent "
    "('*' twice) are combined; urllib obeys only the first '*' group",
    "test.test_robotparser.UserAgentGoogleMobileTest.test_bad_urls "
    "(url='/something.jpg', agent='Googlebot-Mobile')": "§2.2.1: the product token is matched "
    "exactly (case-insensitively); 'Googlebot-Mobile' has its own group, urllib takes the first "
    "group whose name is a substring ('Googlebot')",
    "test.test_robotparser.PasswordProtectedSiteTestCase.testPasswordProtectedSite": "§2.3.1.3: "
    "a 4xx status (here 403) means the robots.txt is unavailable and crawlers may access any "
    "resource; urllib disallows everything on 401/403 (also §2.2.2: /robots.txt itself is "
    "always allowed)",
}


class Result(unittest.TextTestResult):
    """Records subtest failures by id, so each expected failure is named exactly."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.failed_ids = []
        self.subtests_passed = 0

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.failed_ids.append(_id_of(test))

    def addError(self, test, err):
        super().addError(test, err)
        self.failed_ids.append(_id_of(test))

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is None:
            self.subtests_passed += 1
        else:
            self.failed_ids.append(_id_of(subtest))


def _id_of(test) -> str:
    return test.id()  # a subtest's id includes its parameters


def main() -> int:
    sys.modules["urllib.robotparser"] = drop_in
    urllib.robotparser = drop_in
    from test import support

    support.use_resources = []  # no 'network': nothing beyond loopback
    from test import test_robotparser

    assert test_robotparser.urllib.robotparser is drop_in, "substitution failed"
    suite = unittest.defaultTestLoader.loadTestsFromModule(test_robotparser)
    runner = unittest.TextTestRunner(resultclass=Result, verbosity=1, stream=sys.stdout)
    result = runner.run(suite)

    failed = set(result.failed_ids)
    expected = set(EXPECTED_FAILURES)
    test_methods_failed = {i.split(" ")[0] for i in failed}
    print()
    print(f"test_robotparser from {test_robotparser.__file__} against robotscan.robotparser:")
    print(
        f"  {result.testsRun} test methods run, {result.testsRun - len(test_methods_failed)} passed, "
        f"{len(test_methods_failed)} with failures; {result.subtests_passed} subtests passed; "
        f"{len(result.skipped)} skipped"
    )
    for test, reason in result.skipped:
        print(f"  skipped: {test.id()}: {reason}")
    for case in sorted(failed & expected):
        print(f"  expected failure (RFC 9309 {EXPECTED_FAILURES[case]}): {case}")
    unexpected = failed - expected
    now_passing = expected - failed
    for case in sorted(unexpected):
        print(f"  UNEXPECTED FAILURE: {case}")
    for case in sorted(now_passing):
        print(f"  LISTED FAILURE NOW PASSES (update the list and docs/python.md): {case}")
    return 1 if unexpected or now_passing else 0


if __name__ == "__main__":
    sys.exit(main())
