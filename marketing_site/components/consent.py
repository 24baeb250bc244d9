"""Python handles on the consent module of `assets/consent.jsx` (client-only React).

- `consent_manager(lang)`: included once by the layout on every page. Without a consent
  service (CONSENT_SCRIPT_URL empty) it shows our banner until the visitor chooses; with one,
  it loads that service's script instead. Either way it installs `window.nereoConsent`.
- `consent_settings_button(lang)`: reopens our banner ("Gérer les cookies"); nothing is
  rendered when a consent service owns consent (the service renders its own controls in
  `#cookie-declaration`).
- Analytics events are sent in the browser with `window.nereoConsent.track(name, data)`
  (the lead forms do), never from a backend handler: the CSP forbids `eval`.

Both script URLs are read when the frontend is built.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.content.words import words
from marketing_site.services import site_storage
from marketing_site.settings import get_settings

CONSENT_JS = "$/public/consent.jsx"
# The visitor's choice: name and lifetime from the list the privacy policy shows.
COOKIE_NAME = site_storage.CONSENT.name
COOKIE_MAX_AGE_SECONDS = site_storage.CONSENT.lifetime_seconds
COOKIE_MAX_AGE_DAYS = COOKIE_MAX_AGE_SECONDS // site_storage.DAY


class ConsentManager(rx.Component):
    """Our banner and customise panel, or the third-party service's script."""

    library = CONSENT_JS
    tag = "ConsentManager"
    texts: rx.Var[dict[str, str]]
    privacy_href: rx.Var[str]
    analytics_url: rx.Var[str]
    consent_script_url: rx.Var[str]
    cookie_name: rx.Var[str]
    cookie_max_age: rx.Var[int]


class ConsentGate(rx.Component):
    """The head script that tells the prerendered banner whether to paint (no choice yet)."""

    library = CONSENT_JS
    tag = "ConsentGate"
    cookie_name: rx.Var[str]


class ConsentSettingsButton(rx.Component):
    """A button that reopens the banner (`window.nereoConsent.open()`)."""

    library = CONSENT_JS
    tag = "ConsentSettingsButton"
    label: rx.Var[str]


def texts(lang: str) -> dict[str, str]:
    """The banner's words in `lang` (`content/<lang>/consent.yaml`)."""
    return words(lang, "consent")


def consent_manager(lang: str) -> rx.Component:
    settings = get_settings()
    return ConsentManager.create(
        texts=texts(lang),
        privacy_href=routes.PRIVACY.path(lang),
        analytics_url=settings.analytics_script_url,
        consent_script_url=settings.consent_script_url,
        cookie_name=COOKIE_NAME,
        cookie_max_age=COOKIE_MAX_AGE_SECONDS,
    )


def consent_settings_button(lang: str, class_name: str = "consent-settings") -> rx.Component:
    if get_settings().consent_script_url:
        return rx.fragment()
    return ConsentSettingsButton.create(label=texts(lang)["settings"], class_name=class_name)
