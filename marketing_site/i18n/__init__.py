"""UI messages and the browser-language rule.

Pages that exist in one language only (login, reset, trial, thank-you, download
landings, not-found) show their shared UI messages in the visitor's browser language:
`fr*` gives French, anything else English, French when no language is known (SPEC §1).
The messages are `content/<lang>/messages.yaml`, read through `content.words`; a message
missing in a language falls back to English (SPEC §1: "the fallback is English"), where
page words fall back to French.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.content.words import words
from marketing_site.reflex_internals.client_vars import hook_var

FALLBACK_LANG = "en"


def lookup(lang: str, key: str) -> str:
    """A message in `lang`, English when that language lacks it."""
    return words(lang, f"messages.{key}", fallback=FALLBACK_LANG)


# The browser's message language, decided in the browser (`useBrowserLang` in
# assets/site_ui.jsx): no server round trip, and "fr" until the page is hydrated.
BROWSER_LANG: rx.Var[str] = hook_var("browserLang", "useBrowserLang", "$/public/site_ui.jsx").to(str)


def message(key: str, lang: str | None = None) -> rx.Var | str:
    """A UI message: fixed when the page has a language, else by browser language."""
    if lang is not None:
        return lookup(lang, key)
    return rx.cond(BROWSER_LANG == "en", lookup("en", key), lookup("fr", key))
