"""A client of the reseller hosting API in Python's standard library only (urllib, json).

    client = ResellerClient("http://127.0.0.1:4010", "svc_live_acme_full")
    account = client.provision_hosting(501, domain="example.com", whm_package="starter")
    ticket = client.open_ticket("Disk full", "Please help", department="technical")
    for t in client.tickets():  # every page, 20 tickets at a time
        print(t["subject"], t["status"])

Every answer is the service's envelope: {"success": true, "data": ...} (with "meta" on lists), or
{"success": false, "error": {"code": ..., "message": ...}} with a 4xx or 5xx status, which this
client raises as ApiError (ValidationError for 422 validation_error, with the failing fields).
"""

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterator, List, Optional

__all__ = ["ApiError", "ValidationError", "ResellerClient"]


class ApiError(Exception):
    """An error answer of the API: HTTP status, the envelope's error code and message."""

    def __init__(self, status: int, code: str, message: str, body: Dict[str, Any]):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


class ValidationError(ApiError):
    """422 validation_error: `fields` maps each refused field to its reasons."""

    @property
    def fields(self) -> Dict[str, List[str]]:
        return self.body.get("error", {}).get("fields", {})


class ResellerClient:
    """The API at `base_url` (the address without /api/v1), authenticated with `api_key`."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 10.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def request(self, method: str, path: str, body: Optional[Dict[str, Any]] = None,
                query: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Sends one request below /api/v1 and returns the decoded envelope of a 2xx answer."""
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
            raise self._error(failure) from None

    @staticmethod
    def _error(failure: urllib.error.HTTPError) -> ApiError:
        raw = failure.read()
        try:
            body = json.loads(raw)
            error = body["error"]
            code, message = error["code"], error["message"]
        except (ValueError, KeyError, TypeError):
            body, code, message = {}, "http_error", raw.decode("utf-8", "replace") or failure.reason
        kind = ValidationError if failure.code == 422 and code == "validation_error" else ApiError
        return kind(failure.code, code, message, body)

    # Reseller hosting (scope reseller:hosting)

    def provision_hosting(self, client_id: int, domain: str, whm_package: str,
                          register_domain: bool = False) -> Dict[str, Any]:
        """Creates a cPanel account for one of your clients; returns `data` (username, cpanel_url, ...)."""
        body = {"domain": domain, "whm_package": whm_package, "register_domain": register_domain}
        return self.request("POST", f"/reseller/clients/{client_id}/hosting", body)["data"]

    # Support tickets (scopes support:read, support:write)

    def open_ticket(self, subject: str, message: str, department: str,
                    priority: Optional[str] = None) -> Dict[str, Any]:
        """Opens a ticket; returns `data` (ticket_id, subject, department, priority, status)."""
        body = {"subject": subject, "message": message, "department": department}
        if priority is not None:
            body["priority"] = priority
        return self.request("POST", "/support/tickets", body)["data"]

    def ticket(self, ticket_uuid: str) -> Dict[str, Any]:
        """One ticket with its non-internal messages."""
        return self.request("GET", f"/support/tickets/{urllib.parse.quote(ticket_uuid)}")["data"]

    def ticket_page(self, page: int = 1) -> Dict[str, Any]:
        """One page of tickets, newest first: the whole envelope, `data` and `meta`."""
        return self.request("GET", "/support/tickets", query={"page": page})

    def tickets(self) -> Iterator[Dict[str, Any]]:
        """Every ticket, page after page, until the page that holds the last one (meta.total)."""
        page = 1
        while True:
            answer = self.ticket_page(page)
            yield from answer["data"]
            meta = answer["meta"]
            if not answer["data"] or meta["current_page"] * meta["per_page"] >= meta["total"]:
                return
            page += 1
