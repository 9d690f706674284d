"""robotscan.regexguard.analyze: verdicts, attacks that really blow up, arguments."""

import re

import pytest

from robotscan import regexguard


def test_exponential_pattern_has_a_confirmed_attack():
    result = regexguard.analyze(r"(a+)+$")
    assert result.verdict == "exponential"
    assert result.dialect == "python"
    assert result.cause == "backtracking"
    attack = result.attack
    assert attack.pump == "a"
    subject = attack.build(12)
    assert subject == attack.prefix + "a" * 12 + attack.suffix
    # The suffix makes every attempt fail (n = 12: quick even so).
    assert re.search(r"(a+)+$", subject) is None  # regexguard: ignore (the pattern under test)
    assert "pcre2-naive" in result.exploding_engines  # the model of Python's re
    assert "(a+)+" in result.explanation
    assert result.fix_hints
    assert "exponential" in result.text_report
    assert repr(result) == "RegexAnalysis(pattern='(a+)+$', verdict='exponential')"


def test_polynomial_and_safe_patterns():
    quadratic = regexguard.analyze(r"^a*a*b$")
    assert (quadratic.verdict, quadratic.degree, quadratic.cause) == ("polynomial", 2, "backtracking")
    attack = quadratic.attack.build(20)
    assert quadratic.attack.pump == "a" and re.match(r"^a*a*b$", attack) is None  # regexguard: ignore
    cubic = regexguard.analyze(r"\s*#?\s*$")
    assert cubic.verdict == "polynomial" and cubic.degree == 3
    safe = regexguard.analyze(r"^[a-z]+@[a-z]+\.com$")
    assert safe.verdict == "safe" and safe.attack is None and safe.degree == 0
    assert regexguard.analyze(r"(a+)+$", "go").verdict == "safe"  # RE2 never backtracks


def test_flags_and_compiled_patterns():
    assert regexguard.flag_letters(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE) == "imsx"
    assert regexguard.flag_letters(re.ASCII) == ""
    assert regexguard.flag_letters("ig") == "ig"
    compiled = re.compile(r"(?:x|X)(A+)+$", re.IGNORECASE)  # regexguard: ignore (under test)
    result = regexguard.analyze(compiled)
    assert result.verdict == "exponential" and result.pattern == compiled.pattern
    verbose = regexguard.analyze("( a + ) + $  # comment", flags=re.VERBOSE)
    assert verbose.verdict == "exponential"
    assert regexguard.analyze(b"(a+)+$").verdict == "exponential"
    # re.match semantics: no search loop, one degree less.
    assert regexguard.analyze(r"\s*#?\s*$", anchored=True).degree == 2


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="invalid python pattern"):
        regexguard.analyze("(a+")
    with pytest.raises(ValueError, match="unknown dialect 'perl6'"):
        regexguard.analyze("a", "perl6")
    with pytest.raises(ValueError, match="'q'"):
        regexguard.analyze("a", flags="q")
    with pytest.raises(ValueError, match="timeout must be positive"):
        regexguard.analyze("a", timeout=0)
    with pytest.raises(TypeError, match="pattern must be str, bytes or re.Pattern, not int"):
        regexguard.analyze(5)
    with pytest.raises(TypeError, match="flags must be int"):
        regexguard.analyze("a", flags=None)
    with pytest.raises(TypeError, match="timeout must be a number"):
        regexguard.analyze("a", timeout="1")


def test_budget_exhaustion_is_unknown_never_safe():
    result = regexguard.analyze(r"(.*a){12}", timeout=0.05)
    assert result.verdict == "unknown" and result.unknown_reason
    assert result.unknown_code == "budget-exceeded"
    assert regexguard.analyze(r"(a+)+$").unknown_code is None


def test_unsupported_syntax_and_re2():
    conditional = regexguard.analyze(r"(a)(?(1)b|c)")
    assert conditional.verdict == "unknown"
    assert conditional.error == "unsupported-syntax: cannot analyse: conditional groups (?(...)...)"
    assert conditional.unknown_code == "unsupported-syntax"
    # (Patterns with a Python/PCRE `$` are compared as `\Z`, which RE2 refuses:
    # a regexguard limitation noted in the report, so this uses no `$`.)
    assert regexguard.analyze(r"(a+)+b").re2_accepted is True
    assert regexguard.analyze(r"(a)\1").re2_accepted is False  # RE2 has no backreferences
    assert regexguard.analyze(r"(a+)+$").error is None


def test_version_aware_verdicts():
    # Ruby >= 3.2 memoizes this nested loop: the verdict says for which
    # versions it explodes; Python's re has no such defence.
    ruby = regexguard.analyze(r"^(a+)+$", "ruby")
    assert ruby.verdict == "exponential"
    assert ruby.versions is not None and "Ruby >= 3.2" in ruby.versions
    assert "memoization" in ruby.defences
    python = regexguard.analyze(r"^(a+)+$", "python")
    assert python.versions is None and python.defences == []
    # A back reference is out of the memo's reach: no defence applies.
    backref = regexguard.analyze(r"^(a+)+\1$", "ruby")
    assert "memoization" not in backref.defences
