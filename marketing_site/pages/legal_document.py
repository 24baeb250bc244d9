"""The one renderer of the legal texts: legal notice, terms of sale and privacy policy.

A document comes from a content module: `eyebrow`, `title`, `lead` and `sections`, each
section a dict with an anchor `id`, a `title` and a list of `blocks`. A block is one of:

- `{"text": str}`: a paragraph; with `"link": {...}` and `"tail": str` the paragraph reads
  text, link, tail;
- `{"items": [str, ...]}`: a bullet list; with `"terms": True`, each item starts with a
  term ending in a colon, set in bold;
- `{"subtitle": str}`: a sub-heading (h3);
- `{"facts": [{"term": str, "value": str | link}, ...]}`: a definition list (identity blocks);
- `{"table": {"caption": str, "columns": [str, ...], "rows": [[str, ...], ...]}}`;
- `{"cookie_declaration": str}`: the element the consent service fills with its cookie
  tables; the sentence shows until it does (only when a consent service is configured);
- `{"cookie_table": {...}}`: with our own banner, the table of every cookie and storage
  key the site sets, rendered from `services.site_storage.ITEMS` (words: caption, columns,
  store names, purposes, categories, lifetime units);
- `{"consent_settings": True}`: the "cookie settings" button that reopens the consent
  banner (nothing when a third-party consent service is configured).

A link is `{"label": str, "to": target, "anchor": str}`: the target is a `routes.Page`,
`"email"` (the contact address; an empty label shows the address) or an https URL.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.consent import consent_settings_button
from marketing_site.components.links import link
from marketing_site.components.sections import hero, image
from marketing_site.content import legal_document as frame_words
from marketing_site.pages.typography import french_spacing
from marketing_site.services import site_storage
from marketing_site.settings import get_settings

TOC_ID = "sommaire"
CONTACT_EMAIL = "email"


def _href(target: routes.Page | str, anchor: str, lang: str) -> str:
    if isinstance(target, routes.Page):
        path = target.path(lang)
        return f"{path}#{anchor}" if anchor else path
    if target == CONTACT_EMAIL:
        return f"mailto:{get_settings().contact_email}"
    return target


def _link(spec: dict, lang: str) -> rx.Component:
    label = spec["label"] or (get_settings().contact_email if spec["to"] == CONTACT_EMAIL else "")
    return link(label, _href(spec["to"], spec.get("anchor", ""), lang))


def _paragraph(block: dict, lang: str) -> rx.Component:
    if "link" not in block:
        return rx.el.p(block["text"])
    return rx.el.p(block["text"], _link(block["link"], lang), block.get("tail", ""))


def _facts(facts: list[dict], lang: str) -> rx.Component:
    return rx.el.dl(
        *[
            rx.el.div(
                rx.el.dt(fact["term"]),
                rx.el.dd(fact["value"] if isinstance(fact["value"], str) else _link(fact["value"], lang)),
                class_name="legal-facts__row",
            )
            for fact in facts
        ],
        class_name="legal-facts",
    )


def _table(table: dict) -> rx.Component:
    return rx.el.div(
        rx.el.table(
            rx.el.caption(table["caption"]),
            rx.el.thead(rx.el.tr(*[rx.el.th(column, scope="col") for column in table["columns"]])),
            rx.el.tbody(
                *[
                    rx.el.tr(rx.el.th(row[0], scope="row"), *[rx.el.td(cell) for cell in row[1:]])
                    for row in table["rows"]
                ]
            ),
            class_name="legal-table",
        ),
        class_name="legal-table-wrap",
        tab_index=0,
        role="region",
        aria_label=table["caption"],
    )


def _lifetime(seconds: int, units: dict) -> str:
    for unit, size in (("day", site_storage.DAY), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {units[unit][0 if count == 1 else 1]}"
    raise ValueError(f"no unit for a lifetime of {seconds} s")


def _cookie_table(words: dict) -> rx.Component:
    rows = []
    for item in site_storage.ITEMS:
        if item.lifetime_seconds is None:
            lifetime = words["lifetimes"]["session" if item.store == "sessionStorage" else "persistent"]
        else:
            lifetime = _lifetime(item.lifetime_seconds, words["lifetimes"])
        rows.append(
            [
                f"{item.name} ({words['stores'][item.store]})",
                words["purposes"][item.key],
                lifetime,
                words["categories"][item.category],
            ]
        )
    table = _table({"caption": words["caption"], "columns": words["columns"], "rows": rows})
    return rx.el.div(table, data_testid="cookie-table")


def _item(item: str, has_term: bool) -> rx.Component:
    if not has_term:
        return rx.el.li(item)
    term, colon, rest = item.partition(":")
    return rx.el.li(rx.el.strong(term + colon), rest) if colon else rx.el.li(item)


def _block(block: dict, lang: str) -> rx.Component:
    if "text" in block:
        return _paragraph(block, lang)
    if "items" in block:
        has_terms = block.get("terms", False)
        return rx.el.ul(*[_item(item, has_terms) for item in block["items"]], class_name="bullets")
    if "subtitle" in block:
        return rx.el.h3(block["subtitle"], class_name="legal-doc__subtitle")
    if "facts" in block:
        return _facts(block["facts"], lang)
    if "table" in block:
        return _table(block["table"])
    if "cookie_table" in block:
        return rx.fragment() if get_settings().consent_script_url else _cookie_table(block["cookie_table"])
    if "cookie_declaration" in block:
        if not get_settings().consent_script_url:
            return rx.fragment()
        return rx.el.div(
            rx.el.p(block["cookie_declaration"]),
            id="cookie-declaration",
            class_name="legal-cookie-declaration",
        )
    if "consent_settings" in block:
        return rx.el.p(consent_settings_button(lang, "consent-settings btn btn--secondary"))
    raise ValueError(f"unknown legal-document block: {sorted(block)}")


def _toc(sections: list[dict], title: str) -> rx.Component:
    return rx.el.nav(
        rx.el.h2(title, id=f"{TOC_ID}-titre", class_name="legal-toc__title"),
        rx.el.ol(
            *[rx.el.li(link(s["title"], f"#{s['id']}")) for s in sections],
            class_name="legal-toc__list",
        ),
        id=TOC_ID,
        aria_labelledby=f"{TOC_ID}-titre",
        class_name="legal-toc",
    )


def _section(number: int, section: dict, lang: str, back_label: str) -> rx.Component:
    return rx.el.section(
        rx.el.h2(
            rx.el.span(f"{number}.", class_name="legal-doc__number"),
            f" {section['title']}",
        ),
        *[_block(block, lang) for block in section["blocks"]],
        link(back_label, f"#{TOC_ID}", class_name="legal-doc__back"),
        id=section["id"],
        class_name="legal-doc__section",
    )


def legal_document(doc: dict, lang: str, art: str, doc_lang: str | None = None) -> rx.Component:
    """A legal text: hero, table of contents, numbered sections.

    `art` is the hero illustration. `doc_lang` is the language the text is written in
    when it differs from the page's (the French-only terms of sale on the English site):
    the text is then marked with its own language and introduced by a note in the page's.
    """
    text_lang = doc_lang or lang
    words = frame_words.FR if text_lang == "fr" else frame_words.EN
    if text_lang == "fr":
        doc = french_spacing(doc)
    body = rx.fragment(
        hero(
            doc["title"],
            doc["lead"],
            eyebrow=doc["eyebrow"],
            illustration=image(art, "", 480, 360, loading="eager"),
            tone="blue",
        ),
        rx.el.div(
            rx.el.div(
                _toc(doc["sections"], words["toc_title"]),
                rx.el.div(
                    *[
                        _section(number, section, lang, words["back_to_toc"])
                        for number, section in enumerate(doc["sections"], start=1)
                    ],
                    class_name="legal-doc__body",
                ),
                class_name="legal-doc container",
            ),
            class_name="section section--plain",
        ),
    )
    if text_lang == lang:
        return body
    note = (frame_words.FR if lang == "fr" else frame_words.EN)["original_language_note"]
    return rx.fragment(
        rx.el.div(rx.el.p(note, class_name="container"), class_name="legal-language-note"),
        rx.el.div(body, lang=text_lang),
    )
