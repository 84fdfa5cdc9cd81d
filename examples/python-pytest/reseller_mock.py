"""Drive a running reseller-mock from Python tests: its namespaces and control endpoints.

Standard library only (urllib, json, subprocess). One server serves many namespaces, each a whole
mock of its own (state, clock, faults, journal, webhook retries) below its own URL:

    server = MockServer.start("./reseller-mock")          # or MockServer.at("http://127.0.0.1:4010")
    mock = server.create_namespace(label="test_quota")   # {url, keys, ...}
    mock.advance_clock(seconds=60)                        # only this namespace's clock moves
    mock.add_fault({"respond": {"status": 503}, "times": 1})
    mock.delete()
    server.stop()                                         # only when this process started it
"""

import json
import os
import re
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

__all__ = ["MockError", "MockServer", "Namespace"]


class MockError(Exception):
    """A control request the mock refused: HTTP status, the envelope's error code and message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def control(base_url: str, method: str, path: str, body: Optional[Dict[str, Any]] = None,
            query: Optional[Dict[str, Any]] = None, timeout: float = 30.0) -> Any:
    """One request to `{base_url}/__mock{path}`; returns the `data` of the answer's envelope."""
    url = f"{base_url.rstrip('/')}/__mock{path}"
    if query:
        url += "?" + urllib.parse.urlencode(query)
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.loads(answer.read())["data"]
    except urllib.error.HTTPError as failure:
        raw = failure.read()
        try:
            error = json.loads(raw)["error"]
            code, message = error["code"], error["message"]
        except (ValueError, KeyError, TypeError):
            code, message = "http_error", raw.decode("utf-8", "replace") or str(failure.reason)
        raise MockError(failure.code, code, message) from None


class Namespace:
    """One isolated mock on the server: `url` is its base URL (the API is below `{url}/api/v1`)."""

    def __init__(self, root_url: str, created: Dict[str, Any]):
        self.root_url = root_url
        self.id: str = created["id"]
        self.url: str = created["url"]
        self.keys: List[Dict[str, Any]] = created["keys"]
        self.label: Optional[str] = created["label"]
        self.expires_at: str = created["expires_at"]

    def key(self, mode: str = "live", reseller_id: int = 1) -> str:
        """The first key of the seed with this mode and reseller: every scope with the demo seed."""
        return next(k["key"] for k in self.keys if k["mode"] == mode and k["reseller_id"] == reseller_id)

    def control(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, **query: Any) -> Any:
        """Any control endpoint of this namespace (`/__mock/...` below its URL)."""
        return control(self.url, method, path, body, query or None)

    def reset(self) -> None:
        self.control("POST", "/reset")

    def state(self) -> Dict[str, Any]:
        """Every table's rows (keys and secrets included)."""
        return self.control("GET", "/state")

    def advance_clock(self, seconds: float) -> Dict[str, Any]:
        """Moves this namespace's clock; webhook retries that fall due run before it returns."""
        return self.control("POST", "/clock/advance", {"seconds": seconds})

    def add_fault(self, spec: Dict[str, Any]) -> Dict[str, Any]:
        """A fault for matching API requests: `{"respond": {"status": 503}, "times": 1}`, ..."""
        return self.control("POST", "/faults", spec)

    def requests(self, **query: Any) -> List[Dict[str, Any]]:
        """The request journal, oldest first (filters: method, route, path, status)."""
        return self.control("GET", "/requests", **query)

    def deliveries(self) -> List[Dict[str, Any]]:
        """Every webhook delivery, newest first, with its attempts."""
        return self.control("GET", "/deliveries")

    def staff_reply(self, ticket_uuid: str, message: str) -> Dict[str, Any]:
        return self.control("POST", f"/tickets/{urllib.parse.quote(ticket_uuid)}/replies", {"message": message})

    def delete(self) -> None:
        """Deletes the namespace; nothing happens when it is already gone."""
        try:
            control(self.root_url, "DELETE", f"/namespaces/{self.id}")
        except MockError as error:
            if error.code != "namespace_not_found":
                raise


class MockServer:
    """The server: started here (`start`) or already running (`at`)."""

    def __init__(self, url: str, process: Optional[subprocess.Popen] = None):
        self.url = url.rstrip("/")
        self.process = process

    @classmethod
    def at(cls, url: str) -> "MockServer":
        return cls(url)

    @classmethod
    def start(cls, command: str, *args: str, timeout: float = 30.0) -> "MockServer":
        """Starts `command --port 0 --quiet ...` and waits for its ready line (`listening on URL`).

        Raises RuntimeError when the process ends before the line, or after `timeout` seconds.
        """
        process = subprocess.Popen([command, "--port", "0", "--quiet", *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=_server_environment())
        found: Dict[str, str] = {}
        errors: List[str] = []
        # Read its stderr all along: kept for the message below, and a full pipe never blocks it.
        threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True).start()

        def read_until_ready() -> None:
            for line in process.stdout:
                match = re.search(r"listening on (http://\S+)", line)
                if match:
                    found["url"] = match.group(1)
                    break

        reader = threading.Thread(target=read_until_ready, daemon=True)
        reader.start()
        reader.join(timeout)  # returns at the line, at the end of its output, or at the timeout
        if "url" not in found:
            process.kill()
            code = process.wait()
            raise RuntimeError(f"{command} printed no ready line within {timeout} s (exit code {code}): "
                               f"{''.join(errors).strip()}")
        # Keep reading its output, so that a full pipe never blocks the server.
        threading.Thread(target=process.stdout.read, daemon=True).start()
        return cls(found["url"], process)

    def create_namespace(self, **options: Any) -> Namespace:
        """A new namespace: options `id`, `seed`, `random_seed`, `ttl_seconds`, `label` (all optional)."""
        return Namespace(self.url, control(self.url, "POST", "/namespaces", options))

    def namespaces(self) -> List[Dict[str, Any]]:
        return control(self.url, "GET", "/namespaces")

    def stop(self) -> None:
        """SIGTERM to the server this process started; it must exit 0."""
        if self.process is None:
            return
        self.process.terminate()
        code = self.process.wait(timeout=20)
        if code != 0:
            raise RuntimeError(f"the mock exited with {code} on SIGTERM")


def _server_environment() -> Dict[str, str]:
    """This environment without RESELLER_MOCK_URL: the server reads RESELLER_MOCK_* as its flags."""
    return {name: value for name, value in os.environ.items() if name != "RESELLER_MOCK_URL"}
