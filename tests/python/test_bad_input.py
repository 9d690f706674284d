"""Bad input: a Python exception with a clear message, or a defined answer; never a crash."""

import pytest

import robotscan
from robotscan import RobotsTxt, robotparser

NOT_UTF8 = b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /\xff\xfe\nAllow: /ok\n"


def test_bytes_that_are_not_utf8_are_matched_as_bytes():
    robots = RobotsTxt.parse(NOT_UTF8)
    rules = robots.groups[0].rules
    # Undecodable bytes come back as surrogates (surrogateescape), round-trip.
    assert [r.pattern.encode("utf-8", "surrogateescape") for r in rules] == [b"/caf\xe9", b"/\xff\xfe", b"/ok"]
    assert repr(rules[0]) == "Rule(disallow: '/caf\\udce9', line=2)"
    # RFC mode percent-encodes the rule's bytes, so the URL's %E9 matches.
    assert not robots.is_allowed("bot", "/caf%E9")
    assert not robots.is_allowed("bot", b"/caf\xe9/x")
    assert robots.is_allowed("bot", "/ok")
    result = robots.check("bot", b"/caf\xe9")
    assert result.pattern.encode("utf-8", "surrogateescape") == b"/caf\xe9"
    assert hash(result) == hash(robots.check("bot", "/caf%E9"))
    # Messages quoting the file always print: U+FFFD for undecodable bytes.
    messages = [d.message for d in robotscan.lint(b"User-agent: *\nDisalow\xe9: /x\n")]
    assert messages and all("\udce9" not in m for m in messages)
    "".join(messages).encode("utf-8")


def test_nul_bytes_end_the_line_as_for_google():
    robots = RobotsTxt.parse(b"User-agent: *\nDisallow: /a\x00b\nDisallow: /c\n\x00\x00\n")
    assert [r.pattern for r in robots.groups[0].rules] == ["/a", "/c"]
    assert not robots.is_allowed("bot", "/c") and not robots.is_allowed("bot", "/a")
    assert robots.is_allowed("bot", "/b")
    assert [d.code for d in robotscan.lint(b"User-agent: *\nDisallow: /a\x00b\n")] == ["nul-byte"]
    assert RobotsTxt.parse(b"\x00" * 1000).is_allowed("bot", "/")
    assert robots.is_allowed("bot\x00", "/c") is False  # the agent is just bytes: '*' applies
    with pytest.raises(ValueError, match=r"cannot check URL '/a\\x00b'"):
        robots.check("bot", "/a\x00b")


def test_ten_megabyte_bodies_are_cut_at_the_parse_limit():
    rule_lines = b"User-agent: *\nDisallow: /first\n" + b"Disallow: /filler\n" * 600_000
    assert len(rule_lines) > 10_000_000
    body = rule_lines + b"Disallow: /last\n"
    robots = RobotsTxt.parse(body)
    assert robots.body_bytes == len(body)
    assert 0 < robots.ignored_bytes < len(body) - 500 * 1024 + 100
    assert not robots.is_allowed("bot", "/first")
    assert robots.is_allowed("bot", "/last")  # past the 500 KiB limit (RFC 9309 §2.5)
    bigger = RobotsTxt.parse(body, max_body_bytes=len(body))
    assert bigger.ignored_bytes == 0 and not bigger.is_allowed("bot", "/last")
    assert any(d.severity == "error" for d in robotscan.lint(body))
    # 0 is no limit, as `robotscan check --max-bytes 0` (it used to be 500 KiB).
    whole = RobotsTxt.parse(body, max_body_bytes=0)
    assert whole.ignored_bytes == 0 and not whole.is_allowed("bot", "/last")
    assert "size-limit" not in [d.code for d in robotscan.lint(body, max_body_bytes=0)]
    assert "size-limit" in [d.code for d in robotscan.lint(body, max_body_bytes=1)]
    policy = robotscan.policy_for_http(200, body, max_body_bytes=0)
    assert policy.robots.ignored_bytes == 0 and not policy.robots.is_allowed("bot", "/last")
    assert robotscan.policy_for_http(200, body).robots.is_allowed("bot", "/last")
    one_line = b"User-agent: *\nDisallow: /" + b"x" * 10_000_000
    assert RobotsTxt.parse(one_line).is_allowed("bot", "/y")


def test_non_string_agents_and_urls_raise_type_error():
    robots = RobotsTxt.parse("User-agent: *\nDisallow: /\n")
    for bad in (None, 5, 3.5, ["a"], object()):
        with pytest.raises(TypeError, match=f"agent must be str or bytes, not {type(bad).__name__}"):
            robots.check(bad, "/")
        with pytest.raises(TypeError, match="agent must be str or bytes"):
            robots.is_allowed(bad, "/")
        with pytest.raises(TypeError, match="agent must be str or bytes"):
            robots.check_many(bad, ["/"])
        with pytest.raises(TypeError, match="agent must be str or bytes"):
            robots.crawl_delay(bad)
        with pytest.raises(TypeError, match=f"url must be str or bytes, not {type(bad).__name__}"):
            robots.check("bot", bad)
    with pytest.raises(TypeError, match=r"urls\[1\] must be str or bytes, not NoneType"):
        robots.check_many("bot", ["/", None])
    with pytest.raises(TypeError, match="urls must be an iterable of URLs, not a single str"):
        robots.check_many("bot", "/abc")
    with pytest.raises(TypeError, match="urls must be an iterable of str or bytes, not int"):
        robots.check_many("bot", 42)
    with pytest.raises(TypeError, match="body must be str, bytes or a bytes-like object, not int"):
        RobotsTxt.parse(12)
    with pytest.raises(TypeError):
        RobotsTxt.parse(b"", compat=None)


def test_strings_without_utf8_form_raise_unicode_errors():
    robots = RobotsTxt.parse("User-agent: *\nDisallow: /x\n")
    with pytest.raises(UnicodeEncodeError):
        robots.check("bot\ud800", "/")
    with pytest.raises(UnicodeEncodeError):
        robots.check_many("bot", ["/", "/\udfff"])
    with pytest.raises(UnicodeEncodeError):
        RobotsTxt.parse("User-agent: *\nDisallow: /\ud800\n")


def test_uncheckable_urls_are_refused_with_their_index():
    robots = RobotsTxt.parse("User-agent: *\nDisallow: /x\n")
    with pytest.raises(ValueError, match=r"cannot check URL '/a b': space at offset 2"):
        robots.check("bot", "/a b")
    with pytest.raises(ValueError, match=r"urls\[2\]: cannot check URL '/\\x7F': control byte 0x7F at offset 1"):
        robots.check_many("bot", ["/x", "/y", "/\x7f", "/z"])
    assert robots.is_allowed("bot", "") and not robots.is_allowed("bot", "//host/x")
    # The drop-in answers like urllib (which percent-encodes such URLs).
    parser = robotparser.RobotFileParser()
    parser.parse(["User-agent: *", "Disallow: /a b"])
    assert parser.can_fetch("bot", "/a b/c") is False


def test_other_body_types_and_arguments():
    body = b"User-agent: *\nDisallow: /x\n"
    for form in (bytearray(body), memoryview(body), body.decode()):
        assert not RobotsTxt.parse(form).is_allowed("bot", "/x")
    assert RobotsTxt.parse(b"").is_allowed("bot", "/x")
    with pytest.raises(ValueError, match="max_body_bytes must not be negative"):
        RobotsTxt.parse(body, max_body_bytes=-1)
    with pytest.raises(ValueError, match="max_body_bytes must not be negative"):
        robotscan.lint(body, max_body_bytes=-1)
    huge_url = "/" + "a" * 5_000_000
    assert robotscan.RobotsTxt.parse("User-agent: *\nDisallow: /a*a$\n").is_allowed("bot", huge_url) is False


def test_hostile_files_answer_in_bounded_time():
    """40,000 wildcard rules and an 8 KB URL: answered (the library bounds each check)."""
    body = "User-agent: *\n" + "".join(f"Disallow: /*a*b*c*{i}$\n" for i in range(40_000))
    robots = RobotsTxt.parse(body)
    url = "/" + "abc" * 2700
    assert robots.check_many("bot", [url] * 20, as_numpy=False) == [True] * 20


def test_drop_in_bad_input():
    parser = robotparser.RobotFileParser()
    parser.parse([b"User-agent: *", b"Disallow: /caf\xe9"])  # urllib would need str lines
    assert parser.can_fetch("bot", "/caf%E9") is False
    with pytest.raises(TypeError, match="robots.txt lines must be str or bytes, not int"):
        parser.parse(["User-agent: *", 5])
    with pytest.raises(TypeError, match="useragent must be str or bytes, not NoneType"):
        parser.can_fetch(None, "/")
    with pytest.raises(TypeError, match="useragent must be str or bytes, not int"):
        parser.crawl_delay(3)
