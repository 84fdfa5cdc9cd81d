"""The client against the mock: `python3 -m unittest` in this folder.

Starts the mock from MOCK_BIN (default: `reseller-mock` on PATH; the single executable or the
npm CLI alike) on a free port, or uses a running one at RESELLER_MOCK_URL. Each test gets a
namespace of its own (POST /__mock/namespaces): a fresh mock of the demo seed at its own URL,
deleted after the test, so tests may run in parallel (see examples/python-pytest).
"""

import json
import os
import re
import signal
import subprocess
import unittest
import urllib.request

from reseller_client import ApiError, ResellerClient, ValidationError

KEY = "svc_live_acme_full"
mock_url = os.environ.get("RESELLER_MOCK_URL")
mock_process = None


def setUpModule():
    global mock_url, mock_process
    if mock_url:
        return
    command = [os.environ.get("MOCK_BIN", "reseller-mock"), "--port", "0", "--quiet"]
    mock_process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    for line in mock_process.stdout:
        match = re.search(r"listening on (http://\S+)", line)
        if match:
            mock_url = match.group(1)
            break
    if not mock_url:
        raise RuntimeError(f"{command[0]} exited with {mock_process.wait()} before it was ready")


def tearDownModule():
    if mock_process is None:
        return
    mock_process.send_signal(signal.SIGTERM)
    mock_process.stdout.read()
    if mock_process.wait(timeout=20) != 0:
        raise RuntimeError(f"the mock exited with {mock_process.returncode} on SIGTERM")


def control(method, url):
    """One request to a control endpoint of the mock; returns the `data` of its answer."""
    with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=10) as answer:
        return json.loads(answer.read())["data"]


class ResellerClientTest(unittest.TestCase):
    def setUp(self):
        # A namespace: this test's own mock of the demo seed, at its own URL.
        namespace = control("POST", f"{mock_url}/__mock/namespaces")
        self.addCleanup(control, "DELETE", f"{mock_url}/__mock/namespaces/{namespace['id']}")
        self.mock_url = namespace["url"]
        self.client = ResellerClient(self.mock_url, KEY)

    def test_provisions_an_account_for_a_client(self):
        account = self.client.provision_hosting(501, domain="python-client.test", whm_package="starter")
        self.assertEqual(account["domain"], "python-client.test")
        self.assertEqual(account["client_id"], 501)
        self.assertEqual(account["cpanel_url"], "https://python-client.test:2083")
        self.assertFalse(account["sandbox"])

        with self.assertRaises(ApiError) as taken:
            self.client.provision_hosting(502, domain="python-client.test", whm_package="starter")
        self.assertEqual((taken.exception.status, taken.exception.code), (422, "domain_taken"))

    def test_opens_a_ticket_and_reads_it_back(self):
        opened = self.client.open_ticket("Disk full", "My account is out of space.", department="technical",
                                         priority="high")
        self.assertEqual(opened["status"], "open")
        ticket = self.client.ticket(opened["ticket_id"])
        self.assertEqual((ticket["subject"], ticket["priority"]), ("Disk full", "high"))
        self.assertEqual([m["message"] for m in ticket["messages"]], ["My account is out of space."])

    def test_pages_through_every_ticket(self):
        opened = self.client.open_ticket("Newest", "Listed first.", department="sales")
        first = self.client.ticket_page(1)
        self.assertEqual(first["meta"]["per_page"], 20)
        self.assertEqual(len(first["data"]), 20)
        self.assertEqual(first["data"][0]["uuid"], opened["ticket_id"])

        every = list(self.client.tickets())
        self.assertEqual(len(every), first["meta"]["total"])
        self.assertGreater(len(every), 20)
        self.assertEqual(len({t["uuid"] for t in every}), len(every))

    def test_a_422_names_the_refused_fields(self):
        with self.assertRaises(ValidationError) as refused:
            self.client.open_ticket("x" * 256, "", department="marketing")
        error = refused.exception
        self.assertEqual((error.status, error.code), (422, "validation_error"))
        self.assertEqual(set(error.fields), {"subject", "message", "department"})
        self.assertIn("must be one of technical, billing, sales, abuse, general", error.fields["department"])

    def test_an_unknown_key_is_a_401(self):
        with self.assertRaises(ApiError) as refused:
            ResellerClient(self.mock_url, "svc_live_nobody").ticket_page()
        self.assertEqual(refused.exception.status, 401)
        self.assertNotIsInstance(refused.exception, ValidationError)


if __name__ == "__main__":
    unittest.main()
