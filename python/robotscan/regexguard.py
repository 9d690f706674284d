"""regexguard from Python: prove (or rule out) ReDoS in a regular expression.

::

    from robotscan import regexguard
    result = regexguard.analyze(r"^(\\w+\\s?)+$")       # Python's dialect by default
    result.verdict                                     # 'exponential'
    result.attack.build(30)                            # an input that blows up

A pattern is reported only with an attack confirmed on counted PCRE2 steps
(the naive backtracker models Python's ``re``); anything unproven is
``'unknown'``, never ``'safe'`` (docs/regexguard.md). The analysis runs with
the GIL released, so several threads analyse in parallel. ``pytest
--regexguard`` (robotscan.pytest_plugin) applies it to every pattern a test
run compiles.
"""

from __future__ import annotations

import re
from typing import Union

from robotscan._robotscan import Attack, RegexAnalysis, _analyze_regex

__all__ = ["Attack", "RegexAnalysis", "analyze", "flag_letters"]

# re flags that change what a pattern matches, as regexguard's letters.
# re.ASCII/UNICODE/LOCALE change classes, not backtracking structure;
# re.DEBUG only prints.
_RE_FLAG_LETTERS = (
    (re.IGNORECASE, "i"),
    (re.MULTILINE, "m"),
    (re.DOTALL, "s"),
    (re.VERBOSE, "x"),
)


def flag_letters(flags: Union[int, str]) -> str:
    """regexguard's flag letters for ``re`` flags (``re.I | re.M`` -> ``'im'``).

    A ``str`` is returned unchanged (already letters among ``imsxug``).
    """
    if isinstance(flags, str):
        return flags
    if isinstance(flags, bool) or not isinstance(flags, int):
        raise TypeError(f"flags must be int (re flags) or str (letters), not {type(flags).__name__}")
    return "".join(letter for flag, letter in _RE_FLAG_LETTERS if flags & flag)


def analyze(
    pattern: Union[str, bytes, "re.Pattern[str]", "re.Pattern[bytes]"],
    dialect: str = "python",
    *,
    flags: Union[int, str] = 0,
    anchored: bool = False,
    timeout: float = 1.0,
) -> RegexAnalysis:
    """Analyses one pattern; returns a :class:`RegexAnalysis`.

    ``pattern`` is a str, bytes (read as Latin-1, one character per byte, as
    ``re`` reads bytes patterns) or a compiled ``re.Pattern`` (its pattern
    and flags are used). ``dialect``: python (default), pcre, javascript,
    java, ruby, go, dotnet. ``flags``: ``re`` flags or letters ``imsxug``
    (``g``: the pattern is used for all matches, as with ``re.sub``).
    ``anchored``: analyse ``re.match`` instead of ``re.search``.
    ``timeout``: seconds for this pattern; running out gives ``'unknown'``.

    Raises ValueError for an invalid pattern, dialect or flag, TypeError for
    arguments of the wrong type.
    """
    if isinstance(pattern, re.Pattern):
        if not flags:
            flags = pattern.flags
        pattern = pattern.pattern
    if isinstance(pattern, bytes):
        pattern = pattern.decode("latin-1")
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be str, bytes or re.Pattern, not {type(pattern).__name__}")
    if not isinstance(dialect, str):
        raise TypeError(f"dialect must be str, not {type(dialect).__name__}")
    if isinstance(anchored, bool) is False:
        raise TypeError(f"anchored must be bool, not {type(anchored).__name__}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
    return _analyze_regex(pattern, dialect, flag_letters(flags), anchored, float(timeout))
