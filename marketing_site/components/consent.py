"""Python handles on the consent module of `assets/consent.jsx` (client-only React).

- `consent_manager(lang)`: included once by the layout on every page. Without a consent
  service (CONSENT_SCRIPT_URL empty) it shows our banner until the visitor has answered every
  purpose of `content.consent.PURPOSES`; with one, it loads that service's script instead.
  Either way it installs `window.nereoConsent`.
- `consent_settings_button(lang)`: reopens our banner ("Gérer les cookies"); nothing is
  rendered when a consent service owns consent (the service renders its own controls in
  `#cookie-declaration`).
- Events are sent in the browser with `window.nereoConsent.track(name, data)` (the lead forms
  send `conversion`, carried by the marketing purpose), never from a backend handler: the CSP
  forbids `eval`.

The JSX renders what `consent_props(lang)` gives it: the banner's words and the purposes (key,
words, the script URLs each loads, the events each carries). The script URLs are read when the
frontend is built.
"""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from marketing_site import routes
from marketing_site.content import consent as consent_content
from marketing_site.content.words import words
from marketing_site.services import site_storage
from marketing_site.settings import get_settings

CONSENT_JS = "$/public/consent.jsx"
# The visitor's choice: name and lifetime from the list the privacy policy shows.
COOKIE_NAME = site_storage.CONSENT.name
COOKIE_MAX_AGE_SECONDS = site_storage.CONSENT.lifetime_seconds
COOKIE_MAX_AGE_DAYS = COOKIE_MAX_AGE_SECONDS // site_storage.DAY


class ConsentTexts(TypedDict):
    """The banner's own words (`content/<lang>/consent.yaml`, but `purposes`)."""

    label: str
    title: str
    text: str
    privacy_before: str
    privacy_link: str
    privacy_after: str
    accept_all: str
    refuse_all: str
    customise: str
    panel_title: str
    necessary_label: str
    necessary_text: str
    always_on: str
    save: str
    saved: str
    settings: str


class ConsentPurposeProps(TypedDict):
    """One purpose as the banner gets it: one checkbox, its scripts, its events."""

    key: str
    label: str
    text: str
    recipients: str  # where its data goes, in words
    scripts: list[str]  # URLs injected once it is chosen (empty ones are skipped)
    events: list[str]  # `nereoConsent.track` names it carries


class ConsentManagerProps(TypedDict):
    """Every prop of `ConsentManager` in `assets/consent.jsx` (snake_case here, camelCase there)."""

    texts: ConsentTexts
    purposes: list[ConsentPurposeProps]
    privacy_href: str
    consent_script_url: str
    cookie_name: str
    cookie_max_age: int


class ConsentManager(rx.Component):
    """Our banner and customise panel, or the third-party service's script."""

    library = CONSENT_JS
    tag = "ConsentManager"
    texts: rx.Var[dict[str, str]]
    purposes: rx.Var[list[dict[str, str | list[str]]]]
    privacy_href: rx.Var[str]
    consent_script_url: rx.Var[str]
    cookie_name: rx.Var[str]
    cookie_max_age: rx.Var[int]


class ConsentGate(rx.Component):
    """The head script that tells the prerendered banner whether to paint (a purpose unanswered)."""

    library = CONSENT_JS
    tag = "ConsentGate"
    cookie_name: rx.Var[str]
    purpose_keys: rx.Var[list[str]]


class ConsentSettingsButton(rx.Component):
    """A button that reopens the banner (`window.nereoConsent.open()`)."""

    library = CONSENT_JS
    tag = "ConsentSettingsButton"
    label: rx.Var[str]


def texts(lang: str) -> ConsentTexts:
    """The banner's words in `lang` (`content/<lang>/consent.yaml`)."""
    found = dict(words(lang, "consent"))
    found.pop("purposes", None)
    return ConsentTexts(**found)  # type: ignore[typeddict-item]  # the YAML's keys, checked by the tests


def purposes(lang: str) -> list[ConsentPurposeProps]:
    """The purposes of `content.consent` with their words in `lang` and their script URLs."""
    settings = get_settings()
    described = words(lang, "consent.purposes")
    return [
        ConsentPurposeProps(
            key=purpose.key,
            label=described[purpose.key]["label"],
            text=described[purpose.key]["text"],
            recipients=described[purpose.key]["recipients"],
            scripts=[getattr(settings, name) for name in purpose.script_settings],
            events=list(purpose.events),
        )
        for purpose in consent_content.PURPOSES
    ]


def consent_props(lang: str) -> ConsentManagerProps:
    """What `ConsentManager` renders in `lang`."""
    settings = get_settings()
    return ConsentManagerProps(
        texts=texts(lang),
        purposes=purposes(lang),
        privacy_href=routes.PRIVACY.path(lang),
        consent_script_url=settings.consent_script_url,
        cookie_name=COOKIE_NAME,
        cookie_max_age=COOKIE_MAX_AGE_SECONDS,
    )


def consent_manager(lang: str) -> rx.Component:
    return ConsentManager.create(**consent_props(lang))


def consent_gate() -> rx.Component:
    return ConsentGate.create(cookie_name=COOKIE_NAME, purpose_keys=list(consent_content.purpose_keys()))


def consent_settings_button(lang: str, class_name: str = "consent-settings") -> rx.Component:
    if get_settings().consent_script_url:
        return rx.fragment()
    return ConsentSettingsButton.create(label=texts(lang)["settings"], class_name=class_name)
