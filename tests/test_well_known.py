"""/.well-known/security.txt (RFC 9116) over HTTP: its fields, its type, and a reminder that
fails a month before it expires."""

from __future__ import annotations

import datetime
import re

import httpx2

from marketing_site import well_known
from marketing_site.settings import get_settings

RENEW_BEFORE = datetime.timedelta(days=30)


def fields(text: str) -> list[tuple[str, str]]:
    return [tuple(line.split(": ", 1)) for line in text.splitlines() if line and not line.startswith("#")]


def test_security_txt_is_plain_text_with_the_rfc_9116_fields(site):
    response = httpx2.get(site + "/.well-known/security.txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    found = fields(response.text)
    names = [name for name, _ in found]
    assert names.count("Contact") == 1 and names.count("Expires") == 1
    values = dict(found)
    # The test site's settings are the defaults: the Contact is SECURITY_CONTACT's.
    assert values["Contact"] == get_settings().security_contact
    assert values["Contact"].startswith("mailto:")
    assert values["Preferred-Languages"] == "fr, en"
    assert values["Canonical"] == f"{site}/.well-known/security.txt"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", values["Expires"])
    policies = [value for name, value in found if name == "Policy"]
    assert policies == [f"{site}/mentions-legales#securite", f"{site}/en/mentions-legales#security"]
    for policy in policies:
        page, anchor = policy.split("#")
        html = httpx2.get(page).text
        assert f'id="{anchor}"' in html and "security.txt" in html


def test_security_txt_is_renewed_a_month_before_it_expires(site):
    """Fails from 30 days before `Expires`: move well_known.EXPIRES on (under a year ahead)."""
    text = httpx2.get(site + "/.well-known/security.txt").text
    expires = datetime.datetime.strptime(dict(fields(text))["Expires"], "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.UTC
    )
    now = datetime.datetime.now(datetime.UTC)
    assert expires - now > RENEW_BEFORE, f"security.txt expires on {expires:%Y-%m-%d}: renew well_known.EXPIRES"
    assert expires - now < datetime.timedelta(days=366), "RFC 9116: less than a year ahead"
    assert expires == well_known.EXPIRES


def test_security_txt_contact_is_read_from_security_contact(monkeypatch):
    contact = "https://security.example.org/report"
    with monkeypatch.context() as env:
        env.setenv("SECURITY_CONTACT", contact)
        get_settings.cache_clear()
        try:
            found = fields(well_known.security_txt())
        finally:
            env.undo()
            get_settings.cache_clear()
    assert [value for name, value in found if name == "Contact"] == [contact]
