"""One reseller-mock for the whole run, a namespace of it for each test.

The server: RESELLER_MOCK_URL when it is set (a mock you started, a CI service container), else
the binary at MOCK_BIN (default: the repository's build, then `reseller-mock` on PATH), started
here on a free port and stopped at the end. With pytest-xdist (`-n 4`) only the controller process
starts it: the workers are started after `pytest_configure`, inherit RESELLER_MOCK_URL and share it.

Each test's `mock` fixture is a namespace of its own: a whole mock (state, clock, faults, journal,
webhook retries) below its own URL, deleted after the test whether it passed or failed. Tests in
parallel workers never see each other's changes, and nothing needs a reset.
"""

import os
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from api_client import ResellerApi
from reseller_mock import MockServer, Namespace, control

REPOSITORY_BUILD = Path(__file__).resolve().parent.parent.parent / "packages/mock/dist-bin/reseller-mock"

_started = None  # the server this process started, if any


def _mock_command() -> str:
    if os.environ.get("MOCK_BIN"):
        return os.environ["MOCK_BIN"]
    if REPOSITORY_BUILD.exists():
        return str(REPOSITORY_BUILD)
    return shutil.which("reseller-mock") or "reseller-mock"


def pytest_configure(config):
    global _started
    if hasattr(config, "workerinput") or os.environ.get("RESELLER_MOCK_URL"):
        return  # an xdist worker (the controller started the server), or a server given to us
    _started = MockServer.start(_mock_command())
    os.environ["RESELLER_MOCK_URL"] = _started.url


def pytest_unconfigure(config):
    if _started is not None:
        os.environ.pop("RESELLER_MOCK_URL", None)
        _started.stop()


@pytest.fixture(scope="session")
def mock_server() -> MockServer:
    return MockServer.at(os.environ["RESELLER_MOCK_URL"])


@pytest.fixture
def mock(mock_server, request) -> Namespace:
    """This test's own mock: a new namespace of the server, deleted after the test."""
    if os.environ.get("MOCK_ISOLATION") == "reset":
        # The old pattern, kept to show why it is gone: every test on the server's root, reset
        # first. Run with `-n 4` it fails, because parallel tests reset and change one state.
        yield _root_after_reset(mock_server)
        return
    namespace = mock_server.create_namespace(label=request.node.nodeid[-100:])
    yield namespace
    namespace.delete()


@pytest.fixture
def api(mock) -> ResellerApi:
    """The API at this test's namespace, with the seed's full live key of reseller 1."""
    return ResellerApi(mock.url, mock.key())


class _Receiver(BaseHTTPRequestHandler):
    """Answers 500 to the first delivery on each path and 204 after, counting them per path."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with self.server.lock:
            seen = self.server.attempts.setdefault(self.path, [])
            seen.append(self.headers.get("X-Service-Signature"))
            status = 500 if len(seen) == 1 else 204
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def receiver():
    """A webhook receiver on 127.0.0.1 for this worker: `receiver.url`, `receiver.attempts[path]`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    server.lock = threading.Lock()
    server.attempts = {}
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


def _root_after_reset(server: MockServer) -> Namespace:
    control(server.url, "POST", "/reset")
    keys = [{"key": "svc_live_acme_full", "mode": "live", "reseller_id": 1}]  # the demo seed's
    return Namespace(server.url, {"id": "", "url": server.url, "keys": keys, "label": None, "expires_at": ""})
