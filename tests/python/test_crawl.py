"""robotscan.open_crawl on databases written by the real `robotscan crawl`.

The crawler fetches from a loopback server (127.0.0.1, --connect-to) whose
answer depends on the Host header, so every row is known in advance. Two
crawl runs (the second re-crawls after ok.test changed its file) give the
history; a second database is written with --compress-bodies.
"""

import builtins
import json
import os
import pathlib
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading

import pytest

import robotscan
from conftest import Answer, LoopbackServer, run_robotscan

OK_V1 = b"User-agent: *\nDisallow: /private\nSitemap: https://ok.test/s.xml\n"
OK_V2 = b"User-agent: *\nDisallow: /private\nDisallow: /v2\n"
SHARED = b"User-agent: *\nDisallow: /cgi-bin/\n"
SITES = {
    "ok.test": Answer(200, OK_V1),
    "gone.test": Answer(404, b"not here"),
    "down.test": Answer(503, b"later"),
    "forbid.test": Answer(403, b"no"),
    "gptblock.test": Answer(200, b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
    "same1.test": Answer(200, SHARED),
    "same2.test": Answer(200, SHARED),
    "latin.test": Answer(200, b"User-agent: *\nDisallow: /caf\xe9\n"),
    "html.test": Answer(200, b"<html><body>hi</body></html>", {"Content-Type": "text/html"}),
}


def crawl(cli, server, db, top_list, *extra):
    out = run_robotscan(
        cli, "crawl", "--db", str(db), str(top_list), "--quiet", "--retries", "0", "--schemes", "http",
        "--timeout", "10s", "--connect-timeout", "5s", "--connect-to", f":80:127.0.0.1:{server.port}",
        "--allow-private-addresses", *extra,
    )
    assert out.returncode == 0, out.stderr.decode()


@pytest.fixture(scope="module")
def crawls(robotscan_cli, tmp_path_factory):
    """(plain database with two runs, compressed database with one run)."""
    directory = tmp_path_factory.mktemp("crawl")
    top_list = directory / "top.csv"
    top_list.write_text("".join(f"{rank},{host}\n" for rank, host in enumerate(SITES, start=1)))
    server = LoopbackServer()
    try:
        for host, answer in SITES.items():
            server.routes[f"{host}/robots.txt"] = answer
        plain, compressed = directory / "plain.sqlite", directory / "compressed.sqlite"
        crawl(robotscan_cli, server, compressed, top_list, "--compress-bodies")
        crawl(robotscan_cli, server, plain, top_list)
        server.routes["ok.test/robots.txt"] = Answer(200, OK_V2)
        crawl(robotscan_cli, server, plain, top_list, "--recrawl-older-than", "1ms")
    finally:
        server.close()
    return plain, compressed


def cli_report(cli, db, *args):
    out = run_robotscan(cli, "report", "--db", str(db), "--format", "json", *args)
    assert out.returncode == 0, out.stderr.decode()
    return json.loads(out.stdout)


def test_latest_fetch_as_a_data_frame(crawls):
    pandas = pytest.importorskip("pandas")
    frame = robotscan.open_crawl(crawls[0]).latest_fetch()
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == len(SITES)
    for column in ("domain", "rank", "url", "final_url", "http_status", "access", "error", "redirects",
                   "bytes", "truncated", "body", "fetched_at", "body_sha256"):
        assert column in frame.columns
    rows = frame.set_index("domain")
    assert rows.loc["ok.test", "body"] == OK_V2  # the newest fetch
    assert rows.loc["latin.test", "body"] == b"User-agent: *\nDisallow: /caf\xe9\n"
    assert rows.loc["gone.test", "body"] is None and rows.loc["gone.test", "http_status"] == 404
    assert dict(rows["access"]) == {
        "ok.test": "success", "gone.test": "unavailable", "down.test": "unreachable",
        "forbid.test": "unavailable", "gptblock.test": "success", "same1.test": "success",
        "same2.test": "success", "latin.test": "success", "html.test": "success",
    }
    assert rows.loc["same1.test", "body_sha256"] == rows.loc["same2.test", "body_sha256"]


def test_compressed_bodies_are_decompressed(crawls):
    plain, compressed = (robotscan.open_crawl(db).latest_fetch(as_frame=False) for db in crawls)
    plain_bodies = {row["domain"]: row["body"] for row in plain}
    rows = list(compressed)
    assert {row["body_compression"] for row in rows if row["http_status"] == 200} == {"zstd"}
    bodies = {row["domain"]: row["body"] for row in rows}
    assert bodies["ok.test"] == OK_V1  # only one run in this database
    for domain, body in bodies.items():
        if domain != "ok.test":
            assert body == plain_bodies[domain], domain
    assert bodies["gone.test"] is None


def test_rows_without_pandas_are_dicts(crawls, monkeypatch):
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("no pandas here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    monkeypatch.delitem(sys.modules, "pandas", raising=False)
    database = robotscan.open_crawl(str(crawls[0]))
    rows = database.latest_fetch()
    assert not isinstance(rows, list) and iter(rows) is rows  # an iterator, rows on demand
    rows = list(rows)
    assert len(rows) == len(SITES) and all(isinstance(row, dict) for row in rows)
    with pytest.raises(ImportError, match="as_frame=True needs pandas"):
        database.latest_fetch(as_frame=True)


def test_fetch_history_steps_and_runs(crawls):
    pandas = pytest.importorskip("pandas")
    database = robotscan.open_crawl(crawls[0])
    history = database.fetches()
    assert len(history) == 2 * len(SITES)
    ok = history[history["domain"] == "ok.test"]
    assert list(ok["body"]) == [OK_V1, OK_V2] and list(ok["run_id"]) == [1, 2]
    assert {"fetch_id", "run_id", "domain", "http_status", "error_class", "body_sha256", "body"} <= set(history.columns)
    lean = database.fetches(bodies=False)
    assert "body" not in lean.columns and list(lean["fetch_id"]) == list(history["fetch_id"])
    steps = database.fetch_steps()
    assert set(steps["fetch_id"]) == set(history["fetch_id"])
    runs = database.runs()
    assert list(runs["run_id"]) == [1, 2] and set(runs["status"]) == {"finished"}
    assert next(database.runs(as_frame=False))["run_id"] == 1


@pytest.mark.parametrize(
    "kwargs, cli_args",
    [
        ({}, []),
        ({"top": 3, "agents": ["GPTBot", "Googlebot", "CCBot"]}, ["--top", "3", "--agents", "GPTBot,Googlebot,CCBot"]),
        ({"compat": "google"}, ["--compat", "google"]),
    ],
)
def test_report_has_the_numbers_of_robotscan_report(crawls, robotscan_cli, kwargs, cli_args):
    for db in crawls:
        ours = robotscan.open_crawl(db).report(**kwargs)
        assert ours == cli_report(robotscan_cli, db, *cli_args)
    figures = robotscan.open_crawl(crawls[0]).report(**kwargs)
    assert figures["domains"] == len(SITES)


def test_series_has_the_numbers_of_robotscan_report_series(crawls, robotscan_cli):
    pandas = pytest.importorskip("pandas")
    agents = ["GPTBot", "CCBot"]
    frame = robotscan.open_crawl(crawls[0]).series(every="month", agents=agents)
    assert isinstance(frame, pandas.DataFrame)
    cli = cli_report(robotscan_cli, crawls[0], "--series", "--every", "month", "--agents", ",".join(agents))
    assert list(frame["period"].drop_duplicates()) == [p["period"] for p in cli["periods"]]
    assert len(frame) == 5 * len(cli["periods"])  # one row per rank stratum
    for period in cli["periods"]:
        rows = frame[frame["period"] == period["period"]].set_index("stratum")
        for stratum, values in period["strata"].items():
            assert rows.loc[stratum, "domains"] == values["domains"]
            assert rows.loc[stratum, "walled_gardens"] == values["walled_gardens"]["count"]
            assert rows.loc[stratum, "full_block:GPTBot"] == values["full_block"]["GPTBot"]["count"]
            assert rows.loc[stratum, "captured"] == period["captured"]
    # Both runs are one month's captures: the newest of each domain, all
    # of them captured, none before (nothing to have started blocking).
    last = frame[(frame["period"] == cli["periods"][-1]["period"]) & (frame["stratum"] == "all")].iloc[0]
    assert last["captured"] == len(SITES) and last["not_captured"] == 0
    assert last["robots-txt-with-rules"] == 5 and last["full_block:GPTBot"] == 1
    assert last["captured_before_too"] == 0 and last["started_blocking:GPTBot"] == 0
    rows = list(robotscan.open_crawl(crawls[0]).series(every="year", as_frame=False))
    assert rows and all(isinstance(row, dict) for row in rows)
    with pytest.raises(ValueError, match="not a period"):
        robotscan.open_crawl(crawls[0]).series(first="2019-13")
    with pytest.raises(ValueError, match="every"):
        robotscan.open_crawl(crawls[0]).series(every="week")


def test_signals_of_a_crawl_with_signals(robotscan_cli, tmp_path):
    server = LoopbackServer()
    try:
        server.routes["llms.test/robots.txt"] = Answer(200, b"User-agent: *\nAllow: /\n")
        server.routes["llms.test/llms.txt"] = Answer(200, b"# Site\n", {"Content-Type": "text/markdown"})
        server.routes["llms.test/"] = Answer(200, b"<html></html>", {"Content-Type": "text/html", "X-Robots-Tag": "noai"})
        server.routes["plain.test/robots.txt"] = Answer(404, b"no")
        server.routes["plain.test/llms.txt"] = Answer(200, b"<!DOCTYPE html>", {"Content-Type": "text/html"})
        top = tmp_path / "top.csv"
        top.write_text("1,llms.test\n2,plain.test\n")
        db = tmp_path / "signals.sqlite"
        crawl(robotscan_cli, server, db, top, "--signals")
        # Signals need no second visit: a rerun adds no rows.
        crawl(robotscan_cli, server, db, top, "--signals")
    finally:
        server.close()
    rows = list(robotscan.open_crawl(db).signals(as_frame=False))
    got = {(r["domain"], r["kind"]): r for r in rows}
    assert len(rows) == 6
    assert got[("llms.test", "llms.txt")]["present"] == 1
    assert got[("llms.test", "llms.txt")]["body"] == b"# Site\n"
    assert got[("llms.test", "homepage")]["x_robots_tag"] == "noai"
    assert got[("plain.test", "llms.txt")]["present"] == 0
    assert got[("plain.test", "llms.txt")]["absent_reason"] == "html"
    assert got[("plain.test", "tdmrep.json")]["absent_reason"] == "status"
    assert got[("llms.test", "llms.txt")]["rank"] == 1
    everything = list(robotscan.open_crawl(db).signals(latest=False, as_frame=False))
    assert len(everything) == 6
    pandas = pytest.importorskip("pandas")
    frame = robotscan.open_crawl(db).signals()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 6


def test_a_crawl_without_signals_has_none(crawls):
    assert list(robotscan.open_crawl(crawls[0]).signals(as_frame=False)) == []


def test_latest_fetch_says_where_each_fetch_came_from(crawls):
    rows = list(robotscan.open_crawl(crawls[0]).latest_fetch(as_frame=False))
    assert {row["source"] for row in rows} == {"crawl"}
    assert all(row["source_crawl"] is None for row in rows)
    history = list(robotscan.open_crawl(crawls[0]).fetches(bodies=False, as_frame=False))
    assert {row["source"] for row in history} == {"crawl"}


def test_report_from_threads(crawls):
    database = robotscan.open_crawl(crawls[0])
    expected = database.report()
    results = []
    threads = [threading.Thread(target=lambda: results.append(database.report())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


def test_paths_uris_and_bad_databases(crawls, tmp_path):
    plain = crawls[0]
    assert robotscan.open_crawl(pathlib.Path(plain)).path == str(plain)
    uri = robotscan.open_crawl(pathlib.Path(plain).as_uri())
    assert uri.path == str(plain) and len(list(uri.latest_fetch(as_frame=False))) == len(SITES)
    with pytest.raises(FileNotFoundError, match="no crawl database at"):
        robotscan.open_crawl(tmp_path / "missing.sqlite")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(ValueError, match="is not a robotscan crawl database"):
        robotscan.open_crawl(other)
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ValueError):
        robotscan.open_crawl(garbage)
    with pytest.raises(TypeError, match="path_or_uri must be str or os.PathLike, not int"):
        robotscan.open_crawl(3)
    with pytest.raises(ValueError, match="only local file: URIs"):
        robotscan.open_crawl("file://otherhost/x.sqlite")
    database = robotscan.open_crawl(plain)
    with pytest.raises(ValueError, match="top must be a non-negative int"):
        database.report(top=-1)
    with pytest.raises(TypeError, match="agents must be a sequence"):
        database.report(agents="GPTBot")
    with pytest.raises(ValueError, match="compat must be 'rfc', 'rfc9309', 'google' or 'urllib', not 'bing'"):
        database.report(compat="bing")
    assert repr(database) == f"CrawlDatabase({str(plain)!r})"


def test_the_database_is_not_changed(crawls):
    plain = pathlib.Path(crawls[0])
    before = plain.read_bytes()
    database = robotscan.open_crawl(plain)
    database.report()
    list(database.latest_fetch(as_frame=False))
    list(database.fetches(as_frame=False))
    assert plain.read_bytes() == before


# Read as `nobody` when the tests run as root, which ignores permissions.
READER = (["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
          if os.geteuid() == 0 else [])
READ_EVERYTHING = """
import json, sys, robotscan
database = robotscan.open_crawl(sys.argv[1])
rows = list(database.latest_fetch(as_frame=False))
print(json.dumps({
    "bodies": sorted([r["domain"], (r["body"] or b"").hex()] for r in rows),
    "fetches": len(list(database.fetches(as_frame=False))),
    "domains": database.report()["domains"],
}))
"""


def test_a_database_its_user_may_not_write_is_read(crawls):
    """Issue 30: open_crawl reads a crawl database in WAL mode that sits, 0444,
    in a 0555 directory (so SQLite cannot create its -shm) as a reader
    without write access: the same rows, bodies (zstd ones through the C++
    reader) and report as from a writable copy, and not a byte changed.
    Before: "attempt to write a readonly database"."""
    if READER and shutil.which("setpriv") is None:
        pytest.skip("running as root, and no setpriv to read as nobody")
    # Not pytest's tmp_path: its root is 0700, closed to the reader.
    top = tempfile.mkdtemp(prefix="robotscan-readonly-")
    os.chmod(top, 0o755)
    env = dict(os.environ)
    try:
        if READER and subprocess.run([*READER, sys.executable, "-c", "import robotscan"],
                                     capture_output=True).returncode != 0:
            # The package's tree is out of the reader's reach (a checkout
            # under a 0700 directory): it imports a copy from `top`.
            package = os.path.dirname(robotscan.__file__)
            shutil.copytree(package, os.path.join(top, "package", "robotscan"))
            for root, dirs, _ in os.walk(os.path.join(top, "package")):
                os.chmod(root, 0o755)
            env["PYTHONPATH"] = os.path.join(top, "package")
        for source in crawls:
            expected = subprocess.run([sys.executable, "-c", READ_EVERYTHING, str(source)],
                                      capture_output=True, check=True).stdout
            directory = os.path.join(top, source.stem)
            os.mkdir(directory)
            copy = os.path.join(directory, "crawl.sqlite")
            shutil.copyfile(source, copy)
            with open(copy, "rb") as f:
                before = f.read()
            assert before[18:20] == b"\x02\x02", "not in WAL mode"
            os.chmod(copy, 0o444)
            os.chmod(directory, 0o555)
            read = subprocess.run([*READER, sys.executable, "-c", READ_EVERYTHING, copy],
                                  capture_output=True, env=env)
            assert read.returncode == 0, read.stderr.decode()
            assert read.stdout == expected
            assert json.loads(read.stdout)["domains"] == len(SITES)
            assert os.listdir(directory) == ["crawl.sqlite"]
            with open(copy, "rb") as f:
                assert f.read() == before
    finally:
        for root, dirs, _ in os.walk(top):
            for name in dirs:
                os.chmod(os.path.join(root, name), stat.S_IRWXU)
        shutil.rmtree(top)

