"""robotscan.robotparser: urllib.robotparser's interface, RFC 9309's answers.

CPython's own test_robotparser runs against it separately
(cpython_test_robotparser.py); these tests cover what that suite does not:
read() over HTTP for each status class, bytes, agents given as whole
User-Agent values, value types, and agreement with urllib.robotparser on
files where urllib is right.
"""

import time
import urllib.error
import urllib.robotparser

import pytest

from robotscan import robotparser
from conftest import Answer

FILE = """\
User-agent: figtree
Crawl-delay: 3
Request-rate: 9/30
Disallow: /tmp

User-agent: *
Crawl-delay: 0.5
Disallow: /private
Allow: /private/ok
Disallow: /*.pdf$
Sitemap: https://example.com/s.xml
"""


def parsed(text=FILE, **kwargs):
    parser = robotparser.RobotFileParser(**kwargs)
    parser.parse(text.splitlines())
    return parser


def test_same_interface_as_urllib():
    names = [n for n in dir(urllib.robotparser.RobotFileParser) if not n.startswith("_")]
    ours = robotparser.RobotFileParser()
    missing = [n for n in names if not hasattr(ours, n)]
    assert missing == []
    for attribute in ("url", "host", "path", "last_checked", "allow_all", "disallow_all"):
        assert hasattr(ours, attribute)
    assert robotparser.RequestRate is urllib.robotparser.RequestRate
    assert robotparser.__all__ == ["RobotFileParser", "RequestRate"]


def test_nothing_is_allowed_before_reading():
    parser = robotparser.RobotFileParser("http://127.0.0.1:9/robots.txt")
    assert (parser.host, parser.path) == ("127.0.0.1:9", "/robots.txt")
    assert parser.mtime() == 0
    assert parser.can_fetch("bot", "/") is False  # as urllib: not read yet
    assert parser.crawl_delay("bot") is None and parser.request_rate("bot") is None


def test_rfc_answers_where_urllib_differs():
    parser = parsed()
    ours_vs_urllib = [
        ("bot", "/private/ok/x", True),  # longest match (urllib: first match, False)
        ("bot", "/doc/a.pdf", False),  # wildcards (urllib: literal '*')
        ("bot", "/doc/a.pdf?x", True),  # '$' anchors the end
        ("FigTree Robot libwww-perl/5.04", "/tmp/x", False),  # product token
        ("figtreebot", "/tmp/x", True),  # exact token: figtree's group does not apply
        ("figtreebot", "/private/x", False),
    ]
    for agent, url, allowed in ours_vs_urllib:
        assert parser.can_fetch(agent, url) is allowed, (agent, url)


def test_values_have_urllibs_types():
    parser = parsed()
    assert parser.crawl_delay("figtree") == 3 and type(parser.crawl_delay("figtree")) is int
    assert parser.crawl_delay("other") == 0.5  # fractional delays are kept
    rate = parser.request_rate("FigTree/1.0")
    assert rate == urllib.robotparser.RequestRate(9, 30) and type(rate.requests) is int
    assert parser.request_rate("other") is None
    assert parser.site_maps() == ["https://example.com/s.xml"]
    assert parsed("User-agent: *\nDisallow: /\n").site_maps() is None


def test_str_lists_named_groups_then_star():
    assert str(parsed()) == (
        "User-agent: figtree\nCrawl-delay: 3\nRequest-rate: 9/30\nDisallow: /tmp\n\n"
        "User-agent: *\nCrawl-delay: 0.5\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$"
    )


def test_parse_accepts_lines_of_bytes_or_a_whole_body():
    for form in (FILE, FILE.encode(), FILE.encode().splitlines(), [line + "\n" for line in FILE.splitlines()]):
        parser = robotparser.RobotFileParser()
        before = time.time()
        parser.parse(form)
        assert parser.mtime() >= before
        assert parser.can_fetch("bot", "/private/x") is False
        assert parser.can_fetch("bot", "/public") is True


def test_google_compat():
    body = ["User-agent: *", "Disallow: /%7Ejoe", "Disallow: /"]
    assert parsed("\n".join(body)).can_fetch("bot", "/robots.txt") is True  # RFC 9309 §2.2.2
    assert parsed("\n".join(body), compat="google").can_fetch("bot", "/robots.txt") is False


def read_from(server, path):
    parser = robotparser.RobotFileParser(server.url(path))
    parser.read(timeout=10)
    return parser


def test_read_2xx_parses_the_body_as_bytes(loopback_server):
    loopback_server.routes["/ok/robots.txt"] = Answer(200, b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /x\n")
    parser = read_from(loopback_server, "/ok/robots.txt")  # urllib: UnicodeDecodeError
    assert parser.mtime() > 0 and not parser.allow_all and not parser.disallow_all
    assert parser.can_fetch("bot", "/x") is False
    assert parser.can_fetch("bot", "/caf%E9") is False
    assert parser.can_fetch("bot", "/y") is True


@pytest.mark.parametrize(
    "status, allow_all, disallow_all",
    [(404, True, False), (401, True, False), (403, True, False), (410, True, False), (500, False, True), (503, False, True)],
)
def test_read_error_statuses_follow_rfc_9309(loopback_server, status, allow_all, disallow_all):
    loopback_server.routes["/e/robots.txt"] = Answer(status, b"User-agent: *\nAllow: /\n")
    parser = read_from(loopback_server, "/e/robots.txt")
    assert (parser.allow_all, parser.disallow_all) == (allow_all, disallow_all)
    assert parser.can_fetch("bot", "/anything") is allow_all
    assert parser.mtime() == 0  # as urllib: only a parsed file sets it


def test_read_follows_redirects_and_rereads(loopback_server):
    loopback_server.routes["/moved/robots.txt"] = Answer(301, b"", {"Location": "/new/robots.txt"})
    loopback_server.routes["/new/robots.txt"] = Answer(200, b"User-agent: *\nDisallow: /new-rule\n")
    parser = read_from(loopback_server, "/moved/robots.txt")
    assert parser.can_fetch("bot", "/new-rule") is False
    loopback_server.routes["/flaky/robots.txt"] = Answer(503)
    parser = read_from(loopback_server, "/flaky/robots.txt")
    assert parser.disallow_all
    loopback_server.routes["/flaky/robots.txt"] = Answer(200, b"User-agent: *\nDisallow: /a\n")
    parser.read()
    assert not parser.disallow_all and parser.can_fetch("bot", "/b") and not parser.can_fetch("bot", "/a")
    loopback_server.routes["/loop/robots.txt"] = Answer(302, b"", {"Location": "/loop/robots.txt"})
    looped = read_from(loopback_server, "/loop/robots.txt")
    assert looped.allow_all  # an unresolved redirect is "unavailable" (§2.3.1.2)


def test_read_network_errors_raise_like_urllib(loopback_server):
    url = loopback_server.url("/robots.txt")
    loopback_server.close()
    parser = robotparser.RobotFileParser(url)
    with pytest.raises(urllib.error.URLError):
        parser.read(timeout=5)
    assert parser.can_fetch("bot", "/") is False  # unreachable: nothing allowed
    # The fixture's close() runs again at teardown; make it harmless.
    loopback_server.close = lambda: None


def test_agrees_with_urllib_where_urllib_follows_the_rfc():
    """Files without wildcards, overlapping rules or repeated groups: the same answers."""
    text = "User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /private\nDisallow: /tmp/\n"
    ours, theirs = parsed(text), urllib.robotparser.RobotFileParser()
    theirs.parse(text.splitlines())
    urls = ["/", "/x", "/x/y", "/private", "/private/1", "/tmp", "/tmp/", "/tmp/a", "/public?q=1"]
    for agent in ("a", "A", "b", "*"):
        for url in urls:
            assert ours.can_fetch(agent, url) == theirs.can_fetch(agent, url), (agent, url)
            assert ours.can_fetch(agent, "https://h.example" + url) == theirs.can_fetch(agent, "https://h.example" + url)


def test_native_fast_path_answers_like_the_method(realistic_body):
    parser = robotparser.RobotFileParser()
    parser.parse(realistic_body.splitlines())
    assert type(parser.can_fetch).__name__ == "_CanFetch"  # installed once parsed
    urls = ["/", "/ajax/x", "/search?q=1", "/homes/1_rb/", "/itm/1", "/b/x?_nkw=1"]
    for agent in ("Googlebot", "googlebot/2.1 (+http://www.google.com/bot.html)", "*", "Other", b"bingbot"):
        for url in urls:
            assert parser.can_fetch(agent, url) == robotparser.RobotFileParser.can_fetch(parser, agent, url)
    with pytest.raises(TypeError, match="exactly 2 positional arguments"):
        parser.can_fetch("a")
    with pytest.raises(TypeError, match="url must be str or bytes, not int"):
        parser.can_fetch("a", 1)
    parser.disallow_all = True  # urllib code may set the flags itself
    assert parser.can_fetch("Googlebot", "/") is False
    parser.disallow_all = False
    parser.allow_all = True
    assert parser.can_fetch("Googlebot", "/ajax/x") is True
    parser.allow_all = False
    assert parser.can_fetch("Googlebot", "/ajax/x") is False
    parser.last_checked = 0
    assert parser.can_fetch("Googlebot", "/") is False
