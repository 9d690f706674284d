"""`pytest --regexguard`, run for real: pytest in a subprocess on small suites.

The plugin is found through the package's pytest11 entry point (the
dist-info next to the package on PYTHONPATH), exactly as after an install.
"""

import os
import subprocess
import sys
import textwrap

import pytest


def run_pytest(directory, *args):
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    return out.returncode, out.stdout + out.stderr


def write(directory, name, source):
    (directory / name).write_text(textwrap.dedent(source))


BAD_SUITE = """\
    import re

    def build(part):
        return re.compile("(" + part + "+)+$")

    def test_plain():
        assert re.match(r"\\d+", "12")

    def test_builds_pattern():
        assert build("a").match("aaa")
    """


def test_blocks_a_suite_compiling_an_exponential_pattern_at_run_time(tmp_path):
    write(tmp_path, "test_bad.py", BAD_SUITE)
    status, output = run_pytest(tmp_path, "--regexguard")
    assert status == 1, output
    assert "2 passed" in output  # the tests themselves pass: the plugin fails the session
    assert "ERROR: exponential backtracking in '(a+)+$'" in output
    assert "attack: '' + 'a' * n + 'b'" in output
    assert "compiled by test_bad.py::test_builds_pattern (call): test_bad.py:4 in build" in output
    assert "1 regexguard error" in output


def test_passes_a_clean_suite(tmp_path):
    write(
        tmp_path,
        "test_clean.py",
        """\
        import re

        def test_words():
            assert re.findall(r"\\w+", "a b c") == ["a", "b", "c"]

        def test_built_at_run_time():
            separator = ","
            assert re.split(re.escape(separator) + r"\\s*", "a, b") == ["a", "b"]
        """,
    )
    status, output = run_pytest(tmp_path, "--regexguard", "-vv")
    assert status == 0, output
    assert "ERROR:" not in output and "regexguard error" not in output
    assert "safe: ',\\\\s*' (flags 0)" in output  # the run-time pattern was seen and analysed
    assert "regexguard: " in output and "distinct patterns from" in output


def test_does_nothing_without_the_option(tmp_path):
    write(tmp_path, "test_bad.py", BAD_SUITE)
    status, output = run_pytest(tmp_path)
    assert status == 0, output
    assert "regexguard" not in output.split("test session starts")[1].replace("plugins: robotscan", "")


def test_polynomial_is_a_warning_unless_asked(tmp_path):
    write(
        tmp_path,
        "test_poly.py",
        """\
        import re

        def test_quadratic():
            assert re.match("^" + "a*" * 2 + "b$", "aab")
        """,
    )
    status, output = run_pytest(tmp_path, "--regexguard")
    assert status == 0, output
    assert "WARNING: polynomial (degree 2) backtracking in '^a*a*b$'" in output
    assert "compiled by test_poly.py::test_quadratic (call): test_poly.py:4 in test_quadratic" in output
    assert "1 regexguard warning" in output
    status, output = run_pytest(tmp_path, "--regexguard", "--regexguard-polynomial=error")
    assert status == 1, output
    assert "ERROR: polynomial (degree 2)" in output


def test_names_collection_and_fixture_phases_and_honours_ignore(tmp_path):
    write(
        tmp_path,
        "test_phases.py",
        """\
        import re
        import pytest

        AT_IMPORT = re.compile("(x" + "+)+y")

        @pytest.fixture
        def pattern():
            return re.compile("(b" + "|b)*c")

        def test_uses(pattern):
            assert AT_IMPORT.match("xy") and pattern.match("bc")

        def test_ignored():
            re.compile("(c" + "+)+d")  # regexguard: ignore (input is a short constant)
        """,
    )
    status, output = run_pytest(tmp_path, "--regexguard")
    assert status == 1, output
    assert "compiled by collecting test_phases.py: test_phases.py:4 in <module>" in output
    assert "compiled by test_phases.py::test_uses (setup): test_phases.py:8 in pattern" in output
    assert "(c+)+d" not in output
    assert "2 regexguard errors" in output


def test_plugin_options_are_listed(tmp_path):
    status, output = run_pytest(tmp_path, "--help")
    assert status == 0
    for option in ("--regexguard", "--regexguard-polynomial", "--regexguard-timeout", "--regexguard-jobs"):
        assert option in output


def test_re_is_restored_after_the_session(tmp_path):
    """In-process: a nested session with --regexguard leaves re._compile as it found it."""
    import re

    write(tmp_path, "test_inner.py", "import re\n\ndef test_x():\n    assert re.match('a+', 'aa')\n")
    before = re._compile
    status = pytest.main([str(tmp_path), "--regexguard", "-q", "-p", "no:cacheprovider"])
    assert status == 0
    assert re._compile is before
