"""Fixtures of the robotscan Python package's tests (run by CTest: python_package).

CTest puts the build tree's package first on PYTHONPATH and passes the
built command-line tool in ROBOTSCAN_CLI; the tests that need the tool are
skipped, with the reason shown, when it is not built.
"""

import http.server
import os
import pathlib
import subprocess
import threading

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
REALISTIC_BODY_PATH = REPO / "bench" / "data" / "realistic-50k.txt"


@pytest.fixture(scope="session")
def realistic_body() -> bytes:
    """The 54 KB real-world robots.txt of the benchmarks (Quora, Zillow, eBay)."""
    return REALISTIC_BODY_PATH.read_bytes()


@pytest.fixture(scope="session")
def robotscan_cli() -> str:
    """Path of the built `robotscan` tool."""
    path = os.environ.get("ROBOTSCAN_CLI", "")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("ROBOTSCAN_CLI does not name the built robotscan tool")
    return path


class Answer:
    """What the loopback server sends for one (host, path)."""

    def __init__(self, status=200, body=b"", headers=None):
        self.status = status
        self.body = body
        self.headers = headers or {"Content-Type": "text/plain"}


class LoopbackServer:
    """An HTTP server on 127.0.0.1 whose answers are chosen by Host and path.

    routes maps "host/path" (host without port) or "/path" to an Answer;
    anything else is a 404. Requests are counted per route key.
    """

    def __init__(self):
        self.routes = {}
        self.requests = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                host = (self.headers.get("Host") or "").split(":")[0]
                server.requests.append((host, self.path))
                answer = server.routes.get(f"{host}{self.path}") or server.routes.get(self.path)
                if answer is None:
                    answer = Answer(404, b"not found")
                self.send_response(answer.status)
                for key, value in answer.headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(answer.body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(answer.body)

            def log_message(self, *args):
                pass

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.daemon = True
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self):
        self._httpd.shutdown()
        self._thread.join()
        self._httpd.server_close()


@pytest.fixture
def loopback_server():
    server = LoopbackServer()
    yield server
    server.close()


def run_robotscan(cli: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Runs the robotscan tool (output as bytes); never raises on its exit status.

    Under the asan preset the interpreter runs with the sanitizer runtime
    preloaded; the instrumented tool links its own, so the preload is dropped.
    """
    env = dict(os.environ)
    if env.get("LD_PRELOAD") and env.get("LD_PRELOAD") == env.get("ROBOTSCAN_SANITIZER_PRELOAD"):
        del env["LD_PRELOAD"]
    return subprocess.run([cli, *args], capture_output=True, timeout=timeout, env=env)
