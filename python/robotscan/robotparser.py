"""A drop-in for :mod:`urllib.robotparser`, answered by robotscan's matcher.

Replace ``import urllib.robotparser`` with ``from robotscan import
robotparser`` and existing code keeps working: :class:`RobotFileParser` has
the same methods (``set_url``, ``read``, ``parse``, ``can_fetch``,
``crawl_delay``, ``request_rate``, ``site_maps``, ``mtime``, ``modified``),
attributes (``url``, ``host``, ``path``, ``last_checked``, ``allow_all``,
``disallow_all``) and ``str()`` form, and :data:`RequestRate` *is*
``urllib.robotparser.RequestRate``.

The answers follow RFC 9309, where urllib.robotparser does not
(docs/python.md lists each case of CPython's own test suite that differs and
the RFC section):

* the longest matching rule wins, ``allow`` on ties (urllib: the first rule
  in the file that matches);
* ``*`` and ``$`` in rules are wildcards (urllib: literal characters);
* all groups naming an agent are merged, also several ``User-agent: *``
  groups (urllib: the first one only);
* an agent is matched by its product token, case-insensitively and exactly
  (``Googlebot-Mobile`` is not ``Googlebot``; urllib: substring match);
* ``read()``: 401 and 403 are 4xx like any other, so everything is allowed
  (RFC 9309 §2.3.1.3; urllib disallows everything); 5xx disallows everything
  (§2.3.1.4); bodies that are not UTF-8 are read as bytes (urllib raises
  ``UnicodeDecodeError``);
* ``/robots.txt`` itself is always allowed (§2.2.2).

``Crawl-delay`` values may be fractional (``0.5``); integral values are
returned as ``int``, as urllib does.

Thread-safety: ``can_fetch`` and the other queries may be called from any
number of threads; ``read``/``parse`` replace the parsed file atomically.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Iterable, List, Optional, Union
from urllib.robotparser import RequestRate

from robotscan._robotscan import RobotsTxt, _can_fetch_for, policy_for_http, product_token

__all__ = ["RobotFileParser", "RequestRate"]


def _number(value: float) -> Union[int, float]:
    """``3.0`` as ``3`` (urllib's type for integral values), else the float."""
    return int(value) if float(value).is_integer() else value


class RobotFileParser:
    """Reads, parses and answers questions about one robots.txt.

    Same interface as :class:`urllib.robotparser.RobotFileParser`; the
    matching is robotscan's (RFC 9309 by default; ``compat="google"`` for
    Google's reading).
    """

    def __init__(self, url: str = "", *, compat: str = "rfc") -> None:
        """Prepares a parser for the robots.txt at ``url`` (see set_url)."""
        self._compat = compat
        self._robots = RobotsTxt.parse(b"", compat)
        self._disallow_all = False
        self._allow_all = False
        self._last_checked = 0.0
        self.set_url(url)

    # can_fetch's fast path: while the answer comes from the parsed file
    # (read or parsed, neither allow_all nor disallow_all), the instance's
    # can_fetch is a native callable over it, which skips this class's Python
    # frame (a third of the per-call cost). Any change of the state below
    # re-decides, so assigning the attributes directly, as urllib allows,
    # keeps working.
    def _update_fast_path(self) -> None:
        if self._last_checked and not self._allow_all and not self._disallow_all:
            self.can_fetch = _can_fetch_for(self._robots)
        else:
            self.__dict__.pop("can_fetch", None)

    @property
    def allow_all(self) -> bool:
        """True when the robots.txt was unavailable (4xx): every URL is allowed."""
        return self._allow_all

    @allow_all.setter
    def allow_all(self, value: bool) -> None:
        self._allow_all = value
        self._update_fast_path()

    @property
    def disallow_all(self) -> bool:
        """True when the robots.txt was unreachable (5xx): no URL is allowed."""
        return self._disallow_all

    @disallow_all.setter
    def disallow_all(self, value: bool) -> None:
        self._disallow_all = value
        self._update_fast_path()

    @property
    def last_checked(self) -> float:
        """time.time() of the last successful read or parse, 0 if none."""
        return self._last_checked

    @last_checked.setter
    def last_checked(self, value: float) -> None:
        self._last_checked = value
        self._update_fast_path()

    def mtime(self) -> float:
        """When the robots.txt was last fetched or parsed (time.time()), 0 if never."""
        return self.last_checked

    def modified(self) -> None:
        """Sets the time the robots.txt was last fetched to now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Sets the URL of the robots.txt and its ``host`` and ``path``."""
        self.url = url
        self.host, self.path = urllib.parse.urlparse(url)[1:3]

    def read(self, timeout: Optional[float] = None) -> None:
        """Fetches ``self.url`` with urllib.request and applies RFC 9309 §2.3.1.

        2xx: the body is parsed (as bytes). 4xx, 401 and 403 included, and
        redirect chains urllib gives up on: everything is allowed
        (``allow_all``). 5xx: everything is disallowed (``disallow_all``).
        Network errors raise ``urllib.error.URLError`` as in urllib; until a
        read or parse succeeds, ``can_fetch`` answers False.
        ``timeout`` (seconds) is passed to urlopen (urllib has none).
        """
        try:
            if timeout is None:
                response = urllib.request.urlopen(self.url)
            else:
                response = urllib.request.urlopen(self.url, timeout=timeout)
        except urllib.error.HTTPError as err:
            status = err.code
            err.close()
            self._apply_policy(status, b"", redirects_unresolved=300 <= status < 400)
            return
        with response:
            body = response.read()
            status = response.status or 200
        self._apply_policy(status, body)

    def _apply_policy(self, status: int, body: bytes, redirects_unresolved: bool = False) -> None:
        policy = policy_for_http(
            status, body, redirects_unresolved=redirects_unresolved, compat=self._compat
        )
        self.allow_all = policy.access == "unavailable"
        self.disallow_all = policy.access == "unreachable"
        if policy.access == "success":
            self._robots = policy.robots
            self.modified()
        self._update_fast_path()

    def parse(self, lines: Union[Iterable[str], Iterable[bytes], str, bytes]) -> None:
        """Parses robots.txt lines (an iterable of str or bytes, as urllib takes).

        A whole body as one ``str`` or ``bytes`` is accepted too.
        """
        if isinstance(lines, (str, bytes)):
            body = lines
        else:
            body = b"\n".join(_line_bytes(line).rstrip(b"\r\n") for line in lines)
        self._robots = RobotsTxt.parse(body, self._compat)
        self.modified()
        self._update_fast_path()

    def can_fetch(self, useragent: str, url: str) -> bool:
        """May ``useragent`` fetch ``url``? (RFC 9309 matching.)

        ``useragent`` may be a whole User-Agent value; its product token (the
        leading run of letters, ``_`` and ``-``) names the group, as RFC 9309
        §2.2.1 says. False until the file was read or parsed.
        """
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        if not self.last_checked:
            return False
        return self._robots._can_fetch(useragent, url)

    def crawl_delay(self, useragent: str) -> Optional[Union[int, float]]:
        """Crawl-delay (seconds) for ``useragent``'s group, or None."""
        if not self.mtime():
            return None
        delay = self._robots.crawl_delay(_agent_token(useragent))
        return None if delay is None else _number(delay)

    def request_rate(self, useragent: str) -> Optional[RequestRate]:
        """Request-rate for ``useragent``'s group as ``RequestRate(requests, seconds)``, or None."""
        if not self.mtime():
            return None
        rate = self._robots.request_rate(_agent_token(useragent))
        if rate is None:
            return None
        return RequestRate(_number(rate.requests), _number(rate.seconds))

    def site_maps(self) -> Optional[List[str]]:
        """Sitemap URLs in file order, or None when there are none."""
        sitemaps = self._robots.sitemaps
        return sitemaps if sitemaps else None

    def __str__(self) -> str:
        """The groups as urllib prints them: named agents first, ``*`` groups last."""
        groups = self._robots.groups
        named = [g for g in groups if "*" not in g.tokens]
        default = [g for g in groups if "*" in g.tokens]
        return "\n\n".join(_format_group(g) for g in named + default)


def _line_bytes(line: Union[str, bytes]) -> bytes:
    if isinstance(line, bytes):
        return line
    if isinstance(line, str):
        return line.encode("utf-8")
    raise TypeError(f"robots.txt lines must be str or bytes, not {type(line).__name__}")


def _agent_token(useragent: str) -> str:
    if not isinstance(useragent, (str, bytes)):
        raise TypeError(f"useragent must be str or bytes, not {type(useragent).__name__}")
    token = product_token(useragent)
    return token if token else useragent


def _format_group(group) -> str:
    lines = [f"User-agent: {agent}" for agent in group.agents]
    if group.crawl_delay is not None:
        lines.append(f"Crawl-delay: {_number(group.crawl_delay)}")
    if group.request_rate is not None:
        rate = group.request_rate
        lines.append(f"Request-rate: {_number(rate.requests)}/{_number(rate.seconds)}")
    for rule in group.rules:
        lines.append(("Allow" if rule.kind == "allow" else "Disallow") + ": " + rule.pattern)
    return "\n".join(lines)
