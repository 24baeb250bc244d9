"""The five downloadable PDF documents (SPEC §3): their text, their file and their download name.

Each document is a Markdown file with front matter, one per language:
`content/fr/documents/<key>.md` and `content/en/documents/<key>.md` (same keys, same structure:
the English text is a translation, section by section). `scripts/make_documents.py` lays them
out into files/, and tests/test_documents.py checks that the committed PDFs match: after editing
a text, re-run `.venv/bin/python scripts/make_documents.py`.

The front matter gives `file` (its name in files/), `display_name` (the name the visitor's browser
saves it under: ASCII, no slashes), `label`, `title` and `subtitle` (the cover; the title and
subtitle are also the PDF metadata) and, for the documentation a solution page offers, `page`
(how that page describes it: `pages.feature_page`). The body, parsed with markdown-it-py:
- `## Heading` starts a section (listed in the table of contents);
- a paragraph in emphasis alone (`*...*`) is a lead paragraph, other paragraphs are body text;
- `### Subheading`; `- item` bullet lists (`**term**` for a bold term);
- a block quote whose first paragraph is bold (`> **Title**`) followed by a list is a call-out box.
`{{brand}}` and `{{legal_name}}` stand for the names of `brand.py`. Write straight apostrophes
and plain spaces before « : ; ! ? »: the generator applies French typography to French documents
and typographic apostrophes to English ones.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from marketing_site import routes
from marketing_site.brand import BRAND_NAME, LEGAL_NAME
from marketing_site.content.sources import content_cache, load_yaml, note_read

CONTENT = Path(__file__).resolve().parent
# Every language of the site has its documents (a new language's are its copy of the English
# ones until translated, each under a file name of its own).
LANGS = routes.LANGS
KEYS = ("ebook", "white_paper", "portal_documentation", "kyc_documentation", "subscription_documentation")
FACTS = {"{{brand}}": BRAND_NAME, "{{legal_name}}": LEGAL_NAME}

# Rich text: a list of runs, each {"text", "bold", "href", "lang"}: bold or not, part of a link to
# `href` (an https:// or mailto: address) or not, in another language than the document's (`lang`,
# a BCP 47 tag such as "fr-FR") or not.
Run = dict[str, Any]
Runs = list[Run]

# A passage in another language than the document's: `<span lang="fr-FR">...</span>`, the only
# inline HTML a document may carry (the PDF tags it with its own /Lang).
_LANG_OPEN = re.compile(r'<span lang="([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)">')
_LINK_SCHEMES = ("https://", "mailto:")


def _facts(text: str) -> str:
    for placeholder, value in FACTS.items():
        text = text.replace(placeholder, value)
    return text


def _fill(value: Any) -> Any:
    """A front matter value with its facts filled in (strings, lists and mappings of them)."""
    if isinstance(value, dict):
        return {key: _fill(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item) for item in value]
    return _facts(str(value))


def _split_front_matter(source: str, path: Path) -> tuple[dict[str, Any], str]:
    if not source.startswith("---\n"):
        raise ValueError(f"{path}: front matter (between --- lines) expected at the top")
    front, _, body = source[4:].partition("\n---\n")
    return load_yaml(front) or {}, body


def _runs(inline: Token, path: Path) -> Runs:
    """The text of an inline token as runs; soft line breaks become spaces."""
    runs: Runs = []
    bold, href, lang = False, None, None
    for child in inline.children or []:
        if child.type == "strong_open":
            bold = True
        elif child.type == "strong_close":
            bold = False
        elif child.type == "link_open":
            href = str(child.attrs["href"])
            if not href.startswith(_LINK_SCHEMES):
                raise ValueError(f"{path}: a link in a document goes to an https:// or mailto: address ({href!r})")
        elif child.type == "link_close":
            href = None
        elif child.type == "html_inline" and (opened := _LANG_OPEN.fullmatch(child.content)) and lang is None:
            lang = opened.group(1)
        elif child.type == "html_inline" and child.content == "</span>" and lang is not None:
            lang = None
        elif child.type in ("text", "code_inline") and child.content:
            runs.append({"text": _facts(child.content), "bold": bold, "href": href, "lang": lang})
        elif child.type in ("softbreak", "hardbreak"):
            runs.append({"text": " ", "bold": bold, "href": href, "lang": lang})
        elif child.type not in ("em_open", "em_close", "text", "code_inline"):
            raise ValueError(f"{path}: unsupported Markdown in a document: {child.type} ({inline.content!r})")
    if lang is not None or href is not None:
        raise ValueError(f"{path}: unclosed <span lang> or link in {inline.content!r}")
    return runs


def _is_emphasis_only(inline: Token) -> bool:
    children = inline.children or []
    return len(children) >= 3 and children[0].type == "em_open" and children[-1].type == "em_close"


def _figure(inline: Token, path: Path) -> dict[str, Any] | None:
    """A paragraph that is one image alone, `![alt text](images/name.svg)`, as a figure block."""
    children = [child for child in inline.children or [] if not (child.type == "text" and not child.content.strip())]
    if len(children) != 1 or children[0].type != "image":
        return None
    image = children[0]
    alt = _facts(image.content).strip()
    if not alt:
        raise ValueError(f"{path}: an image in a document needs its alternative text: ![what it shows](...)")
    source = (path.parent / str(image.attrs["src"])).resolve()
    if not source.is_relative_to(path.parent.resolve()) or not source.is_file():
        raise ValueError(f"{path}: image {image.attrs['src']!r} is not a file beside the document")
    return {"kind": "figure", "src": source, "alt": alt}


def parse_document(source: str, path: Path) -> dict[str, Any]:
    """One document: the front matter's fields and `sections`, a list of `{"heading", "blocks"}`.

    A block is `{"kind": "lead" | "paragraph" | "subheading", "text": runs}`,
    `{"kind": "bullets", "items": [runs]}`, `{"kind": "callout", "title": runs, "items": [runs]}`,
    `{"kind": "table", "header": [runs], "rows": [[runs]]}` or
    `{"kind": "figure", "src": path, "alt": text}`.
    """
    front, body = _split_front_matter(source, path)
    document = {key: _fill(value) for key, value in front.items()}
    sections: list[dict[str, Any]] = []
    tokens = MarkdownIt("commonmark").enable("table").parse(body)
    callout: dict[str, Any] | None = None
    table: dict[str, Any] | None = None

    def blocks() -> list[dict[str, Any]]:
        if not sections:
            raise ValueError(f"{path}: text before the first ## heading")
        return sections[-1]["blocks"]

    for index, token in enumerate(tokens):
        if token.type == "blockquote_open":
            callout = {"kind": "callout", "title": [], "items": []}
            blocks().append(callout)
        elif token.type == "blockquote_close":
            callout = None
        elif token.type == "table_open":
            table = {"kind": "table", "header": [], "rows": []}
            blocks().append(table)
        elif token.type == "table_close":
            table = None
        elif token.type == "tr_open" and table is not None and tokens[index - 1].type != "thead_open":
            table["rows"].append([])
        elif token.type == "inline" and table is not None:
            cell = _runs(token, path)
            if tokens[index - 1].type == "th_open":
                table["header"].append(cell)
            else:
                table["rows"][-1].append(cell)
        elif token.type == "heading_open":
            text = _runs(tokens[index + 1], path)
            if token.tag == "h2":
                if any(run["href"] or run["lang"] for run in text):
                    raise ValueError(f"{path}: a ## heading is plain text (no link, no <span lang>)")
                sections.append({"heading": "".join(run["text"] for run in text), "blocks": []})
            elif token.tag == "h3":
                blocks().append({"kind": "subheading", "text": text})
            else:
                raise ValueError(f"{path}: only ## and ### headings are laid out")
        elif token.type == "bullet_list_open" and callout is None:
            blocks().append({"kind": "bullets", "items": []})
        elif token.type == "inline" and tokens[index - 1].type == "paragraph_open":
            if index >= 2 and tokens[index - 2].type == "list_item_open":
                target = callout if callout is not None else blocks()[-1]
                target["items"].append(_runs(token, path))
            elif callout is not None:
                if callout["title"]:
                    raise ValueError(f"{path}: a call-out is a bold title and a list")
                callout["title"] = _runs(token, path)
            elif (figure := _figure(token, path)) is not None:
                blocks().append(figure)
            elif _is_emphasis_only(token):
                blocks().append({"kind": "lead", "text": _runs(token, path)})
            else:
                blocks().append({"kind": "paragraph", "text": _runs(token, path)})
        elif token.type in ("ordered_list_open", "fence", "code_block", "html_block", "hr"):
            raise ValueError(f"{path}: {token.type} is not laid out in the PDF documents")
    document["sections"] = sections
    return document


@content_cache
def documents_in(lang: str) -> dict[str, dict]:
    """The five documents in `lang`, by key."""
    folder = CONTENT / lang / "documents"
    for key in KEYS:
        note_read(folder / f"{key}.md")
    return {key: parse_document((folder / f"{key}.md").read_text("utf-8"), folder / f"{key}.md") for key in KEYS}


def document_for(key: str, lang: str) -> dict:
    """The document `key` in the language of the page that offers it."""
    return documents_in(lang)[key]


@content_cache
def layout_words(lang: str) -> dict[str, str]:
    """The words the PDF layout adds around a document's text: cover tagline, contents heading,
    and the PDF's language tag."""
    note_read(CONTENT / lang / "documents" / "pdf_layout.yaml")
    words = load_yaml((CONTENT / lang / "documents" / "pdf_layout.yaml").read_text("utf-8"))
    return {key: _facts(value) for key, value in words.items()}


# The French documents, by key (the site's default language).
DOCUMENTS: dict[str, dict] = documents_in("fr")
