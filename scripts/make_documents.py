"""Write the five downloadable PDF documents (SPEC §3), in French and in English, as tagged PDF/UA-1,
from their Markdown in `marketing_site/content/<lang>/documents/` (parsed by
`marketing_site.content.downloads`) and the words of `pdf_layout.yaml` beside it.

Usage: .venv/bin/python scripts/make_documents.py [output_dir]      (default: files/)

Typst (the `typst` package: the Typst compiler, in-process) lays each document out with
`scripts/document_layout.typ` and writes it as PDF/UA-1: a structure tree in reading order (the
Markdown's), headings, lists, tables and figures tagged, running headers, footers and decorations
as artifacts, every font embedded with its ToUnicode map. The text reaches Typst as JSON data, never
as markup. The fonts are Liberation Sans (Helvetica's metrics, every Latin character), from
Debian's `fonts-liberation` (`make fonts`, a prerequisite of `make documents` and the tests).

One step follows Typst: a link annotation's description (/Contents, which PDF/UA asks of every
link) is set to the link's text and address, where Typst writes the address alone.

The output is deterministic (a fixed date, identifiers derived from the content), so re-running the
script gives byte-identical files and tests/test_documents.py checks that the committed PDFs match
the Markdown. docs/documents.md says why Typst, and how the documents are checked.
"""

from __future__ import annotations

import io
import json
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pikepdf
import typst

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from marketing_site.brand import BRAND_NAME, LEGAL_NAME
from marketing_site.content.downloads import LANGS, documents_in, layout_words

sys.path.insert(0, str(ROOT / "scripts"))
from pdf_structure import structure

OUTPUT_DIR = ROOT / "files"
LAYOUT = ROOT / "scripts" / "document_layout.typ"
# The creation date written in every PDF: fixed, so that re-running gives the same bytes.
DOCUMENT_DATE = datetime(2026, 1, 1, tzinfo=UTC)
# Liberation Sans: Helvetica's metrics, every Latin character (Debian's fonts-liberation).
FONT_DIR = Path("/usr/share/fonts/truetype/liberation")


def typography(text: str, lang: str) -> str:
    """French typography for French documents; typographic apostrophes only for English ones."""
    return french_typography(text) if lang == "fr" else text.replace("'", "\u2019")


def french_typography(text: str) -> str:
    """Typographic apostrophes and non-breaking spaces before : ; ! ? » and after «."""
    text = text.replace("'", "\u2019")
    for mark in (":", ";", "!", "?", "»"):
        text = text.replace(" " + mark, "\u00a0" + mark)
    return text.replace("« ", "«\u00a0")


def _typeset(value: Any, lang: str) -> Any:
    """A document's parsed content with the language's typography on every text (runs, headings, alt text)."""
    if isinstance(value, str):
        return typography(value, lang)
    if isinstance(value, list):
        return [_typeset(item, lang) for item in value]
    if isinstance(value, dict):
        return {
            key: item if key in ("kind", "href", "lang", "src") else _typeset(item, lang) for key, item in value.items()
        }
    return value


def layout_data(doc: dict, lang: str) -> dict[str, Any]:
    """What document_layout.typ lays out: the document's text and the layout's words, as JSON-ready data."""
    words = layout_words(lang)
    language, _, region = words["pdf_lang"].partition("-")
    sections = [
        {
            "heading": typography(section["heading"], lang),
            "blocks": [
                {**block, "src": "/" + block["src"].relative_to(ROOT).as_posix()}
                if block["kind"] == "figure"
                else block
                for block in _typeset(section["blocks"], lang)
            ],
        }
        for section in doc["sections"]
    ]
    return {
        "lang": language,
        "region": region or None,
        "brand": BRAND_NAME.upper(),
        "author": LEGAL_NAME,
        "copyright": typography(f"© {LEGAL_NAME}", lang),
        "label": doc["label"],
        "title": typography(doc["title"], lang),
        "subtitle": typography(doc["subtitle"], lang),
        "tagline": typography(words["tagline"], lang),
        "contents": words["contents"],
        "sections": sections,
    }


def link_descriptions(pdf_bytes: bytes) -> bytes:
    """Each link annotation described by its text (and, for an address, the address): PDF/UA's /Contents.

    Typst gives a link to an address the address alone as its description, and a link inside the
    document its target's text; the text is read back from the link's structure element.
    """
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        tree, _ = structure(pdf)
        for link in (element for element in tree.walk() if element.tag == "/Link"):
            text = " ".join(link.text.split())
            for annotation in link.annotations():
                address = str(annotation.get("/A", {}).get("/URI", "")).removeprefix("mailto:")
                if not text:
                    raise ValueError(f"a link without text to {address or 'a place in the document'}")
                annotation.Contents = pikepdf.String(f"{text} ({address})" if address and address != text else text)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
    return out.getvalue()


def render_document(doc: dict, lang: str = "fr") -> bytes:
    """Lay out one document of `documents_in(lang)` and return the bytes of its PDF/UA-1 file."""
    pdf, warnings = typst.compile_with_warnings(
        LAYOUT,
        root=ROOT,
        font_paths=[FONT_DIR],
        ignore_system_fonts=True,
        sys_inputs={"document": json.dumps(layout_data(doc, lang), ensure_ascii=False)},
        pdf_standards=["ua-1"],
        timestamp=DOCUMENT_DATE,
    )
    if warnings:
        raise ValueError(f"{doc['file']}: Typst warns: {'; '.join(warning.message for warning in warnings)}")
    return link_descriptions(pdf)


def write_documents(output_dir: Path = OUTPUT_DIR) -> dict[tuple[str, str], Path]:
    """Render every document in every language into `output_dir`; return the paths by (lang, key)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for lang in LANGS:
        for key, doc in documents_in(lang).items():
            path = output_dir / doc["file"]
            path.write_bytes(render_document(doc, lang))
            written[lang, key] = path
    return written


def main(argv: list[str]) -> int:
    output_dir = Path(argv[0]) if argv else OUTPUT_DIR
    started = time.perf_counter()
    written = write_documents(output_dir)
    elapsed = time.perf_counter() - started
    for (lang, key), path in written.items():
        data = path.read_bytes()
        pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
        print(f"{lang} {key:28} {path.name:52} {pages} pages {len(data) / 1024:6.1f} KB")
    print(f"{len(written)} documents in {elapsed:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
