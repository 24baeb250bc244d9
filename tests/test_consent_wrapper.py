"""The Python side of the consent module: build-time settings."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from marketing_site.components import consent
from marketing_site.content.words import words as site_words
from marketing_site.settings import get_settings

words = SimpleNamespace(FR=site_words("fr", "consent"), EN=site_words("en", "consent"))


@pytest.fixture
def with_settings(monkeypatch):
    def _apply(**changes):
        settings = get_settings().replace(**changes)
        monkeypatch.setattr(consent, "get_settings", lambda: settings)

    return _apply


def test_own_banner_gets_the_page_language_and_each_purpose_its_own_script(with_settings):
    with_settings(
        consent_script_url="",
        analytics_script_url="https://stats.example/a.js",
        marketing_script_url="https://tags.example/m.js",
    )
    rendered = str(consent.consent_manager("en"))
    purposes = {p["key"]: p for p in consent.consent_props("en")["purposes"]}
    assert purposes["analytics"]["scripts"] == ["https://stats.example/a.js"]
    assert purposes["marketing"]["scripts"] == ["https://tags.example/m.js"]
    assert purposes["marketing"]["events"] == ["conversion"] and purposes["analytics"]["events"] == []
    assert '["scripts"] : ["https://stats.example/a.js"]' in rendered
    assert '["scripts"] : ["https://tags.example/m.js"]' in rendered
    assert 'consentScriptUrl:""' in rendered
    assert 'privacyHref:"/en/politique-de-confidentialite"' in rendered
    assert words.EN["accept_all"] in rendered and words.FR["accept_all"] not in rendered
    assert "ConsentSettingsButton" in str(consent.consent_settings_button("fr"))


def test_a_consent_service_replaces_our_banner_and_settings_button(with_settings):
    with_settings(consent_script_url="https://cmp.example/uc.js", analytics_script_url="")
    assert 'consentScriptUrl:"https://cmp.example/uc.js"' in str(consent.consent_manager("fr"))
    assert "ConsentSettingsButton" not in str(consent.consent_settings_button("fr"))


def test_french_banner_uses_french_typography():
    assert consent.texts("fr")["privacy_before"] == "En savoir plus\u00a0: "
