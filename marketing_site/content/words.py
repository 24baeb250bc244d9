"""The one loader of the site's words: `content/<lang>/*.yaml` and `content/<lang>/*.md`.

Short strings live in YAML files, one per page or component (`words("fr", "consent.title")`
reads `fr/consent.yaml`, key `title`). Long texts live in Markdown files with a YAML front
matter (`document("fr", "privacy")`), parsed at build time with markdown-it-py into the
block structure `pages.legal_document` renders: nothing Markdown reaches the browser.

A key or a document missing in a language falls back to French (the UI messages of
`marketing_site.i18n` ask for English instead, SPEC §1). French text gets its
typography here, once, for every page: no-break spaces before « : ; ! ? % » and after « and
n°. Amounts keep their plain spaces ("2 147 001,10 €"), as they are written and searched for.
Values under the keys in `PLAIN_KEYS` (anchors, link targets) and under the keys a YAML file
lists in its `_plain` (attribute values, mail subjects) stay as written.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from marketing_site import brand
from marketing_site.content import demo
from marketing_site.content.sources import (
    CONTENT_DIR,
    ContentError,
    content_cache,
    line_of,
    load_yaml,
    note_fallback,
    note_read,
)
from marketing_site.settings import get_settings

DEFAULT_LANG = "fr"
# Keys whose values are not read as running text: typography leaves them alone.
PLAIN_KEYS = frozenset({"id", "to", "anchor"})

# What `{{brand}}` and friends stand for in every file: each fact is written in one place.
FACTS = {
    "brand": brand.BRAND_NAME,
    "legal_name": brand.LEGAL_NAME,
    "founded_year": str(brand.FOUNDED_YEAR),
    "consultant": demo.CONSULTANT,
}
# Facts that are settings, decided per deployment: the placeholder and the settings field.
# Read when a file is loaded, never at import; the parsed files are kept per value, so a
# changed setting changes every text that names it.
SETTING_FACTS = {
    "meeting_minutes": "booking_meeting_minutes",
    "buffer_minutes": "booking_buffer_minutes",
}

_FRENCH_SPACES = re.compile(r" (?=[:;!?%»])|(?<=«) |(?<=n°) ")
_PLACEHOLDER = re.compile(r"\{\{\s*([\w.]+)\s*\}\}")
_HEADING_ID = re.compile(r"\s*\{#([\w-]+)\}\s*$")
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)


class MissingWords(LookupError):
    """A key or document exists in no language folder (a typo in a page or a file).

    `file` is where the words belong (`content/<lang>/<file>.yaml`, or `.md` for a document)
    and `key` what is missing in it ("" for a whole document)."""

    def __init__(self, message: str, lang: str = DEFAULT_LANG, file: str = "", key: str = "") -> None:
        super().__init__(message)
        self.lang = lang
        self.file = file
        self.key = key


def french_spacing(value: Any, keep: Collection[str] = PLAIN_KEYS) -> Any:
    """`value` (a string, or a dict or list of them, nested) with French no-break spaces.

    Values under a key in `keep` stay as written; anything that is not text is unchanged.
    """
    if isinstance(value, str):
        return _FRENCH_SPACES.sub("\u00a0", value)
    if isinstance(value, list):
        return [french_spacing(item, keep) for item in value]
    if isinstance(value, dict):
        return {k: v if k in keep else french_spacing(v, keep) for k, v in value.items()}
    return value


def setting_facts() -> dict[str, str]:
    """The values of `SETTING_FACTS` in the current settings."""
    settings = get_settings()
    return {name: str(getattr(settings, field)) for name, field in SETTING_FACTS.items()}


def facts() -> dict[str, str]:
    """Every fact a `{{placeholder}}` names: `FACTS` and the settings' `SETTING_FACTS`."""
    return {**FACTS, **setting_facts()}


def _typeset(value: Any, lang: str, plain: Collection[str] = ()) -> Any:
    return french_spacing(value, PLAIN_KEYS | set(plain)) if lang == "fr" else value


def languages() -> list[str]:
    """The language folders present (French first)."""
    found = sorted(p.name for p in CONTENT_DIR.iterdir() if p.is_dir() and len(p.name) == 2)
    return [DEFAULT_LANG, *[lang for lang in found if lang != DEFAULT_LANG]]


def _yaml_file(lang: str, name: str) -> dict | None:
    return _filled_yaml_file(lang, name, tuple(setting_facts().items()))


@content_cache
def _filled_yaml_file(lang: str, name: str, settings: tuple[tuple[str, str], ...]) -> dict | None:
    path = CONTENT_DIR / lang / f"{name}.yaml"
    note_read(path)
    if not path.is_file():
        return None
    source = path.read_text(encoding="utf-8")
    try:
        data = load_yaml(source) or {}
    except yaml.YAMLError as error:
        raise _yaml_error(path, error) from None
    if not isinstance(data, dict):
        raise ContentError(path, "expected a mapping of keys to words", line=1, hint="Start the file with `key: words`")
    return _fill_tree(data, lang, path, {**FACTS, **dict(settings)})


def _yaml_error(path: pathlib.Path, error: yaml.YAMLError) -> ContentError:
    """The YAML parser's complaint, with its line, in a maintainer's words."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    return ContentError(
        path,
        f"this is not valid YAML ({problem})",
        line=mark.line + 1 if mark is not None else None,
        hint="Check the indentation, and put quotes around words that hold a colon followed by a space, "
        "or start with a quote, `*`, `&`, `!`, `%` or `@`",
    )


def _fill_tree(value: Any, lang: str, path: pathlib.Path, known: Mapping[str, str]) -> Any:
    """Placeholders in parsed YAML strings: a fact (`{{brand}}`, `{{meeting_minutes}}`) or another
    key of the same language (`{{common.request_demo}}`: a sentence written once, used in many places)."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: _placeholder(m.group(1), lang, path, known), value)
    if isinstance(value, list):
        return [_fill_tree(item, lang, path, known) for item in value]
    if isinstance(value, dict):
        return {k: _fill_tree(v, lang, path, known) for k, v in value.items()}
    return value


def _placeholder(name: str, lang: str, path: pathlib.Path, known: Mapping[str, str]) -> str:
    if name in known:
        return known[name]
    if "." in name:
        file, *keys = name.split(".")
        for source in dict.fromkeys((lang, DEFAULT_LANG)):
            value = _lookup(_yaml_file(source, file), keys)
            if isinstance(value, str):
                return value
    raise _unknown_placeholder(path, name)


def _unknown_placeholder(path: pathlib.Path, name: str) -> ContentError:
    source = path.read_text(encoding="utf-8") if path.is_file() else ""
    return ContentError(
        path,
        f"unknown placeholder {{{{{name}}}}}",
        line=line_of(source, "{{" + name) or line_of(source, name),
        hint=f"Use a fact ({', '.join(f'{{{{{fact}}}}}' for fact in facts())}) or another file's words "
        "as {{file.key}} (for example {{common.request_demo}})",
    )


def _without_plain(value: Any) -> Any:
    return {k: v for k, v in value.items() if k != "_plain"} if isinstance(value, dict) else value


def _fill(text: str, values: Mapping[str, str], path: pathlib.Path) -> str:
    """`text` with its `{{placeholder}}`s replaced by `values`; an unknown one is an error."""

    def placeholder(m: re.Match) -> str:
        if m.group(1) not in values:
            raise _unknown_placeholder(path, m.group(1))
        return values[m.group(1)]

    return _PLACEHOLDER.sub(placeholder, text)


def _lookup(data: dict | None, path: list[str]) -> Any:
    node: Any = data
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


_MISSING = object()


def words(lang: str, key: str, fallback: str = DEFAULT_LANG) -> Any:
    """The words under `key` ("file.key.subkey"; "file" alone for the whole file) in `lang`.

    A string, or a dict or list of them; in `fallback` (French, with its typography, unless
    told otherwise) when `lang` lacks it.
    """
    name, *path = key.split(".")
    for source in dict.fromkeys((lang, fallback)):
        data = _yaml_file(source, name)
        if data is None:
            continue
        value = _lookup(data, path)
        if value is not _MISSING:
            if source != lang:
                note_fallback(lang, key, source)
            plain = set(data.get("_plain", ()))
            if plain & set(path):  # asked for a value under a plain key
                return _without_plain(value)
            return _typeset(_without_plain(value), source, plain)
    raise MissingWords(
        f"no words for {key!r} in {lang!r} or {fallback!r}", lang=lang, file=f"{name}.yaml", key=".".join(path)
    )


# -- Markdown documents -------------------------------------------------------------------

_MARKDOWN = MarkdownIt("commonmark").enable("table")


def _link(href: str, label: str) -> dict:
    """A link part: `page:<route key>#anchor`, `email:` (the contact address) or a URL."""
    from marketing_site import routes  # the route table imports nothing from here

    if href.startswith("page:"):
        key, _, anchor = href.removeprefix("page:").partition("#")
        page = next((p for p in routes.PAGES if p.key == key), None)
        if page is None:
            raise ValueError(f"link to an unknown page {key!r}")
        return {"label": label, "to": page, "anchor": anchor}
    if href == "email:":
        return {"label": label, "to": "email", "anchor": ""}
    return {"label": label, "to": href, "anchor": ""}


def _inline(children: list[Token]) -> list:
    """Inline tokens as parts: plain strings, {"strong": str} and link dicts."""
    parts: list = []
    stack: list[tuple[str, str, list[str]]] = []
    for tok in children:
        if tok.type in ("link_open", "strong_open"):
            stack.append((tok.type, str(tok.attrs.get("href", "")), []))
        elif tok.type in ("link_close", "strong_close"):
            kind, href, pieces = stack.pop()
            label = "".join(pieces)
            parts.append(_link(href, label) if kind == "link_open" else {"strong": label})
        else:
            text = {"softbreak": " ", "hardbreak": " "}.get(tok.type, tok.content)
            if stack:
                stack[-1][2].append(text)
            elif parts and isinstance(parts[-1], str):
                parts[-1] += text
            else:
                parts.append(text)
    return parts


def _plain_text(children: list[Token]) -> str:
    parts = _inline(children)
    if not all(isinstance(p, str) for p in parts):
        raise ValueError(f"expected plain text, got {parts!r}")
    return "".join(parts)


def _fence(info: str, body: str, front: dict) -> dict:
    """A fenced block names a component the page renders in place of Markdown."""
    if info == "facts":
        facts = []
        for line in body.splitlines():
            term, sep, value = line.partition(" | ")
            if not sep:
                raise ValueError(f"a facts line reads 'term | value', got {line!r}")
            inline = _MARKDOWN.parseInline(value)[0].children or []
            parts = _inline(inline)
            facts.append({"term": term, "value": parts[0] if len(parts) == 1 else "".join(parts)})
        return {"facts": facts}
    if info == "cookie-declaration":
        return {"cookie_declaration": " ".join(body.split())}
    if info == "cookie-table":
        return {"cookie_table": front["cookie_table"]}
    if info == "consent-settings":
        return {"consent_settings": True}
    if info == "audience-opt-out":
        return {"audience_opt_out": front["audience_opt_out"]}
    raise ValueError(f"unknown fenced block {info!r}")


def _table(tokens: list[Token], start: int, caption: str) -> tuple[dict, int]:
    """A GFM table from `start` (its `table_open`); returns the block and the closing index."""
    header: list[str] = []
    rows: list[list[str]] = []
    row: list[str] = []
    in_head = False
    i = start
    while tokens[i].type != "table_close":
        kind = tokens[i].type
        if kind in ("thead_open", "thead_close"):
            in_head = kind == "thead_open"
        elif kind == "tr_open":
            row = []
        elif kind == "inline":
            row.append(_plain_text(tokens[i].children or []))
        elif kind == "tr_close":
            if in_head:
                header = row
            else:
                rows.append(row)
        i += 1
    return {"table": {"caption": caption, "columns": header, "rows": rows}}, i


def _blocks(tokens: list[Token], front: dict, where: list[int] | None = None) -> list[dict]:
    """Sections (## headings, with `{#anchor}`) and their blocks, in the renderer's structure.

    `where` receives the 0-based line (in the body) of the block being read, for the error."""
    sections: list[dict] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if where is not None and tok.map:
            where[:] = [tok.map[0]]
        if tok.type == "heading_open":
            text = _plain_text(tokens[i + 1].children or [])
            if tok.tag == "h2":
                anchor = _HEADING_ID.search(text)
                if not anchor:
                    raise ValueError(f"section {text!r} needs an anchor: '## Title {{#anchor}}'")
                sections.append({"id": anchor.group(1), "title": text[: anchor.start()], "blocks": []})
            else:
                sections[-1]["blocks"].append({"subtitle": text})
            i += 3
            continue
        if tok.type in ("paragraph_open", "bullet_list_open", "fence", "table_open") and not sections:
            raise ValueError("a block before the first section heading ('## Title {#anchor}')")
        blocks: list = sections[-1]["blocks"] if sections else []
        if tok.type == "paragraph_open":
            parts = _inline(tokens[i + 1].children or [])
            # "Table: caption" right above a table is the table's caption.
            is_caption = len(parts) == 1 and isinstance(parts[0], str) and parts[0].startswith("Table: ")
            if is_caption and i + 3 < len(tokens) and tokens[i + 3].type == "table_open":
                block, i = _table(tokens, i + 3, parts[0].removeprefix("Table: "))
                blocks.append(block)
            else:
                blocks.append({"text": parts})
                i += 2
        elif tok.type == "bullet_list_open":
            items = []
            i += 1
            while tokens[i].type != "bullet_list_close":
                if tokens[i].type == "inline":
                    items.append(_inline(tokens[i].children or []))
                i += 1
            blocks.append({"items": items})
        elif tok.type == "fence":
            blocks.append(_fence(tok.info.strip(), tok.content, front))
        elif tok.type == "table_open":
            block, i = _table(tokens, i, "")
            blocks.append(block)
        i += 1
    return sections


@content_cache
def _document(lang: str, name: str, values: tuple[tuple[str, str], ...]) -> dict:
    path = CONTENT_DIR / lang / f"{name}.md"
    note_read(path)
    source = path.read_text(encoding="utf-8")
    match = _FRONT_MATTER.match(source)
    if not match:
        raise ContentError(
            path,
            "a document starts with a front matter between '---' lines",
            line=1,
            hint="Add `---`, `title: …`, `---`",
        )
    fill = {**FACTS, **dict(values)}  # the settings' facts are among the values (document())
    try:
        front = load_yaml(_fill(match.group(1), fill, path)) or {}
    except yaml.YAMLError as error:
        raise _yaml_error(path, error) from None
    body = _fill(source[match.end() :], fill, path)
    body_line = source.count("\n", 0, match.end())  # lines before the body
    where = [0]
    try:
        sections = _blocks(_MARKDOWN.parse(body), front, where)
    except (ValueError, KeyError, IndexError) as error:
        problem = str(error).strip("'\"") if not isinstance(error, KeyError) else f"the front matter has no {error}"
        raise ContentError(path, problem, line=body_line + where[0] + 1) from None
    doc = {**front, "sections": sections}
    doc.pop("cookie_table", None)
    doc.pop("audience_opt_out", None)
    return _typeset(doc, lang)


def document(lang: str, name: str, values: Callable[[str], Mapping[str, str]] = lambda _: {}) -> tuple[dict, str]:
    """The Markdown document `name` in `lang` (French when missing) and the language it is in.

    `{{placeholder}}`s are filled, before parsing, from `facts()` and `values(language of the
    text)` (the company's facts).
    """
    for source in dict.fromkeys((lang, DEFAULT_LANG)):
        note_read(CONTENT_DIR / source / f"{name}.md")
        if (CONTENT_DIR / source / f"{name}.md").is_file():
            filled = {**setting_facts(), **values(source)}
            return _document(source, name, tuple(sorted(filled.items()))), source
    raise MissingWords(f"no document {name!r} in {lang!r} or {DEFAULT_LANG!r}", lang=lang, file=f"{name}.md")
