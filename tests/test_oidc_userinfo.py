"""UserInfo from a real loopback provider that, as a real one does, answers only the bearer of
the access token it issued, in JSON when asked for JSON."""

from __future__ import annotations

import json

from test_auth_services import _party, _Provider, _run

CLAIMS = {"sub": "u", "email": "someone@example.test"}


def _strict_provider(content_type: str | None = "application/json") -> _Provider:
    provider = _Provider(userinfo=CLAIMS)
    handler = provider.server.RequestHandlerClass
    answer_get = handler.do_GET

    def do_get(self):
        if self.path != "/userinfo":
            return answer_get(self)
        allowed = (
            self.headers.get("Authorization") == "Bearer access-1" and self.headers.get("Accept") == "application/json"
        )
        body = json.dumps(CLAIMS if allowed else {"error": "invalid_token"}).encode()
        self.send_response(200 if allowed else 401)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    handler.do_GET = do_get
    return provider


def test_userinfo_is_asked_with_the_access_token_as_bearer_and_for_json():
    provider = _strict_provider()
    try:
        party = _party(provider.issuer)
        assert _run(party.userinfo("access-1", "u")) == CLAIMS
        assert _run(party.userinfo("another-token", "u")) == {}  # refused: the ID token's claims only
    finally:
        provider.close()


def test_a_userinfo_answer_without_a_content_type_costs_the_extra_claims_not_the_login():
    provider = _strict_provider(content_type=None)
    try:
        assert _run(_party(provider.issuer).userinfo("access-1", "u")) == {}
    finally:
        provider.close()
