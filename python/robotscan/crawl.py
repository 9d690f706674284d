"""Crawl databases written by ``robotscan crawl``, for analysis in Python.

::

    import robotscan
    crawl = robotscan.open_crawl("crawl.sqlite")
    df = crawl.latest_fetch()          # pandas DataFrame, one row per domain
    history = crawl.fetches()          # every fetch of every crawl run
    figures = crawl.report()           # the numbers of `robotscan report --format json`
    over_time = crawl.series()         # `robotscan report --series`, one row per period and stratum

Tables come as pandas DataFrames when pandas can be imported, otherwise as
iterators of ``dict`` rows (``as_frame=`` forces either). Columns are those
of the database (docs/crawler.md): ``latest_fetch()`` is the stable public
view ``latest_fetch``; bodies are ``bytes`` exactly as stored, decompressed
when the crawl ran with ``--compress-bodies``, ``None`` where the fetch kept
no body (non-2xx). The database is opened read-only and never changed, so
this works while a crawl is writing to it.

``report()`` is computed by robotscan's report library, the code behind
``robotscan report``: the same options give the same numbers.

Thread-safety: a :class:`CrawlDatabase` holds only its path; every call opens
its own read-only connection, so one object may be used from many threads.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import urllib.parse
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from robotscan import _robotscan

__all__ = ["CrawlDatabase", "open_crawl"]

Row = Dict[str, Any]

class _Query:
    """A SELECT over the crawl schema and the output names of its columns."""

    def __init__(self, sql: str, renames: Dict[str, str]) -> None:
        self.sql = sql
        self.renames = renames


_LATEST_FETCH = _Query("SELECT * FROM latest_fetch", {})
# The view with each fetch's provenance (docs/history.md): where it came
# from (crawl, commoncrawl, wayback); fetched_at is then the capture time.
_LATEST_FETCH_WITH_SOURCE = _Query(
    """SELECT lf.*, f.source AS source, r.source_crawl AS source_crawl,
       f.source_file AS source_file, f.source_offset AS source_offset,
       f.source_timestamp AS source_timestamp
FROM latest_fetch lf
JOIN fetch f ON f.id = lf.fetch_id
JOIN crawl_run r ON r.id = f.run_id""",
    {},
)
_FETCHES = _Query(
    """SELECT f.*, d.name AS domain, lower(hex(b.sha256)) AS body_sha256,
       b.compression AS body_compression,
       CASE WHEN b.compression = 'none' THEN b.data END AS body
FROM fetch f
JOIN domain d ON d.id = f.domain_id
LEFT JOIN body b ON b.id = f.body_id
ORDER BY f.id""",
    {"id": "fetch_id"},
)
_FETCHES_WITHOUT_BODIES = _Query(
    """SELECT f.*, d.name AS domain, lower(hex(b.sha256)) AS body_sha256
FROM fetch f
JOIN domain d ON d.id = f.domain_id
LEFT JOIN body b ON b.id = f.body_id
ORDER BY f.id""",
    {"id": "fetch_id"},
)
_FETCH_STEPS = _Query("SELECT * FROM fetch_step ORDER BY fetch_id, seq", {})
# crawl --signals (docs/crawler.md, "Signals"): each domain's newest, or all.
_LATEST_SIGNALS = _Query(
    """SELECT lf.domain AS domain, lf.rank AS rank, s.*
FROM latest_fetch lf JOIN signal_fetch s ON s.fetch_id = lf.fetch_id
ORDER BY lf.domain, s.kind""",
    {},
)
_ALL_SIGNALS = _Query(
    """SELECT d.name AS domain, s.*
FROM signal_fetch s
JOIN fetch f ON f.id = s.fetch_id
JOIN domain d ON d.id = f.domain_id
ORDER BY s.fetch_id, s.kind""",
    {},
)
_NO_SIGNALS = _Query("SELECT NULL AS domain, NULL AS kind WHERE 0", {})
_RUNS = _Query("SELECT * FROM crawl_run ORDER BY id", {"id": "run_id"})


def _path_of(path_or_uri: Union[str, "os.PathLike[str]"]) -> str:
    if isinstance(path_or_uri, os.PathLike):
        return os.fspath(path_or_uri)
    if not isinstance(path_or_uri, str):
        raise TypeError(
            f"path_or_uri must be str or os.PathLike, not {type(path_or_uri).__name__}"
        )
    if path_or_uri.startswith("file:"):
        parsed = urllib.parse.urlparse(path_or_uri)
        if parsed.netloc not in ("", "localhost"):
            raise ValueError(f"{path_or_uri!r}: only local file: URIs can be opened")
        return urllib.parse.unquote(parsed.path)
    return path_or_uri


def open_crawl(path_or_uri: Union[str, "os.PathLike[str]"]) -> "CrawlDatabase":
    """Opens a ``robotscan crawl`` database (a path or a ``file:`` URI), read-only.

    Raises FileNotFoundError when there is no such file and ValueError when
    it is not a crawl database (or was written by a newer robotscan).
    """
    return CrawlDatabase(_path_of(path_or_uri))


class CrawlDatabase:
    """A crawl database opened for reading (see :func:`open_crawl`)."""

    def __init__(self, path: str) -> None:
        """Checks that ``path`` is a crawl database robotscan can read."""
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no crawl database at {path!r}")
        # Read-only, and never needing write access: the URI is mode=ro, or
        # immutable=1 where SQLite could not create a WAL database's -shm
        # (a read-only directory or mount), as the C++ readers choose.
        self._uri = _robotscan._check_crawl_database(os.path.abspath(path))
        self.path = path

    def __repr__(self) -> str:
        return f"CrawlDatabase({self.path!r})"

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self._uri, uri=True)

    def _records(self, query: "_Query") -> Iterator[tuple]:
        """Rows as tuples in query.columns order, bodies decoded."""
        connection = self._connect()
        try:
            cursor = connection.execute(query.sql)
            names = [query.renames.get(d[0], d[0]) for d in cursor.description]
            body = names.index("body") if "body" in names else -1
            compression = names.index("body_compression") if "body_compression" in names else -1
            fetch_id = names.index("fetch_id") if "fetch_id" in names else -1
            body_reader = None
            for values in cursor:
                if (
                    body >= 0
                    and compression >= 0
                    and values[body] is None
                    and values[compression] not in (None, "none")
                ):
                    if body_reader is None:
                        body_reader = _robotscan._BodyReader(self.path)
                    values = list(values)
                    values[body] = body_reader.read_body(values[fetch_id])
                    values = tuple(values)
                yield values
        finally:
            connection.close()

    def _column_names(self, query: "_Query") -> List[str]:
        connection = self._connect()
        try:
            cursor = connection.execute(query.sql + " LIMIT 0")
            return [query.renames.get(d[0], d[0]) for d in cursor.description]
        finally:
            connection.close()

    def _dicts(self, query: "_Query") -> Iterator[Row]:
        names = self._column_names(query)
        for values in self._records(query):
            yield dict(zip(names, values))

    def _table(self, query: "_Query", as_frame: Optional[bool]):
        if as_frame is False:
            return self._dicts(query)
        try:
            import pandas
        except ImportError:
            if as_frame:
                raise ImportError("as_frame=True needs pandas (Debian: python3-pandas)") from None
            return self._dicts(query)
        return pandas.DataFrame.from_records(
            list(self._records(query)), columns=self._column_names(query)
        )

    def latest_fetch(self, *, as_frame: Optional[bool] = None):
        """The ``latest_fetch`` view: one row per domain, its newest fetch.

        Columns as in docs/crawler.md (domain, rank, url, final_url,
        http_status, access, error, redirects, bytes, truncated, body,
        fetched_at, ... body_sha256, body_compression); ``body`` decoded.
        A DataFrame when pandas is available (or as_frame=True), else an
        iterator of dicts (or as_frame=False). ``source`` says where the
        fetch came from (``crawl``, ``commoncrawl`` or ``wayback``; imported
        captures have their capture time as ``fetched_at``),
        ``source_crawl`` the Common Crawl crawl ID of its run,
        ``source_file``/``source_offset`` the WARC record and
        ``source_timestamp`` the archive's capture timestamp; they are left
        out for a database written before robotscan imported history.
        """
        return self._table(
            _LATEST_FETCH_WITH_SOURCE if self._has_sources() else _LATEST_FETCH,
            as_frame,
        )

    def _has_sources(self) -> bool:
        with contextlib.closing(self._connect()) as con:
            fetch = {row[1] for row in con.execute("PRAGMA table_info(fetch)")}
            run = {row[1] for row in con.execute("PRAGMA table_info(crawl_run)")}
        return {"source", "source_file", "source_offset", "source_timestamp"} <= fetch and (
            "source_crawl" in run
        )

    def fetches(self, *, bodies: bool = True, as_frame: Optional[bool] = None):
        """Every row of ``fetch`` (all crawl runs, oldest first) with its domain.

        Columns: those of the ``fetch`` table (``id`` as ``fetch_id``), plus
        ``domain``, ``body_sha256`` and, unless bodies=False, ``body``
        (decoded) and ``body_compression``.
        """
        return self._table(_FETCHES if bodies else _FETCHES_WITHOUT_BODIES, as_frame)

    def fetch_steps(self, *, as_frame: Optional[bool] = None):
        """Every HTTP request behind each fetch (``fetch_step``), in order."""
        return self._table(_FETCH_STEPS, as_frame)

    def signals(self, *, latest: bool = True, as_frame: Optional[bool] = None):
        """The signals of ``crawl --signals`` (table ``signal_fetch``).

        One row per domain and kind (``llms.txt``, ``tdmrep.json``,
        ``homepage``): with latest=True those of each domain's newest fetch
        (with its ``rank``), else every fetch's. Columns as docs/crawler.md
        ("Signals") lists them: ``present`` and ``absent_reason``, ``valid``
        and ``validation_error`` (TDMRep), the homepage's ``x_robots_tag``,
        ``content_usage``, ``tdm_reservation``, ``tdm_policy``, and ``body``
        (llms.txt and tdmrep.json as served). No rows when the crawl did
        not fetch signals or the database predates them.
        """
        with contextlib.closing(self._connect()) as con:
            has_table = con.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'signal_fetch'"
            ).fetchone()
        if not has_table:
            return self._table(_NO_SIGNALS, as_frame)
        return self._table(_LATEST_SIGNALS if latest else _ALL_SIGNALS, as_frame)

    def runs(self, *, as_frame: Optional[bool] = None):
        """The crawl runs (``crawl_run``): start, end, status, tool version, options."""
        return self._table(_RUNS, as_frame)

    def report(
        self,
        *,
        top: int = 25,
        agents: Optional[Sequence[str]] = None,
        compat: str = "rfc",
    ) -> Dict[str, Any]:
        """The figures of ``robotscan report --format json`` as a dict.

        ``top``, ``agents`` (the blocking matrix's crawlers; default: the
        report's 17) and ``compat`` mean what ``--top``, ``--agents`` and
        ``--compat`` mean. Computed by the report library; releases the GIL.
        """
        if isinstance(top, bool) or not isinstance(top, int) or top < 0:
            raise ValueError(f"top must be a non-negative int, not {top!r}")
        if isinstance(agents, str):
            raise TypeError("agents must be a sequence of agent names, not one str")
        agent_list = [] if agents is None else list(agents)
        for agent in agent_list:
            if not isinstance(agent, str):
                raise TypeError(f"agents must be str, not {type(agent).__name__}")
        return json.loads(_robotscan._report_json(self.path, top, agent_list, compat))

    def series(
        self,
        *,
        every: str = "year",
        first: Optional[str] = None,
        last: Optional[str] = None,
        agents: Optional[Sequence[str]] = None,
        compat: str = "rfc",
        as_frame: Optional[bool] = None,
    ):
        """The figures of ``robotscan report --series`` (docs/history.md).

        One row per period and rank stratum (``top 1k`` ... ``all``), oldest
        period first: ``period``, ``from``, ``before`` (its UTC bounds),
        ``stratum``, ``domains`` (captured domains in the stratum),
        ``robots_files``, ``walled_gardens``, one column per outcome
        category (``allow-all``, ``robots-txt-with-rules``, ...), and per
        crawler ``full_block:<agent>``; then the period's own figures,
        repeated on each of its stratum rows: ``captured``,
        ``not_captured``, ``captured_before_too`` and per crawler
        ``started_blocking:<agent>`` / ``stopped_blocking:<agent>``.
        Counts; each column's denominator is named in docs/history.md.

        ``every`` is ``month``, ``quarter`` or ``year``; ``first``/``last``
        bound the periods (``"2019"``, ``"2019-Q1"``, ``"2019-03"``);
        ``agents`` and ``compat`` as in :meth:`report`. Computed by the
        report library (the numbers of the CLI); releases the GIL.
        """
        if isinstance(agents, str):
            raise TypeError("agents must be a sequence of agent names, not one str")
        agent_list = [] if agents is None else list(agents)
        figures = json.loads(
            _robotscan._series_json(
                self.path, every, first or "", last or "", agent_list, compat
            )
        )
        rows = []
        for period in figures["periods"]:
            for stratum, values in period["strata"].items():
                row: Row = {
                    "period": period["period"],
                    "from": period["from"],
                    "before": period["before"],
                    "stratum": stratum,
                    "domains": values["domains"],
                    "robots_files": values["robots_files"],
                    "walled_gardens": values["walled_gardens"]["count"],
                }
                row.update(values["outcomes"])
                for agent, share in values["full_block"].items():
                    row["full_block:" + agent] = share["count"]
                row["captured"] = period["captured"]
                row["not_captured"] = period["not_captured"]
                row["captured_before_too"] = period["captured_before_too"]
                for agent, share in period["started_blocking"].items():
                    row["started_blocking:" + agent] = share["count"]
                for agent, share in period["stopped_blocking"].items():
                    row["stopped_blocking:" + agent] = share["count"]
                rows.append(row)
        if as_frame is False:
            return iter(rows)
        try:
            import pandas
        except ImportError:
            if as_frame:
                raise ImportError("as_frame=True needs pandas (Debian: python3-pandas)") from None
            return iter(rows)
        return pandas.DataFrame.from_records(rows)
