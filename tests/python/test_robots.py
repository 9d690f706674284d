"""robotscan.RobotsTxt, lint, policy_for_http and the token helpers."""

import copy
import json
import random
import subprocess
import sys

import pytest

import robotscan
from robotscan import RobotsTxt
from conftest import REALISTIC_BODY_PATH, run_robotscan

BODY = b"""\
User-agent: *
Disallow: /private
Allow: /private/ok
Crawl-delay: 2.5
Request-rate: 3/15s
Visit-time: 0600-0845
Clean-param: ref&utm /shop
Host: mirror.example.com

User-agent: Googlebot
Disallow: /*.pdf$
Disallow: /search

Sitemap: https://example.com/sitemap.xml
Sitemap: https://example.com/news.xml
Noindex: /x
"""


@pytest.fixture(scope="module")
def robots():
    return RobotsTxt.parse(BODY)


def test_check_names_the_deciding_line(robots):
    result = robots.check("MyBot", "https://example.com/private/x")
    assert result.allowed is False
    assert (result.line, result.kind, result.pattern) == (2, "disallow", "/private")
    assert result.rule == "disallow: /private"
    assert result.reason == "rule"
    assert result.used_global_group is True

    longest = robots.check("MyBot", "/private/ok/1")
    assert longest.allowed and longest.line == 3 and longest.rule == "allow: /private/ok"

    none = robots.check("MyBot", "/public")
    assert none.allowed and none.line == 0 and none.rule is None and none.kind is None
    assert none.reason == "no-matching-rule"
    assert repr(result) == "CheckResult(allowed=False, line=2, rule='disallow: /private', reason='rule')"
    assert robots.check("MyBot", "/private/x") == result
    assert hash(robots.check("MyBot", "/private/x")) == hash(result)


def test_named_group_replaces_star_and_wildcards_apply(robots):
    assert robots.is_allowed("googlebot", "/private/x")  # its own group, no /private rule
    assert not robots.is_allowed("Googlebot", "/doc/a.pdf")
    assert robots.is_allowed("Googlebot", "/doc/a.pdf?x=1")  # `$` anchors the end
    assert not robots.is_allowed("Googlebot", "https://example.com/search?q=1")
    assert robots.has_group_for("GOOGLEBOT") and not robots.has_group_for("MyBot")


def test_robots_txt_path_and_reasons():
    robots = RobotsTxt.parse("User-agent: *\nDisallow: /\n")
    assert robots.check("a", "/robots.txt").reason == "robots-txt-path"  # RFC 9309 §2.2.2
    google = RobotsTxt.parse("User-agent: *\nDisallow: /\n", "google")
    assert not google.is_allowed("a", "/robots.txt")
    assert RobotsTxt.parse("User-agent: other\nDisallow: /\n").check("a", "/").reason == "no-group"
    assert RobotsTxt().is_allowed("a", "/anything")
    assert RobotsTxt.allow_all().check("a", "/").reason == "allow-all"
    assert RobotsTxt.disallow_all("google").check("a", "/").reason == "disallow-all"
    assert RobotsTxt.disallow_all().compat == "rfc"


def test_compat_modes_differ_where_the_rfc_says():
    body = "User-agent: *\nDisallow: /%7Ejoe\n"
    assert not RobotsTxt.parse(body, "rfc").is_allowed("a", "/~joe/x")  # §2.2.3: %7E is ~
    assert RobotsTxt.parse(body, "google").is_allowed("a", "/~joe/x")
    assert RobotsTxt.parse(body, compat="rfc9309").compat == "rfc"
    with pytest.raises(ValueError, match="compat must be 'rfc', 'rfc9309', 'google' or 'urllib', not 'urlib'"):
        RobotsTxt.parse(body, "urlib")


def test_extensions(robots):
    assert robots.crawl_delay("MyBot") == 2.5
    assert robots.crawl_delay("Googlebot") is None
    rate = robots.request_rate("MyBot")
    assert (rate.requests, rate.seconds, rate.line) == (3.0, 15.0, 5)
    assert rate == robots.request_rate("other")
    assert robots.request_rate("Googlebot") is None
    visit = robots.visit_time("MyBot")
    assert (visit.start_minute, visit.end_minute) == (6 * 60, 8 * 60 + 45)
    (clean,) = robots.clean_params("MyBot")
    assert (clean.params, clean.path_prefix, clean.line) == (["ref", "utm"], "/shop", 7)
    assert robots.clean_params("Googlebot") == []
    assert robots.sitemaps == ["https://example.com/sitemap.xml", "https://example.com/news.xml"]
    assert robots.hosts == ["mirror.example.com"]
    assert [(u.key, u.value) for u in robots.unknown_directives] == [("Noindex", "/x")]


def test_groups_and_file_facts(robots):
    groups = robots.groups
    assert [g.agents for g in groups] == [["*"], ["Googlebot"]]
    assert groups[1].tokens == ["googlebot"]
    assert [(r.kind, r.line, r.pattern) for r in groups[1].rules] == [
        ("disallow", 11, "/*.pdf$"),
        ("disallow", 12, "/search"),
    ]
    assert groups[0].crawl_delay == 2.5 and groups[0].crawl_delay_line == 4
    assert groups[0].hosts == ["mirror.example.com"]
    assert robots.body_bytes == len(BODY)
    assert robots.ignored_bytes == 0
    assert robots.line_count == BODY.count(b"\n") + 1  # as Google counts: the text after the last LF is a line
    assert robots.compat == "rfc"
    assert repr(robots).startswith("<RobotsTxt compat='rfc' groups=2")
    orphan = RobotsTxt.parse("Disallow: /x\nUser-agent: *\nAllow: /\n")
    assert [r.pattern for r in orphan.rules_outside_groups] == ["/x"]
    assert copy.copy(robots) is robots and copy.deepcopy(robots) is robots


def test_check_many_matches_check(realistic_body):
    robots = RobotsTxt.parse(realistic_body)
    rng = random.Random(7)
    urls = [f"https://www.example.com/{rng.choice(['ajax', 'b', 'homes', 'itm', 'x'])}/{i}" for i in range(500)]
    expected = [robots.is_allowed("Googlebot", u) for u in urls]
    assert 0 < sum(expected) < len(expected)  # both verdicts occur
    array = robots.check_many("Googlebot", urls)
    np = pytest.importorskip("numpy")
    assert isinstance(array, np.ndarray) and array.dtype == np.bool_
    assert array.tolist() == expected
    listed = robots.check_many("Googlebot", urls, as_numpy=False)
    assert type(listed) is list and listed == expected
    assert robots.check_many("Googlebot", iter(urls), as_numpy=False) == expected
    assert robots.check_many("Googlebot", tuple(u.encode() for u in urls), as_numpy=False) == expected
    assert robots.check_many("Googlebot", [], as_numpy=False) == []
    assert robots.check_many("Googlebot", []).shape == (0,)


class _Url(str):
    """A str subclass: check_many reads it the careful way, with the GIL."""


def test_check_many_reads_every_kind_of_url():
    """ASCII str, non-ASCII str, bytes and str subclasses in one batch, each as check answers it."""
    robots = RobotsTxt.parse("User-agent: *\nDisallow: /caf%C3%A9\nDisallow: /b\nAllow: /b/ok\n")
    kinds = [lambda u: u, lambda u: u.encode(), _Url]
    paths = ["/café", "/caf%C3%A9/x", "/b", "/b/ok", "/a", "/ßb", "/b/ok/é"]
    urls = [kind(p) for p in paths for kind in kinds]
    expected = [robots.is_allowed("bot", u) for u in urls]
    assert 0 < sum(expected) < len(expected)
    assert robots.check_many("bot", urls, as_numpy=False) == expected
    assert robots.check_many("bot", list(reversed(urls)), as_numpy=False) == expected[::-1]


def test_check_many_returns_a_list_without_numpy(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_numpy(name, *args, **kwargs):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("no numpy here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpy)
    monkeypatch.delitem(sys.modules, "numpy", raising=False)
    robots = RobotsTxt.parse("User-agent: *\nDisallow: /a\n")
    assert robots.check_many("x", ["/a", "/b"]) == [False, True]
    with pytest.raises(ImportError):
        robots.check_many("x", ["/a"], as_numpy=True)


@pytest.mark.parametrize("compat", ["rfc", "google"])
def test_same_answers_as_robotscan_check(robotscan_cli, tmp_path, compat, realistic_body):
    """The binding and `robotscan check --json` agree URL by URL on the realistic file."""
    urls_file = tmp_path / "urls.txt"
    urls = subprocess.run(
        [sys.executable, str(REALISTIC_BODY_PATH.parents[1] / "robots" / "make_urls.py"), str(REALISTIC_BODY_PATH), "3000"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.split()
    urls_file.write_text("\n".join(urls) + "\n")
    robots = RobotsTxt.parse(realistic_body, compat)
    for agent in ("Googlebot", "bingbot", "SomeBot"):
        out = run_robotscan(
            robotscan_cli, "check", "--robots-file", str(REALISTIC_BODY_PATH), "--user-agent", agent,
            "--compat", compat, "--json", "--urls-file", str(urls_file),
        )
        assert out.returncode in (0, 1), out.stderr
        lines = [json.loads(line) for line in out.stdout.splitlines()]
        assert len(lines) == len(urls)
        batch = robots.check_many(agent, urls, as_numpy=False)
        for line, allowed in zip(lines, batch):
            result = robots.check(agent, line["url"])
            rule = line["rule"]
            assert (result.allowed, result.line, result.reason) == (line["allowed"], line["line"], line["decision"]), line
            assert (result.kind, result.pattern) == ((rule["kind"], rule["pattern"]) if rule else (None, None))
            assert allowed == line["allowed"]


def test_lint_finds_what_robotscan_lint_finds(robotscan_cli, tmp_path):
    body = b"\xef\xbb\xbfDisallow: /early\nUser-agent: *\nDisalow: /typo\nCrawl-delay: x\n"
    diagnostics = robotscan.lint(body)
    assert [d.code for d in diagnostics]  # something to compare
    assert any(d.code == "typo" and d.line == 3 and d.severity == "warning" for d in diagnostics)
    path = tmp_path / "robots.txt"
    path.write_bytes(body)
    out = run_robotscan(robotscan_cli, "lint", "--json", str(path))
    cli = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert [(d.line, d.severity, d.code, d.message) for d in diagnostics] == [
        (c["line"], c["severity"], c["code"], c["message"]) for c in cli
    ]
    assert "Diagnostic(line=3, severity='warning', code='typo'" in repr(diagnostics[[d.code for d in diagnostics].index("typo")])
    assert robotscan.lint("User-agent: *\nDisallow: /\n") == []


@pytest.mark.parametrize(
    "status, kwargs, access",
    [
        (200, {}, "success"),
        (204, {}, "success"),
        (404, {}, "unavailable"),
        (401, {}, "unavailable"),
        (403, {}, "unavailable"),
        (429, {}, "unavailable"),
        (429, {"too_many_requests": "unreachable"}, "unreachable"),
        (500, {}, "unreachable"),
        (503, {}, "unreachable"),
        (0, {"network_error": True}, "unreachable"),
        (301, {"redirects_unresolved": True}, "unavailable"),
        (102, {}, "unreachable"),
        (-5, {}, "unreachable"),
        (10**30, {}, "unreachable"),
    ],
)
def test_policy_for_http(status, kwargs, access):
    body = b"User-agent: *\nDisallow: /x\n"
    policy = robotscan.policy_for_http(status, body, **kwargs)
    assert policy.access == access
    expected_x = {"success": False, "unavailable": True, "unreachable": False}[access]
    assert policy.robots.is_allowed("bot", "/x") is expected_x
    assert policy.robots.is_allowed("bot", "/y") is (access != "unreachable")
    assert repr(policy) == f"AccessPolicy(access='{access}')"


def test_policy_for_http_rejects_bad_arguments():
    with pytest.raises(TypeError, match="status must be int, not str"):
        robotscan.policy_for_http("200")
    with pytest.raises(TypeError, match="status must be int, not bool"):
        robotscan.policy_for_http(True)
    with pytest.raises(ValueError, match="too_many_requests must be 'unavailable'"):
        robotscan.policy_for_http(429, too_many_requests="google")
    assert robotscan.policy_for_http(200, "User-agent: *\nDisallow: /\n", compat="google").robots.compat == "google"


def test_product_tokens():
    assert robotscan.product_token("Googlebot/2.1 (+http://www.google.com/bot.html)") == "Googlebot"
    assert robotscan.product_token("Mozilla/5.0") == "Mozilla"
    assert robotscan.product_token("42bot") == ""
    assert robotscan.is_valid_product_token("Googlebot-Image")
    assert not robotscan.is_valid_product_token("Googlebot/2.1")
    assert not robotscan.is_valid_product_token("")
    with pytest.raises(TypeError, match="user_agent must be str or bytes, not int"):
        robotscan.product_token(5)


def test_group_structure_as_written():
    robots = RobotsTxt.parse("User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /%7Ejoe\nFoo: bar\n")
    first, second = robots.groups
    assert (first.agents, first.first_line, first.shares_rules_with_next) == (["a"], 1, True)
    assert (second.agents, second.first_line, second.shares_rules_with_next) == (["b"], 3, False)
    assert [(u.key, u.value, u.line) for u in second.unknown] == [("Foo", "bar", 5)]
    assert second.rules[0].pattern == "/%7Ejoe" and second.rules[0].match_pattern == "/~joe"  # RFC 9309 §2.2.3
    assert RobotsTxt.parse("User-agent: b\nDisallow: /%7Ejoe\n", "google").groups[0].rules[0].match_pattern == "/%7Ejoe"
    # Extensions stay with their group; rules are shared as Google groups them.
    assert (robots.crawl_delay("a"), robots.crawl_delay("b")) == (1.0, None)
    assert not robots.is_allowed("a", "/~joe") and not robots.is_allowed("b", "/~joe")


PREFERENCES_BODY = b"""\
License: https://example.com/license.xml
User-agent: *
Content-Usage: train-ai=n, search=y
Content-Usage: /blog/ train-ai=y
Content-Signal: search=yes, ai-train=no
Disallow: /private
"""


def test_preferences_as_the_drafts_read_them():
    robots = RobotsTxt.parse(PREFERENCES_BODY)
    p = robots.preferences("GPTBot", "https://example.com/page")
    assert p["crawl_allowed"] is True
    assert p["content_usage"] == {"search": "y", "train-ai": "n"}
    assert p["content_signal"] == {"ai-train": "no", "search": "yes"}
    assert p["license"] == "https://example.com/license.xml"
    assert p["lines"] == {"content_usage": {"search": 3, "train-ai": 3},
                          "content_signal": {"ai-train": 5, "search": 5},
                          "license": 1}
    # The longest matching path decides: train-ai=y under /blog/.
    blog = robots.preferences("GPTBot", "/blog/post")
    assert blog["content_usage"] == {"train-ai": "y"}
    assert blog["lines"]["content_usage"] == {"train-ai": 4}
    # Where the agent may not crawl, no preference applies.
    hidden = robots.preferences("GPTBot", "/private/x")
    assert hidden["crawl_allowed"] is False
    assert hidden["content_usage"] == {} and hidden["content_signal"] == {}
    # CPython's reading has none of these lines.
    urllib = RobotsTxt.parse(PREFERENCES_BODY, "urllib")
    assert urllib.preferences("GPTBot", "/page")["content_usage"] == {}
    with pytest.raises(ValueError):
        robots.preferences("GPTBot", "/a b")


def test_preferences_agree_with_check_json(robotscan_cli, tmp_path):
    """The same answers as `robotscan check --json` for the same file."""
    robots = RobotsTxt.parse(PREFERENCES_BODY)
    urls = ["https://example.com/page", "https://example.com/blog/x",
            "https://example.com/private/y"]
    path = tmp_path / "robots.txt"
    path.write_bytes(PREFERENCES_BODY)
    out = run_robotscan(robotscan_cli, "check", "--json", "--user-agent", "GPTBot",
                        "--robots-file", str(path), *urls)
    lines = out.stdout.decode().splitlines()
    assert len(lines) == len(urls), out.stderr
    for line, url in zip(lines, urls):
        checked = json.loads(line)
        p = robots.preferences("GPTBot", url)
        assert (checked.get("content_usage") or {}) == p["content_usage"], url
        assert (checked.get("content_signal") or {}) == p["content_signal"], url
        assert checked.get("license") == p["license"], url
