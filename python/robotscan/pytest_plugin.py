"""``pytest --regexguard``: ReDoS analysis of every regex a test run compiles.

Static scanners see regex literals; they miss patterns built at run time
(``re.compile(prefix + "(" + part + ")+$")``). With ``--regexguard`` this
plugin records every pattern compiled through :mod:`re` while pytest runs --
collection, fixtures and tests, also inside libraries -- with the test (and
phase) that compiled it and the call site outside ``re``. When the run ends
it analyses each distinct (pattern, flags) once with regexguard (in
parallel: the analysis releases the GIL) and then:

* an **exponential** pattern is an error: it is listed with its attack,
  test and call site, and the session fails (exit status 1) even if every
  test passed;
* a **polynomial** pattern is a warning (``--regexguard-polynomial=error``
  makes it an error too);
* a call site whose source line contains ``regexguard: ignore`` is not
  reported (as with ``regexguard scan``).

The plugin is registered through the ``pytest11`` entry point of the
installed robotscan package; without ``--regexguard`` it does nothing.

Patterns compiled by ``re.match``/``re.fullmatch`` are analysed anchored;
all others as ``re.search`` would use them (a compile does not say how the
pattern will be used), so a search-restart quadratic (``search restart`` in
the report) may not apply to a pattern only ever used with ``.match()``.
Polynomial findings whose every call site is in the standard library or an
installed package are counted, not listed (``-v`` lists them); exponential
ones are errors wherever they are compiled.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import linecache
import os
import pathlib
import re
import sys
import sysconfig
import threading
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

import pytest

__all__ = ["RegexGuard"]

_IGNORE_MARK = "regexguard: ignore"
_MAX_SITES_SHOWN = 5


def pytest_addoption(parser: "pytest.Parser") -> None:
    """Adds --regexguard and its options."""
    group = parser.getgroup("regexguard", "ReDoS analysis of patterns compiled at run time (robotscan)")
    group.addoption(
        "--regexguard",
        action="store_true",
        default=False,
        help="record every regex compiled through re during the run, analyse each "
        "distinct one with regexguard, fail the session on exponential ones",
    )
    group.addoption(
        "--regexguard-polynomial",
        choices=("warning", "error"),
        default="warning",
        help="how to report polynomial backtracking (default: warning)",
    )
    group.addoption(
        "--regexguard-timeout",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="analysis time budget per pattern; running out gives 'unknown' (default 1)",
    )
    group.addoption(
        "--regexguard-jobs",
        type=int,
        default=0,
        metavar="N",
        help="patterns analysed in parallel (default: the number of CPUs)",
    )


def pytest_configure(config: "pytest.Config") -> None:
    """Installs the recorder when --regexguard is given."""
    if config.getoption("regexguard"):
        config.pluginmanager.register(RegexGuard(config), "robotscan-regexguard")


class CallSite(NamedTuple):
    """Who compiled a pattern: the test (or phase) and the code outside ``re``."""

    where: str  # "tests/test_x.py::test_y (call)", "collecting tests/test_x.py", ...
    filename: str
    lineno: int
    function: str

    def describe(self, rootdir: str) -> str:
        """'WHERE: PATH:LINE in FUNCTION', PATH relative to rootdir when inside it."""
        path = self.filename
        if os.path.isabs(path):
            relative = os.path.relpath(path, rootdir)
            if not relative.startswith(".."):
                path = relative
        return f"{self.where}: {path}:{self.lineno} in {self.function}"

    def is_ignored(self) -> bool:
        """True when the call site's source line carries 'regexguard: ignore'."""
        return _IGNORE_MARK in linecache.getline(self.filename, self.lineno)


# (pattern, re flags, anchored): anchored when compiled by re.match or
# re.fullmatch, which never run the search loop.
PatternKey = Tuple[Union[str, bytes], int, bool]
_ANCHORED_ENTRY_POINTS = ("match", "fullmatch")


class Finding(NamedTuple):
    severity: str  # "error" or "warning"
    key: PatternKey
    analysis: object
    sites: List[CallSite]


class RegexGuard:
    """Records ``re`` compilations during the session and reports ReDoS.

    Thread-safe: compilations on other threads are recorded too (attributed
    to whatever test is running).
    """

    def __init__(self, config: "pytest.Config") -> None:
        self._config = config
        self._polynomial_severity = config.getoption("regexguard_polynomial")
        self._timeout = config.getoption("regexguard_timeout")
        jobs = config.getoption("regexguard_jobs")
        self._jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        self._where = "session start"
        self._lock = threading.Lock()
        # (pattern, flags) -> call sites in first-seen order.
        self._sites: Dict[PatternKey, List[CallSite]] = {}
        self._seen: set = set()  # (key, where, filename, lineno)
        self._calls = itertools.count()  # next() is atomic in CPython
        self._call_count = 0
        self._findings: List[Finding] = []
        self._counts: Dict[str, int] = {}
        self._not_analysed: List[Tuple[PatternKey, str]] = []
        self._verdicts: Dict[PatternKey, str] = {}
        # Warnings whose every call site is in the standard library or an
        # installed package: counted, listed with -v.
        self._dependency_warnings: List[Finding] = []
        self._library_dirs = sorted(
            {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
        )
        self._re_dir = os.path.dirname(re.__file__)
        self._own_file = __file__
        self._original_compile = re._compile
        self._wrapper = self._compile  # one bound method, to recognise it later
        re._compile = self._wrapper

    # -- recording ---------------------------------------------------------

    def _compile(self, pattern, flags):
        compiled = self._original_compile(pattern, flags)
        if isinstance(pattern, (str, bytes)):
            self._record(pattern, int(flags))
        return compiled

    def _record(self, pattern: Union[str, bytes], flags: int) -> None:
        self._call_count = next(self._calls) + 1
        frame = sys._getframe(2)
        entry_point = ""
        while frame is not None and (
            frame.f_code.co_filename.startswith(self._re_dir)
            or frame.f_code.co_filename == self._own_file
            or frame.f_code.co_filename.startswith("<frozen ")
        ):
            if frame.f_code.co_filename.startswith(self._re_dir):
                entry_point = frame.f_code.co_name  # the outermost re function
            frame = frame.f_back
        if frame is None:
            filename, lineno, function = "<unknown>", 0, "<unknown>"
        else:
            filename, lineno, function = frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name
        key = (pattern, flags, entry_point in _ANCHORED_ENTRY_POINTS)
        where = self._where
        seen_key = (key, where, filename, lineno)
        if seen_key in self._seen:
            return
        with self._lock:
            if seen_key in self._seen:
                return
            self._seen.add(seen_key)
            self._sites.setdefault(key, []).append(CallSite(where, filename, lineno, function))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_collectstart(self, collector):
        """Attributes compilations to the collection of `collector` (module imports)."""
        self._where = f"collecting {collector.nodeid or collector.name}"
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_make_collect_report(self, collector):
        """Same, for the whole of a collector's collection."""
        self._where = f"collecting {collector.nodeid or collector.name}"
        yield
        self._where = "between tests"

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        """Attributes compilations to the test's setup (fixtures)."""
        self._where = f"{item.nodeid} (setup)"
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        """Attributes compilations to the test itself."""
        self._where = f"{item.nodeid} (call)"
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        """Attributes compilations to the test's teardown."""
        self._where = f"{item.nodeid} (teardown)"
        yield
        self._where = "between tests"

    # -- analysis ----------------------------------------------------------

    def _analyse_all(self) -> None:
        from robotscan.regexguard import analyze

        def run(key: PatternKey):
            pattern, flags, anchored = key
            try:
                analysis = analyze(pattern, "python", flags=flags, anchored=anchored, timeout=self._timeout)
                return analysis, None
            except ValueError as error:  # Python accepts it, regexguard's parser does not.
                return None, str(error)

        keys = list(self._sites)
        with concurrent.futures.ThreadPoolExecutor(max_workers=self._jobs) as pool:
            results = list(pool.map(run, keys))
        for key, (analysis, error) in zip(keys, results):
            if analysis is None:
                self._not_analysed.append((key, error))
                self._counts["not analysed"] = self._counts.get("not analysed", 0) + 1
                continue
            verdict = analysis.verdict
            self._verdicts[key] = verdict
            self._counts[verdict] = self._counts.get(verdict, 0) + 1
            if verdict == "exponential":
                severity = "error"
            elif verdict == "polynomial":
                severity = self._polynomial_severity
            else:
                continue
            sites = [site for site in self._sites[key] if not site.is_ignored()]
            if not sites:
                continue
            if severity == "warning" and not any(self._in_project(site) for site in sites):
                self._dependency_warnings.append(Finding(severity, key, analysis, sites))
                continue
            self._findings.append(Finding(severity, key, analysis, sites))

    def _in_project(self, site: CallSite) -> bool:
        """True for code under the rootdir that is not an installed package."""
        path = site.filename
        if not os.path.isabs(path):
            return False
        if any(part in ("site-packages", "dist-packages") for part in pathlib.PurePath(path).parts):
            return False
        if any(path.startswith(prefix + os.sep) for prefix in self._library_dirs):
            return False
        return path.startswith(str(self._config.rootpath) + os.sep)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: "pytest.Session") -> None:
        """Stops recording, analyses every distinct pattern, fails the session on errors."""
        if re._compile is self._wrapper:
            re._compile = self._original_compile
        self._analyse_all()
        errors = [f for f in self._findings if f.severity == "error"]
        warnings = [f for f in self._findings if f.severity == "warning"]
        reporter = self._config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            if errors:
                reporter.stats.setdefault(_plural(len(errors), "regexguard error"), []).extend(errors)
            if warnings:
                reporter.stats.setdefault(_plural(len(warnings), "regexguard warning"), []).extend(
                    warnings
                )
        if errors and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_unconfigure(self) -> None:
        """Puts ``re`` back also when the session never finished (usage errors)."""
        if re._compile is self._wrapper:
            re._compile = self._original_compile

    def pytest_terminal_summary(self, terminalreporter) -> None:
        """Prints the findings, then one line of counts."""
        write = terminalreporter.write_line
        rootdir = str(self._config.rootpath)
        terminalreporter.write_sep("=", "regexguard")
        for finding in sorted(self._findings, key=lambda f: f.severity):
            write(_describe(finding, rootdir), red=finding.severity == "error", yellow=finding.severity == "warning")
        if self._dependency_warnings:
            if terminalreporter.verbosity > 0:
                write("compiled by the standard library or installed packages:")
                for finding in self._dependency_warnings:
                    write(_describe(finding, rootdir), yellow=True)
            else:
                write(
                    f"{len(self._dependency_warnings)} polynomial patterns compiled only by the "
                    "standard library or installed packages (-v lists them)"
                )
        if terminalreporter.verbosity > 0:
            for (pattern, flags, anchored), error in self._not_analysed:
                write(f"not analysed: {pattern!r} (flags {flags}): {error}")
        if terminalreporter.verbosity > 1:
            for (pattern, flags, anchored), verdict in self._verdicts.items():
                use = ", re.match" if anchored else ""
                write(f"{verdict}: {pattern!r} (flags {flags}{use})")
        counts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(self._counts.items()))
        write(
            f"regexguard: {len(self._sites)} distinct patterns from {self._call_count} compile calls"
            + (f": {counts}" if counts else "")
        )


def _plural(count: int, noun: str) -> str:
    return noun if count == 1 else noun + "s"


def _describe(finding: Finding, rootdir: str) -> str:
    pattern, flags, anchored = finding.key
    analysis = finding.analysis
    kind = "exponential" if analysis.verdict == "exponential" else f"polynomial (degree {analysis.degree})"
    cause = " (search restart)" if analysis.cause == "search-restart" else ""
    flag_text = (f" flags={flags}" if flags else "") + (" (re.match)" if anchored else "")
    lines = [f"{finding.severity.upper()}: {kind} backtracking{cause} in {pattern!r}{flag_text}"]
    attack = analysis.attack
    if attack is not None:
        lines.append(f"    attack: {attack.prefix!r} + {attack.pump!r} * n + {attack.suffix!r}")
    if analysis.explanation:
        lines.append(f"    why: {analysis.explanation}")
    for hint in analysis.fix_hints[:2]:
        lines.append(f"    fix: {hint}")
    for site in finding.sites[:_MAX_SITES_SHOWN]:
        lines.append(f"    compiled by {site.describe(rootdir)}")
    if len(finding.sites) > _MAX_SITES_SHOWN:
        lines.append(f"    ... and {len(finding.sites) - _MAX_SITES_SHOWN} more call sites")
    return "\n".join(lines)
