"""Tests that each change a mock's state, clock or faults, run in parallel: `pytest -n 4`.

Each runs four times (`round`), so the four workers run them at the same time. Every test gets its
own namespace (conftest.py), so each sees exactly the state it made. With the old pattern, one
server reset before each test (MOCK_ISOLATION=reset), they fail: see the README.
"""

import pytest

from api_client import ApiError

ROUNDS = range(4)


@pytest.mark.parametrize("round", ROUNDS)
def test_provisions_up_to_the_quota_then_is_refused(api, round):
    usage = api.usage()
    free = usage["accounts_limit"] - usage["accounts_used"]
    assert free > 0
    for n in range(free):
        account = api.provision_hosting(501, domain=f"quota-{n}.example")
        assert account["username"] == f"quota{n}"

    with pytest.raises(ApiError) as refused:
        api.provision_hosting(501, domain="one-too-many.example")
    assert (refused.value.status, refused.value.code) == (422, "quota_exceeded")
    assert api.usage()["accounts_used"] == usage["accounts_limit"]


@pytest.mark.parametrize("round", ROUNDS)
def test_pages_through_every_ticket(api, round):
    before = api.request("GET", "/support/tickets")["meta"]["total"]
    opened = [api.open_ticket(f"Paging {n}", "Where is my invoice?")["ticket_id"] for n in range(3)]

    every = list(api.tickets())
    assert len(every) == before + 3
    assert len({ticket["uuid"] for ticket in every}) == len(every)
    # Newest first: the three just opened lead the first page.
    assert [ticket["uuid"] for ticket in every[:3]] == opened[::-1]


@pytest.mark.parametrize("round", ROUNDS)
def test_a_failed_delivery_is_retried_when_the_clock_moves_a_minute(api, mock, receiver, round):
    path = f"/hooks/{mock.id or 'root'}-{round}"
    api.request("PUT", "/reseller/webhook", {"url": receiver.url + path, "secret": "whsec_pytest_example_0123"})
    mock.control("POST", "/events", {"reseller_id": 1, "event": "vps.activated"})
    mock.advance_clock(0)  # the first attempt has been made when it returns: the receiver answered 500

    [delivery] = mock.deliveries()
    assert (delivery["status"], delivery["attempts"]) == ("failed", 1)
    assert len(receiver.attempts[path]) == 1

    mock.advance_clock(60)  # the first retry is due one minute after the attempt
    [delivery] = mock.deliveries()
    assert (delivery["status"], delivery["attempts"]) == ("success", 2)
    assert len(receiver.attempts[path]) == 2


@pytest.mark.parametrize("round", ROUNDS)
def test_a_fault_answers_503_once_then_the_api_answers(api, mock, round):
    mock.add_fault({"match": {"method": "GET", "route": "/api/v1/reseller/whm/usage"},
                    "respond": {"status": 503}, "times": 1})
    with pytest.raises(ApiError) as failed:
        api.usage()
    assert (failed.value.status, failed.value.code) == (503, "service_unavailable")
    assert api.usage()["accounts_limit"] > 0
    statuses = [entry["status"] for entry in mock.requests(route="/api/v1/reseller/whm/usage")]
    assert statuses == [503, 200]


def test_namespaces_share_nothing(mock_server):
    first = mock_server.create_namespace(label="share-nothing-a")
    second = mock_server.create_namespace(label="share-nothing-b")
    try:
        from api_client import ResellerApi

        ResellerApi(first.url, first.key()).provision_hosting(501, domain="only-in-first.example")
        first.advance_clock(3600)
        domains = [row["domain"] for row in second.state()["tables"]["accounts"]]
        assert "only-in-first.example" not in domains
        assert second.control("GET", "/clock")["offset_ms"] == 0
    finally:
        first.delete()
        second.delete()
