"""Every public route that reads JSON, over HTTP on the production site: a body nested past the
JSON parser's stack (`[` x 5000, a RecursionError) and a 2 MB body each get a 4xx, never a 500.

The back-channel logout reads its JSON inside the logout token (a JWT's base64url parts); the
others read the request body. Each route's answer is the one its module documents.
"""

from __future__ import annotations

import base64
from urllib.parse import urlencode

import httpx2
import pytest

NESTED = "[" * 5000
LARGE = "x" * (2 * 1024 * 1024)
JSON = {"Content-Type": "application/json"}
BEACON = {"Content-Type": "text/plain;charset=UTF-8", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode()


def _logout_token(header: str) -> str:
    return urlencode({"logout_token": f"{_b64(header)}.{_b64('{}')}.c2ln"})


# route: (path, headers, body, status) — the beacon's own limit is 2 KiB (413 before any parsing);
# it answers 204 to what it cannot read, counting nothing.
CASES = {
    "lead nested": ("/api/v1/mail/send", JSON, NESTED, 422),
    "lead 2 MB": ("/api/v1/mail/send", JSON, LARGE, 413),
    "booking nested": ("/api/v1/booking", JSON, NESTED, 422),
    "booking 2 MB": ("/api/v1/booking", JSON, LARGE, 413),
    "client report nested": ("/api/v1/client-report", JSON, NESTED, 422),
    "client report nested in an object": ("/api/v1/client-report", JSON, '{"ref":' + NESTED, 422),
    "client report 2 MB": ("/api/v1/client-report", JSON, LARGE, 413),
    "beacon nested": ("/api/v1/audience", BEACON, NESTED, 413),
    # Under that limit and still past the parser's stack: ignored like any unreadable beacon.
    "beacon nested within its limit": ("/api/v1/audience", BEACON, "[" * 2000, 204),
    "beacon nested within its limit, in an object": ("/api/v1/audience", BEACON, '{"path":' + "[" * 1990, 204),
    "beacon not JSON": ("/api/v1/audience", BEACON, "{not json", 204),
    "beacon 2 MB": ("/api/v1/audience", BEACON, LARGE, 413),
    "logout token nested header": ("/auth/backchannel-logout", FORM, _logout_token(NESTED), 400),
    "logout token 2 MB": ("/auth/backchannel-logout", FORM, urlencode({"logout_token": LARGE}), 413),
}


@pytest.mark.parametrize(("path", "headers", "body", "status"), list(CASES.values()), ids=list(CASES))
def test_a_hostile_body_gets_its_4xx(site, path, headers, body, status):
    response = httpx2.post(site + path, content=body, headers=headers, timeout=30)
    assert response.status_code == status


def test_a_well_formed_connection_report_is_still_logged(site):
    """The client report reads its body like the lead API now: a real report still passes."""
    report = {"ref": "A1B2C3D4", "kind": "connection", "seconds": 3, "path": "/compare"}
    assert httpx2.post(site + "/api/v1/client-report", json=report).status_code == 204
    assert httpx2.post(site + "/api/v1/client-report", json={**report, "kind": "other"}).status_code == 422
