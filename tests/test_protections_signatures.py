"""Signatures and keys checked with empty, cut and extended values, and the expiry a link carries
(issue 39, point 15), build-free: the booking's cancel link (an HMAC over key and expiry), the
`/metrics` bearer token, the login's binding cookie and the session cookie (both looked up by a
keyed hash). A check that compares a prefix, ignores a suffix or lets an empty value through
fails here. `test_booking.py` holds forged keys and expiries, aliases and hostile tokens;
`test_metrics.py` random headers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marketing_site.settings import get_settings

START = datetime(2026, 12, 22, 8, 0, tzinfo=UTC)
BASE64URL = st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_="), max_size=4)


def _variants(value: str) -> list[str]:
    """Empty, cut (by one, to half, to one character) and extended (by one character, doubled)."""
    return ["", value[:-1], value[: len(value) // 2], value[:1], value + value[-1], value + "A", value + "=", value * 2]


@pytest.fixture
def signing(monkeypatch):
    monkeypatch.setenv("SESSION_SECRET", "test-secret-" + "x" * 32)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_a_cancel_link_with_its_signature_empty_cut_or_extended_is_refused(signing):
    from marketing_site.db.booking import new_cancel_key
    from marketing_site.services import booking

    key = new_cancel_key()
    token = booking.cancel_token(key, START)
    now = START - timedelta(days=1)
    assert booking.read_cancel_token(token, now) == (key, None)
    payload, _, signature = token.rpartition(".")
    for changed in _variants(signature):
        assert booking.read_cancel_token(f"{payload}.{changed}", now) == (None, "invalid"), changed
    for changed in _variants(payload):
        assert booking.read_cancel_token(f"{changed}.{signature}", now) == (None, "invalid"), changed
    assert booking.read_cancel_token(payload, now) == (None, "invalid")  # no signature at all
    assert booking.read_cancel_token(token + ".", now) == (None, "invalid")


@settings(max_examples=50, deadline=None)
@given(cut=st.integers(0, 42), tail=BASE64URL)
def test_any_other_signature_text_is_refused(cut, tail):
    from marketing_site.services import booking

    get_settings.cache_clear()
    token = booking.cancel_token("k" * 24, START)
    payload, _, signature = token.rpartition(".")
    changed = signature[:cut] + tail
    if changed != signature:
        assert booking.read_cancel_token(f"{payload}.{changed}", START - timedelta(days=1)) == (None, "invalid")


def test_a_cancel_link_carries_the_start_as_its_expiry_and_expires_at_that_second(signing, tmp_path, monkeypatch):
    from marketing_site.db.booking import Booking, new_cancel_key
    from marketing_site.services import booking

    monkeypatch.setenv("SITE_URL", "https://www.nereo.example")
    get_settings.cache_clear()
    key = new_cancel_key()
    row = Booking(lead_id=1, starts_at=START, ends_at=START + timedelta(minutes=30), cancel_key=key, lang="en")
    url = booking.cancel_url(row)
    token = url.split("token=", 1)[1].split("&", 1)[0]
    assert token.split(".")[1] == str(int(START.timestamp()))
    assert url.startswith("https://www.nereo.example/") and url.endswith("&lang=en")
    assert booking.read_cancel_token(token, START - timedelta(seconds=1)) == (key, None)
    assert booking.read_cancel_token(token, START) == (None, "expired")
    assert booking.read_cancel_token(token, START + timedelta(days=400)) == (None, "expired")


def _request(authorization: str | None):
    from starlette.requests import Request

    headers = [] if authorization is None else [(b"authorization", authorization.encode("latin-1"))]
    return Request({"type": "http", "method": "GET", "path": "/metrics", "headers": headers})


def test_the_metrics_token_empty_cut_or_extended_is_refused():
    from marketing_site.api.metrics import authorized

    token = "metrics-token-5d1e-0a9b"
    assert authorized(_request(f"Bearer {token}"), token)
    assert authorized(_request(f"bearer {token}"), token)  # the scheme in any case (RFC 9110)
    for changed in _variants(token):
        assert not authorized(_request(f"Bearer {changed}"), token), changed
    for header in (None, "", "Bearer", "Bearer ", token, f"Basic {token}", f"Bearer  {token}", f"Bearer {token} "):
        assert not authorized(_request(header), token), header


@pytest.fixture
def login_store(tmp_path, monkeypatch, signing):
    from marketing_site.db import metadata
    from marketing_site.services import sessions

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'auth.db'}")
    get_settings.cache_clear()
    metadata.create_all(sessions.engine())
    return sessions


def test_a_login_binding_empty_cut_or_extended_takes_no_transaction(login_store):
    sessions = login_store
    binding = sessions.new_binding()
    for changed in _variants(binding):
        transaction = sessions.new_transaction(redirect_uri="https://x/cb", return_to="/", binding=binding)
        assert sessions.take_transaction(transaction.state, changed) is None, changed
    transaction = sessions.new_transaction(redirect_uri="https://x/cb", return_to="/", binding=binding)
    for changed in _variants(transaction.state):
        assert sessions.take_transaction(changed, binding) is None, changed
    assert sessions.take_transaction(transaction.state, binding) is not None


def test_a_session_id_empty_cut_or_extended_finds_no_session(login_store):
    sessions = login_store
    session_id = sessions.create_session({"sub": "u"}, sessions.Tokens("i.d.t", "a", None, None))
    for changed in _variants(session_id):
        assert sessions.live_session(changed) is None, changed
    assert sessions.live_session(session_id) is not None
