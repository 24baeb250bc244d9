"""Issue 39, finding 7: a login callback naming its issuer twice (`iss=<evil>&iss=<issuer>`) was
judged by the last value, so a response from another provider could pass the RFC 9207 mix-up
check. A repeated `iss` is refused before the code is exchanged, whatever the values; a
single right one goes on to the code exchange. In-process, over a real loopback provider and SQLite."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from test_auth_bounds import _api, database  # noqa: F401 - the fixture is used by name
from test_auth_services import _Provider

from marketing_site.services import sessions


@pytest.mark.parametrize(
    ("issuers", "refused"),
    [
        (["https://evil.example", "<issuer>"], True),
        (["<issuer>", "https://evil.example"], True),
        (["<issuer>", "<issuer>"], True),
        (["<issuer>"], False),
    ],
)
def test_a_callback_naming_its_issuer_more_than_once_is_refused(database, monkeypatch, issuers, refused):  # noqa: F811 - the fixture imported above, asked for by name
    provider = _Provider(extra_metadata={"authorization_response_iss_parameter_supported": True})
    try:
        client = _api(monkeypatch, provider.issuer)
        started = client.get("/auth/login", params={"return_to": "/compare"})
        state = parse_qs(urlsplit(started.headers["location"]).query)["state"][0]
        query = [("code", "the-code"), ("state", state)] + [
            ("iss", issuer.replace("<issuer>", provider.issuer)) for issuer in issuers
        ]
        answer = client.get("/auth/callback?" + urlencode(query))
        cookies = " ".join(answer.headers.get_list("set-cookie"))
        # Refused: the code is never sent to the provider, the login page says it failed and no
        # session is opened. One right `iss`: the code is exchanged (the test provider's answer
        # then lacks an ID token, which is another story).
        assert provider.token_requests == (0 if refused else 1)
        if refused:
            assert "nereo_auth_error=login_failed" in cookies and f"{sessions.SESSION_COOKIE}=" not in cookies
    finally:
        provider.close()
