"""Provision an account, open a ticket, page through tickets and handle a 422, against the API.

    RESELLER_API_URL=http://127.0.0.1:4010 RESELLER_API_KEY=svc_live_acme_full python3 example.py
"""

import os
import sys

from reseller_client import ApiError, ResellerClient, ValidationError


def main() -> int:
    client = ResellerClient(
        os.environ.get("RESELLER_API_URL", "http://127.0.0.1:4010"),
        os.environ.get("RESELLER_API_KEY", "svc_live_acme_full"),
    )

    try:
        account = client.provision_hosting(501, domain="python-example.test", whm_package="starter")
        print(f"provisioned {account['username']} at {account['cpanel_url']}")
    except ApiError as error:
        # e.g. 422 domain_taken on a second run, quota_exceeded once the WHM plan is full
        print(f"not provisioned: {error}")

    ticket = client.open_ticket("Disk full", "My account is out of space.", department="technical")
    print(f"opened ticket {ticket['ticket_id']} ({ticket['status']})")

    count = sum(1 for _ in client.tickets())
    print(f"{count} tickets in all")

    try:
        client.open_ticket("No department", "Which one?", department="marketing")
    except ValidationError as error:
        for field, reasons in error.fields.items():
            print(f"refused: {field}: {'; '.join(reasons)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
