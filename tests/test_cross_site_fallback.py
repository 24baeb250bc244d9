"""Issue 39, finding 7: the booking cancel form refused every browser that sends no
`Sec-Fetch-Site` (before 2023): its page's `no-referrer` policy made the form post with
`Origin: null`, which the cross-site check refuses. The page now sends `strict-origin` (a Referer
is the origin alone: the link's token still leaves in none), and without `Sec-Fetch-Site` the
check reads `Origin`, then, when it is absent or `null`, the `Referer` (security.SecurityHeaders)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from marketing_site.security import SecurityHeaders
from marketing_site.settings import get_settings

SITE = "https://www.nereo.example"
CANCEL = "/api/v1/booking/cancel"


async def _reached(scope, receive, send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"reached"})


@pytest.fixture
def guarded():
    return TestClient(SecurityHeaders(_reached, get_settings().replace(site_url=SITE)), base_url=SITE)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        # Browsers with Sec-Fetch-Site: it decides, whatever Origin says.
        ({"Sec-Fetch-Site": "same-origin", "Origin": "null"}, 200),
        ({"Sec-Fetch-Site": "cross-site", "Origin": SITE}, 403),
        # Without it: the Origin, then the Referer's origin.
        ({"Origin": SITE}, 200),
        ({"Origin": "https://evil.example"}, 403),
        ({"Origin": "null", "Referer": f"{SITE}{CANCEL}"}, 200),
        ({"Referer": f"{SITE}/demo-nereo"}, 200),
        ({"Origin": "null", "Referer": "https://evil.example/page"}, 403),
        ({"Referer": "https://www.nereo.example.evil.example/"}, 403),
        ({"Referer": "not a url"}, 403),
        # `null` and no Referer: a browser hiding where the request comes from.
        ({"Origin": "null"}, 403),
        # Neither: no browser (curl, a server), no visitor's cookie to abuse.
        ({}, 200),
    ],
)
def test_an_unsafe_request_is_judged_by_sec_fetch_site_else_origin_else_referer(guarded, headers, status):
    assert guarded.post(CANCEL, data={"token": "x"}, headers=headers).status_code == status


def test_the_cancel_page_lets_its_form_say_its_origin_and_its_token_reach_no_referer(tmp_path, monkeypatch):
    from marketing_site.api import api_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'none.db'}")
    get_settings.cache_clear()
    try:
        page = TestClient(api_app()).get(CANCEL, params={"token": "1.2.x", "lang": "en"})
    finally:
        get_settings.cache_clear()
    assert page.status_code == 400  # a link this site never signed: nothing read from the database
    assert page.headers["referrer-policy"] == "strict-origin"
    assert '<meta name="referrer" content="strict-origin">' in page.text
