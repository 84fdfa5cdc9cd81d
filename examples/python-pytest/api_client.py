"""The reseller hosting API from Python's standard library (urllib, json): just what the tests need.

    api = ResellerApi(mock.url, mock.key())
    api.request("GET", "/reseller/whm/usage")["data"]

An error answer raises ApiError with the HTTP status and the envelope's error code and message.
"""

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, Optional

__all__ = ["ApiError", "ResellerApi"]


class ApiError(Exception):
    """An error answer of the API: `status`, `code` (`quota_exceeded`, ...) and `message`."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class ResellerApi:
    """The API at `base_url` (a namespace's `url`: the API is below `{url}/api/v1`), with `api_key`."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None,
                **query: Any) -> Dict[str, Any]:
        """One request below /api/v1; returns the envelope of a 2xx answer (`data`, `meta`)."""
        url = f"{self.base_url}/api/v1{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as failure:
            raw = failure.read()
            try:
                error = json.loads(raw)["error"]
                code, message = error["code"], error["message"]
            except (ValueError, KeyError, TypeError):
                code, message = "http_error", raw.decode("utf-8", "replace")
            raise ApiError(failure.code, code, message) from None

    def provision_hosting(self, client_id: int, domain: str, whm_package: str = "starter") -> Dict[str, Any]:
        body = {"domain": domain, "whm_package": whm_package}
        return self.request("POST", f"/reseller/clients/{client_id}/hosting", body)["data"]

    def usage(self) -> Dict[str, Any]:
        return self.request("GET", "/reseller/whm/usage")["data"]

    def open_ticket(self, subject: str, message: str, department: str = "technical") -> Dict[str, Any]:
        body = {"subject": subject, "message": message, "department": department}
        return self.request("POST", "/support/tickets", body)["data"]

    def tickets(self) -> Iterator[Dict[str, Any]]:
        """Every ticket, newest first, page after page (20 each) until `meta.total`."""
        page = 1
        while True:
            answer = self.request("GET", "/support/tickets", page=page)
            yield from answer["data"]
            meta = answer["meta"]
            if not answer["data"] or meta["current_page"] * meta["per_page"] >= meta["total"]:
                return
            page += 1
