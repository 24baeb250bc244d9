"""The exact boundary of every length and count limit: at the limit accepted, one over refused
(issue 39, point 15). Build-free: the services and the API routes in-process.

A test of the refused side alone lets a limit loosened by one pass (`>` made `>=`, or the
constant moved), and one of the accepted side alone lets it tightened. The limits the API
documents are pinned to the figures it documents (the OpenAPI schema, docs/leads.md). Lengths
are in characters: a value of the limit in an accented or astral character is accepted too.

Elsewhere: the return path's 512 (`test_return_path_bounds.py`), the login form's bytes and
fields (`test_auth_bounds.py`, with the count here), the console's bookings shown
(`test_console_bookings.py`), the audience's daily quotas (`test_audience_quotas.py`), the rate
limits' budgets (`test_rate_limit_windows.py`), the page views kept through an outage
(`test_protections_outages.py`).
"""

from __future__ import annotations

import pytest
from lead_payloads import lead_payload

from marketing_site.settings import get_settings

# One ASCII, one accented (two bytes in UTF-8) and one astral (four bytes, two UTF-16 units) letter.
LETTERS = ["x", "é", "\U0001d4b3"]


def test_the_documented_limits():
    from marketing_site.api import audience as audience_api
    from marketing_site.api import auth, mail
    from marketing_site.db import audience as audience_db
    from marketing_site.services import console, id_token, leads, mail_headers

    assert (leads.MAX_FIELD_LENGTH, leads.MAX_TEXT_LENGTH, mail.MAX_BODY_BYTES) == (200, 5000, 16 * 1024)
    assert (audience_api.MAX_BODY_BYTES, audience_db.UTM_MAX, audience_db.HOST_MAX) == (2048, 100, 253)
    assert (console.SEARCH_MAX, console.TAG_MAX, console.EMAIL_MAX) == (200, 100, 320)
    assert (auth.FORM_MAX_FIELDS, auth.LOGIN_HINT_MAX, id_token.JTI_MAX_LENGTH) == (8, 320, 256)
    assert mail_headers.MAX_LINE == 998  # RFC 5322 §2.1.1


# ----------------------------------------------------------------------------- lead fields


@pytest.mark.parametrize("letter", LETTERS)
@pytest.mark.parametrize("field", ["name", "firstname", "company"])
def test_a_lead_field_of_the_limit_is_accepted_and_one_more_is_refused(field, letter):
    from marketing_site.services.leads import MAX_FIELD_LENGTH, validate

    at_limit, errors = validate(lead_payload(**{field: letter * MAX_FIELD_LENGTH}))
    assert at_limit is not None and getattr(at_limit, field) == letter * MAX_FIELD_LENGTH, errors
    over, errors = validate(lead_payload(**{field: letter * (MAX_FIELD_LENGTH + 1)}))
    assert over is None and set(errors) == {field}


@pytest.mark.parametrize("letter", LETTERS)
def test_a_message_of_the_limit_is_accepted_and_one_more_is_refused(letter):
    from marketing_site.services.leads import MAX_TEXT_LENGTH, validate

    at_limit, errors = validate(lead_payload(text=letter * MAX_TEXT_LENGTH))
    assert at_limit is not None, errors
    over, errors = validate(lead_payload(text=letter * (MAX_TEXT_LENGTH + 1)))
    assert over is None and set(errors) == {"text"}


# ----------------------------------------------------------------------------- request bodies


@pytest.fixture
def api(tmp_path, monkeypatch):
    """The API routes in-process, on a fresh database (the bodies below are refused or ignored
    before anything is stored)."""
    from servers import migrated_sqlite_copy
    from starlette.testclient import TestClient

    from marketing_site import db
    from marketing_site.api import api_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'bounds.db'}")
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "mail"))
    for cached in (get_settings, db.engine_for):
        cached.cache_clear()
    migrated_sqlite_copy(tmp_path / "bounds.db")
    yield TestClient(api_app(), base_url="http://127.0.0.1")
    for cached in (get_settings, db.engine_for):
        cached.cache_clear()


def _json_of_size(size: int) -> bytes:
    """A JSON object of exactly `size` bytes (UTF-8), multi-byte characters included."""
    head = b'{"pad":"'
    filler = size - len(head) - 2
    body = head + ("é" * (filler // 2) + "x" * (filler % 2)).encode() + b'"}'
    assert len(body) == size
    return body


def _streamed(body: bytes):
    """The body in chunks, with no Content-Length: the route must count as it reads."""
    for start in range(0, len(body), 1000):
        yield body[start : start + 1000]


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/api/v1/mail/send", "application/json"),
        ("/api/v1/booking", "application/json"),
        ("/api/v1/audience", "text/plain"),
    ],
)
@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "streamed"])
def test_a_body_of_the_limit_is_read_and_one_byte_more_is_413(api, path, content_type, declared):
    from marketing_site.api import audience, mail

    limit = audience.MAX_BODY_BYTES if path == "/api/v1/audience" else mail.MAX_BODY_BYTES
    headers = {"Content-Type": content_type, "User-Agent": "Mozilla/5.0 Chrome/130"}
    for size, refused in ((limit, False), (limit + 1, True)):
        body = _json_of_size(size)
        response = api.post(path, content=body if declared else _streamed(body), headers=headers)
        assert (response.status_code == 413) is refused, (size, response.status_code, response.text)


# ----------------------------------------------------------------------------- console filters


@pytest.mark.parametrize(("field", "limit"), [("search", 200), ("campaign", 100), ("source", 100)])
@pytest.mark.parametrize("letter", LETTERS)
def test_a_console_filter_of_the_limit_is_accepted_and_one_more_is_refused(field, limit, letter):
    from marketing_site.services.console import FilterError, LeadFilter

    assert getattr(LeadFilter.parse({field: letter * limit}), field) == letter * limit
    with pytest.raises(FilterError) as refused:
        LeadFilter.parse({field: letter * (limit + 1)})
    assert refused.value.field == field


def test_a_subject_address_of_the_limit_is_accepted_and_one_more_is_refused():
    """The console's data-subject search: 320 characters (64 + @ + 255) at most."""
    from marketing_site.services.console import EMAIL_MAX, SubjectError, normalise_email

    domain = ".".join(["d" * 63] * 3 + ["e" * 60 + ".fr"])  # 255 characters
    local = "a" * 64
    address = f"{local}@{domain}"
    assert len(address) == EMAIL_MAX
    assert normalise_email(address) == address
    with pytest.raises(SubjectError):
        normalise_email("b" + address)


# ----------------------------------------------------------------------------- audience


@pytest.mark.parametrize("letter", LETTERS)
def test_a_campaign_tag_of_the_limit_is_kept_and_one_more_is_dropped(letter):
    from marketing_site.services.audience import clean_tag

    assert clean_tag(letter * 100) == letter * 100
    assert clean_tag(letter * 101) == ""
    assert clean_tag(" " + letter * 100 + " ") == letter * 100  # trimmed first, then counted


def test_a_referrer_host_of_the_limit_is_kept_and_one_more_is_dropped():
    from marketing_site.services.audience import clean_host

    host = ".".join(["a" * 63] * 3 + ["b" * 61])  # 253 characters
    assert clean_host(host) == host
    assert clean_host("c" + host) == ""
    label = "l" * 63
    assert clean_host(f"{label}.example") == f"{label}.example"
    assert clean_host(f"{label}l.example") == ""  # a label of 64


# ----------------------------------------------------------------------------- mail headers


def test_a_header_line_of_998_characters_is_written_and_999_is_refused():
    from marketing_site.services.mail_headers import MAX_LINE, HeaderRefused, verify_folded

    name = "X-Test"
    line = f"{name}: " + "v" * (MAX_LINE - len(name) - 2)
    assert len(line) == MAX_LINE
    verify_folded(name, line + "\r\n")
    with pytest.raises(HeaderRefused, match="longer"):
        verify_folded(name, line + "v\r\n")
    folded = line + "\r\n " + "w" * (MAX_LINE - 1)  # a continuation line of the limit too
    verify_folded(name, folded + "\r\n")
    with pytest.raises(HeaderRefused, match="longer"):
        verify_folded(name, folded + "w\r\n")


# ----------------------------------------------------------------------------- counts


def test_a_rate_limit_lets_exactly_its_budget_through_in_a_window():
    from marketing_site.services.rate_limit import RateLimiter

    limiter = RateLimiter(limit=3, window=60)
    assert [limiter.hit("k", now=100.0 + n) for n in range(3)] == [None] * 3
    assert limiter.hit("k", now=103.0) == pytest.approx(57.0)
    # At exactly one window after the first hit, that hit has left the window.
    assert limiter.hit("k", now=160.0) is None
