"""The session's production site counts what happens to it (every test site runs with
METRICS_TOKEN, as production does): requests by route template, a visitor's state websocket while
it is open and its hydration, a failing event handler, returns from the identity provider. Read
from /metrics with the token.
"""

from __future__ import annotations

import json
import re
import time
from urllib.parse import quote

import httpx2
import pytest
from browser_checks import provider_login
from conftest import TRIAL_USER
from prometheus_client.parser import text_string_to_metric_families
from servers import METRICS_TOKEN

from marketing_site import routes

pytestmark = pytest.mark.browser


def scrape(site: str) -> dict[tuple[str, tuple], float]:
    answer = httpx2.get(site + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=20)
    assert answer.status_code == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def figure(scraped: dict, name: str, **labels: str) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


def wait_for(site: str, check, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    scraped = scrape(site)
    while not check(scraped) and time.monotonic() < deadline:
        time.sleep(0.3)
        scraped = scrape(site)
    return scraped


def test_requests_are_counted_by_template_and_unknown_paths_by_one_label(site):
    page = routes.PRICING.fr
    before = scrape(site)
    assert httpx2.get(site + quote(page, safe="/"), timeout=20).status_code == 200
    for secret in ("/ada.lovelace@example.com", "/0612345678/reset?token=tok-1f2e", "/en/nothing-here"):
        assert httpx2.get(site + secret, timeout=20).status_code == 404
    httpx2.get(site + "/api/v1/booking/cancel?token=not-a-token", timeout=20)  # a template with a token in its query
    after = scrape(site)

    def moved(name: str, **labels: str) -> float:
        return figure(after, name, **labels) - figure(before, name, **labels)

    assert moved("site_http_requests_total", route=page, method="GET", status="200") == 1
    assert moved("site_http_requests_total", route="<not_found>", method="GET", status="404") == 3
    cancel = [
        key for key in after if key[0] == "site_http_requests_total" and ("route", "/api/v1/booking/cancel") in key[1]
    ]
    assert cancel
    labels = {value for _, pairs in after for _, value in pairs}
    for raw in ("ada.lovelace", "0612345678", "tok-1f2e", "not-a-token", "nothing-here"):
        assert not any(raw in value for value in labels), raw


def test_a_visitors_websocket_is_counted_while_open_and_its_hydration_once(new_page, site):
    before = scrape(site)
    page = new_page()
    page.goto(site + quote(routes.LOGIN.fr, safe="/"))  # a page that connects (frontend_build.py)
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    opened = wait_for(
        site,
        lambda s: (
            figure(s, "site_websocket_connections") >= figure(before, "site_websocket_connections") + 1
            and figure(s, "site_hydrations_total") >= figure(before, "site_hydrations_total") + 1
        ),
    )
    assert figure(opened, "site_websocket_connections") == figure(before, "site_websocket_connections") + 1
    assert figure(opened, "site_hydrations_total") == figure(before, "site_hydrations_total") + 1
    page.context.close()
    closed = wait_for(
        site, lambda s: figure(s, "site_websocket_connections") == figure(before, "site_websocket_connections")
    )
    assert figure(closed, "site_websocket_connections") == figure(before, "site_websocket_connections")


def test_an_event_that_does_not_fit_its_handler_is_counted(new_page, site):
    """The stale page's event of tests/test_failure_notice.py, sent on the page's own websocket:
    refused before Reflex reads it (a malformed frame, not a handler failure), told to the page,
    and counted by reason."""
    from marketing_site.state.pricing import PricingState

    relay: dict = {"frames": []}

    def connect(ws):
        server = ws.connect_to_server()
        relay["server"] = server
        ws.on_message(lambda message: (relay["frames"].append(message), server.send(message)))

    before = scrape(site)
    page = new_page()
    page.route_web_socket(re.compile(r".*/_event/.*"), connect)
    page.goto(site + quote(routes.LOGIN.fr, safe="/"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    first = None
    for _ in range(150):
        first = next((f for f in relay["frames"] if str(f).startswith("40/_event,")), None)
        if first:
            break
        page.wait_for_timeout(100)
    assert first, "the page sent no event"
    event = json.loads(first.removeprefix("40/_event,"))["event"]
    name = f"{PricingState.get_full_name()}.use_alternate_prices"
    relay["server"].send("42/_event," + json.dumps(["event", {**event, "name": name, "payload": {"unexpected": 1}}]))
    page.wait_for_selector("[data-testid=site-notice][data-kind=handler]")
    unfit = {"reason": "payload_does_not_fit"}
    counted = "site_websocket_malformed_frames_total"
    after = wait_for(site, lambda s: figure(s, counted, **unfit) > figure(before, counted, **unfit))
    assert figure(after, counted, **unfit) == figure(before, counted, **unfit) + 1
    assert figure(after, "site_event_handler_failures_total") == figure(before, "site_event_handler_failures_total")


def test_returns_from_the_identity_provider_are_counted_by_outcome(new_page, site):
    before = scrape(site)
    no_follow = {"follow_redirects": False, "timeout": 20}
    httpx2.get(site + "/auth/callback?error=access_denied", **no_follow)  # the provider's word, no state
    httpx2.get(site + "/auth/callback?state=forged-state&code=abc", **no_follow)  # a stale or forged callback
    page = new_page()
    page.goto(site + "/compare")
    page.get_by_test_id("nav-login").click()
    provider_login(page, TRIAL_USER)
    page.wait_for_url(site + "/compare")
    after = wait_for(
        site,
        lambda s: (
            figure(s, "site_oidc_logins_total", outcome="success")
            > figure(before, "site_oidc_logins_total", outcome="success")
        ),
    )
    moved = {
        outcome: figure(after, "site_oidc_logins_total", outcome=outcome)
        - figure(before, "site_oidc_logins_total", outcome=outcome)
        for outcome in ("success", "provider_error", "invalid_state", "token_failed")
    }
    assert moved == {"success": 1, "provider_error": 1, "invalid_state": 1, "token_failed": 0}
