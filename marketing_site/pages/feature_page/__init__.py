"""The one builder behind the solution pages: the four feature pages, the subscription page
and the two documentation landings all arrange their words (`content/<lang>/<page>.yaml`)
with it.

A feature page is: hero, card sections, then (when its content has them) the prioritised
alerts, the audience, the documentation request, and the demo call to action.
"""

from __future__ import annotations

from itertools import cycle

import reflex as rx

from marketing_site import routes
from marketing_site.components import sections
from marketing_site.content.downloads import document_for
from marketing_site.content.words import words
from marketing_site.pages.feature_page.alerts import alerts_section
from marketing_site.pages.feature_page.audience import audience_section
from marketing_site.pages.feature_page.cards import card_section
from marketing_site.pages.feature_page.documentation import contents_section, documentation_section
from marketing_site.pages.feature_page.hero import hero
from marketing_site.theme import accent_class


def _words(name: str, lang: str) -> dict:
    """The page's words, its `documentation.document` key replaced by how the document's own
    front matter describes it for the page (`page` in `content/<lang>/documents/<key>.md`)."""
    text = words(lang, name)
    if "documentation" in text:
        key = text["documentation"]["document"]
        text["documentation"] = {**text["documentation"], "document": document_for(key, lang)["page"]}
    return text


def _frame(accent: str, *blocks: rx.Component) -> rx.Component:
    """The page body, carrying its palette accent as `--accent`."""
    return rx.el.div(*blocks, class_name=f"feature-page {accent_class(accent)}")


def feature_page(
    lang: str,
    name: str,
    *,
    accent: str,
    art: str,
    documentation_form: rx.Component | None = None,
    audience_on_mobile: bool = True,
) -> rx.Component:
    """A solution page from its words `name`; `accent` is a palette entry, `art` a hero drawing."""
    text = _words(name, lang)
    documentation = text.get("documentation")
    if documentation:
        # The hero's main button goes to the documentation request on the same page: the
        # router scrolls the anchor into view, smoothly per site.css's scroll-behavior.
        primary, secondary = f"#{documentation['id']}", routes.DEMO.path(lang)
    else:
        primary, secondary = routes.DEMO.path(lang), routes.PRICING.path(lang)
    tones = cycle(("plain", "tinted"))
    blocks = [card_section(section, accent, next(tones)) for section in text["sections"]]
    if "alerts" in text:
        blocks.append(alerts_section(text["alerts"], accent, next(tones)))
    if "audience" in text:
        blocks.append(audience_section(text["audience"], next(tones), on_mobile=audience_on_mobile))
    if documentation:
        blocks.append(documentation_section(documentation, form=documentation_form))
    cta = text["cta"]
    return _frame(
        accent,
        hero(text["hero"], art, primary, secondary),
        *blocks,
        sections.cta_banner(cta["title"], cta["text"], cta["label"], routes.DEMO.path(lang)),
    )


def documentation_landing(
    lang: str,
    name: str,
    *,
    accent: str,
    art: str,
    related: routes.Page,
    documentation_form: rx.Component | None = None,
) -> rx.Component:
    """A documentation landing: hero, what the document covers, who it is for, the request.

    `related` is the feature page the hero's second button leads to.
    """
    text = _words(name, lang)
    documentation = text["documentation"]
    return _frame(
        accent,
        hero(text["hero"], art, f"#{documentation['id']}", related.path(lang)),
        contents_section(text["covers"], documentation["document"], "plain"),
        audience_section(text["audience"], "tinted"),
        documentation_section(documentation, form=documentation_form, detailed=False),
    )
