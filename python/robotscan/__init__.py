"""robotscan: robots.txt matching, crawl analysis and ReDoS checks for Python.

The matcher is robotscan's C++ robots library: RFC 9309 exactly (``compat=
"rfc"``, the default) or byte-for-byte Google's open-source parser
(``compat="google"``), and it says which line decided::

    import robotscan
    robots = robotscan.RobotsTxt.parse(body)          # bytes or str, once per site
    robots.check("MyBot", "https://example.com/x")    # CheckResult(allowed=..., line=..., rule=...)
    robots.check_many("MyBot", urls)                  # one native call, GIL released

Modules:

* :mod:`robotscan.robotparser` -- drop-in ``RobotFileParser`` with
  ``urllib.robotparser``'s interface.
* :mod:`robotscan.crawl` -- :func:`open_crawl` for ``robotscan crawl``
  databases (pandas DataFrames when pandas is installed).
* :mod:`robotscan.regexguard` -- the ReDoS analyser; ``pytest --regexguard``.

Every object is immutable and thread-safe. See docs/python.md.
"""

from robotscan._robotscan import (
    AccessPolicy,
    CheckResult,
    CleanParam,
    Diagnostic,
    Group,
    RequestRate,
    RobotsTxt,
    Rule,
    UnknownDirective,
    VisitTime,
    __version__,
    is_valid_product_token,
    lint,
    policy_for_http,
    product_token,
)
from robotscan.crawl import CrawlDatabase, open_crawl

__all__ = [
    "AccessPolicy",
    "CheckResult",
    "CleanParam",
    "CrawlDatabase",
    "Diagnostic",
    "Group",
    "RequestRate",
    "RobotsTxt",
    "Rule",
    "UnknownDirective",
    "VisitTime",
    "__version__",
    "is_valid_product_token",
    "lint",
    "open_crawl",
    "policy_for_http",
    "product_token",
]
