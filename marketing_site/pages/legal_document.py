"""The one renderer of the legal texts: legal notice, terms of sale and privacy policy.

A document is a Markdown file in `content/<lang>/` (`content.words.document` parses it, see
the files for the syntax): front matter `eyebrow`, `title`, `description`, then `sections`,
each a dict with an anchor `id`, a `title` and a list of `blocks`. A block is one of:

- `{"text": [part, ...]}`: a paragraph; `{"items": [[part, ...], ...]}`: a bullet list. A part
  is a string, `{"strong": str}` (bold) or a link;
- `{"subtitle": str}`: a sub-heading (h3);
- `{"facts": [{"term": str, "value": str | link}, ...]}`: a definition list (identity blocks);
- `{"table": {"caption": str, "columns": [str, ...], "rows": [[str, ...], ...]}}`;
- `{"cookie_declaration": str}`: the element the consent service fills with its cookie
  tables; the sentence shows until it does (only when a consent service is configured);
- `{"cookie_table": {...}}`: with our own banner, the table of every cookie and storage
  key the site sets, rendered from `services.site_storage.ITEMS` (words: caption, columns,
  store names, purposes, categories, lifetime units);
- `{"consent_settings": True}`: the "cookie settings" button that reopens the consent
  banner (nothing when a third-party consent service is configured);
- `{"audience_opt_out": {...}}`: whether this browser is counted by the audience measurement,
  and the button that opts it out or back in (words: measured, refused, signal, opt_out, opt_in).

A link is `{"label": str, "to": target, "anchor": str}`: the target is a `routes.Page`,
`"email"` (the contact address; an empty label shows the address) or an https URL.
"""

from __future__ import annotations

import reflex as rx

from marketing_site import routes
from marketing_site.components.client import AudienceOptOut
from marketing_site.components.consent import consent_settings_button
from marketing_site.components.links import link
from marketing_site.components.sections import hero, image
from marketing_site.content import legal_entity
from marketing_site.content.words import document, words
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


def _parts(parts: list, lang: str) -> list:
    return [
        part if isinstance(part, str) else rx.el.strong(part["strong"]) if "strong" in part else _link(part, lang)
        for part in parts
    ]


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


def _cookie_table(table_words: dict) -> rx.Component:
    rows = []
    for item in site_storage.ITEMS:
        if item.lifetime_seconds is None:
            lifetime = table_words["lifetimes"]["session" if item.store == "sessionStorage" else "persistent"]
        else:
            lifetime = _lifetime(item.lifetime_seconds, table_words["lifetimes"])
        rows.append(
            [
                f"{item.name} ({table_words['stores'][item.store]})",
                table_words["purposes"][item.key],
                lifetime,
                table_words["categories"][item.category],
            ]
        )
    table = _table({"caption": table_words["caption"], "columns": table_words["columns"], "rows": rows})
    return rx.el.div(table, data_testid="cookie-table")


def _block(block: dict, lang: str) -> rx.Component:
    if "text" in block:
        return rx.el.p(*_parts(block["text"], lang))
    if "items" in block:
        return rx.el.ul(*[rx.el.li(*_parts(item, lang)) for item in block["items"]], class_name="bullets")
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
    if "audience_opt_out" in block:
        text = block["audience_opt_out"]
        return rx.el.div(
            AudienceOptOut.create(
                measured_text=text["measured"],
                refused_text=text["refused"],
                signal_text=text["signal"],
                opt_out_label=text["opt_out"],
                opt_in_label=text["opt_in"],
            ),
            data_testid="audience-opt-out",
        )
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


def _placeholders(lang: str) -> dict[str, str]:
    """What a legal text's `{{placeholder}}`s stand for besides the brand: the company's facts."""
    return {**legal_entity.FACTS, **words(lang, "legal_entity")}


def legal_document(name: str, lang: str, art: str) -> rx.Component:
    """The legal text `name` (`content/<lang>/<name>.md`): hero, table of contents, numbered sections.

    `art` is the hero illustration. A text missing in the page's language is shown in French
    (the French-only terms of sale on the English site): it is then marked with its own
    language and introduced by a note in the page's.
    """
    doc, text_lang = document(lang, name, _placeholders)
    frame = words(text_lang, "legal_document")
    body = rx.fragment(
        hero(
            doc["title"],
            doc["description"],
            eyebrow=doc["eyebrow"],
            illustration=image(art, "", 480, 360, loading="eager"),
            tone="blue",
        ),
        rx.el.div(
            rx.el.div(
                _toc(doc["sections"], frame["toc_title"]),
                rx.el.div(
                    *[
                        _section(number, section, lang, frame["back_to_toc"])
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
    note = words(lang, "legal_document.original_language_note")
    return rx.fragment(
        rx.el.div(rx.el.p(note, class_name="container"), class_name="legal-language-note"),
        rx.el.div(body, lang=text_lang),
    )
