"""Write the five downloadable PDF documents (SPEC §3), in French and in English, from their
Markdown in `marketing_site/content/<lang>/documents/` (parsed by `marketing_site.content.downloads`).

Usage: .venv/bin/python scripts/make_documents.py [output_dir]      (default: files/)

The PDF is written by fpdf2 with the Liberation Sans TrueType fonts (Helvetica's metrics,
embedded as subsets, so any Latin text renders), from Debian's `fonts-liberation`
(`make fonts`, a prerequisite of `make test` and `make documents`, installs it).
`render_document` lays one document out: a cover page with the table of contents, then the
sections (headings, paragraphs, bullet lists, call-out boxes), a header and a footer with
the page number on every inner page.

The output is deterministic (a fixed creation date, a content-derived file ID, uncompressed streams
whose bytes do not depend on the zlib build), so re-running the script gives byte-identical
files and tests/test_documents.py can check that the committed PDFs match the Markdown.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from marketing_site.brand import BRAND_NAME, LEGAL_NAME
from marketing_site.content.downloads import LANGS, documents_in, layout_words

OUTPUT_DIR = ROOT / "files"
CREATOR = "scripts/make_documents.py"
# The creation date written in every PDF: fixed, so that re-running gives the same bytes.
DOCUMENT_DATE = datetime(2026, 1, 1, tzinfo=UTC)
# Liberation Sans: Helvetica's metrics, every Latin character (Debian's fonts-liberation).
FONT_DIR = Path("/usr/share/fonts/truetype/liberation")
FONT_FILES = {False: FONT_DIR / "LiberationSans-Regular.ttf", True: FONT_DIR / "LiberationSans-Bold.ttf"}
FONT = "LiberationSans"

# --------------------------------------------------------------------------- page geometry
# In points, y measured from the bottom of the page (converted for fpdf2, which measures from the top).

PAGE_WIDTH, PAGE_HEIGHT = 595.28, 841.89  # A4
MARGIN_X = 64.0
CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X
BODY_TOP = PAGE_HEIGHT - 92.0
BODY_BOTTOM = 78.0

Color = tuple[int, int, int]


def _hex(value: str) -> Color:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


NAVY = _hex("#0b2545")
GOLD = _hex("#b8860b")
TEXT = _hex("#1f2a37")
MUTED = _hex("#5b6675")
RULE = _hex("#d5dae1")
WHITE = _hex("#ffffff")
COVER_SUBTITLE = _hex("#c9d6e8")
CALLOUT_FILL = _hex("#f8f3e6")

REGULAR, BOLD = False, True
Span = tuple[bool, str]  # (bold, text)


def typography(text: str, lang: str) -> str:
    """French typography for French documents; typographic apostrophes only for English ones."""
    return french_typography(text) if lang == "fr" else text.replace("'", "\u2019")


def french_typography(text: str) -> str:
    """Typographic apostrophes and non-breaking spaces before : ; ! ? » and after «."""
    text = text.replace("'", "\u2019")
    for mark in (":", ";", "!", "?", "»"):
        text = text.replace(" " + mark, "\u00a0" + mark)
    return text.replace("« ", "«\u00a0")


# --------------------------------------------------------------------------- the PDF


class Pdf:
    """An fpdf2 document measured while laying out, drawn once the layout is complete.

    Pages are lists of drawing operations: the cover (with its table of contents) and the
    running headers and footers are only known at the end, so they are replayed in order then.
    """

    def __init__(self, title: str, subject: str, lang: str) -> None:
        self.fpdf = FPDF(unit="pt", format=(PAGE_WIDTH, PAGE_HEIGHT))
        self.fpdf.set_compression(False)
        self.fpdf.set_creation_date(DOCUMENT_DATE)  # fixed: the same bytes on every run
        self.fpdf.set_auto_page_break(False)
        self.fpdf.set_margin(0)
        for bold, path in FONT_FILES.items():
            self.fpdf.add_font(FONT, "B" if bold else "", str(path))
        self.fpdf.set_title(title)
        self.fpdf.set_author(LEGAL_NAME)
        self.fpdf.set_subject(subject)
        self.fpdf.set_creator(CREATOR)
        self.fpdf.set_lang(lang)
        self.fpdf.set_display_mode("fullpage")
        self.pages: list[Page] = []

    def width(self, text: str, bold: bool, size: float) -> float:
        self.fpdf.set_font(FONT, "B" if bold else "", size)
        return self.fpdf.get_string_width(text)

    def add_page(self) -> Page:
        self.pages.append(Page(self))
        return self.pages[-1]

    def to_bytes(self) -> bytes:
        for page in self.pages:
            self.fpdf.add_page()
            for draw in page.ops:
                draw(self.fpdf)
        return bytes(self.fpdf.output())


class Page:
    """The drawing operations of one page, replayed by `Pdf.to_bytes`."""

    def __init__(self, pdf: Pdf) -> None:
        self.pdf = pdf
        self.ops: list[Callable[[FPDF], None]] = []

    def rect(self, x: float, y: float, width: float, height: float, color: Color) -> None:
        def draw(fpdf: FPDF) -> None:
            fpdf.set_fill_color(*color)
            fpdf.rect(x, PAGE_HEIGHT - y - height, width, height, style="F")

        self.ops.append(draw)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color, width: float = 0.5) -> None:
        def draw(fpdf: FPDF) -> None:
            fpdf.set_draw_color(*color)
            fpdf.set_line_width(width)
            fpdf.line(x1, PAGE_HEIGHT - y1, x2, PAGE_HEIGHT - y2)

        self.ops.append(draw)

    def text(
        self,
        x: float,
        y: float,
        spans: list[Span] | str,
        size: float,
        color: Color,
        bold: bool = REGULAR,
        spacing: float = 0.0,
    ) -> None:
        """One line of text whose baseline starts at (x, y); `spans` may switch between regular and bold."""
        runs = [(bold, spans)] if isinstance(spans, str) else spans

        def draw(fpdf: FPDF) -> None:
            fpdf.set_text_color(*color)
            fpdf.set_char_spacing(spacing)
            left = x
            for run_bold, content in runs:
                fpdf.set_font(FONT, "B" if run_bold else "", size)
                fpdf.text(left, PAGE_HEIGHT - y, content)
                left += fpdf.get_string_width(content)
            fpdf.set_char_spacing(0)

        self.ops.append(draw)

    def text_right(self, right: float, y: float, content: str, size: float, color: Color, bold: bool = REGULAR) -> None:
        self.text(right - self.pdf.width(content, bold, size), y, content, size, color, bold)


# --------------------------------------------------------------------------- rich-text wrapping


def wrap_spans(pdf: Pdf, spans: list[Span], width: float, size: float) -> list[list[Span]]:
    """Break `spans` into lines no wider than `width`, at ordinary spaces only.

    A word may mix fonts (a bold term directly followed by a regular colon); each line is
    returned as a list of spans, adjacent spans of the same font merged.
    """
    words: list[list[Span]] = [[]]
    for bold, content in spans:
        for index, part in enumerate(content.split(" ")):
            if index:
                words.append([])
            if part:
                words[-1].append((bold, part))
    words = [word for word in words if word]

    lines: list[list[list[Span]]] = [[]]
    line_width = 0.0
    for word in words:
        word_width = sum(pdf.width(content, bold, size) for bold, content in word)
        space = pdf.width(" ", word[0][0], size) if lines[-1] else 0.0
        if lines[-1] and line_width + space + word_width > width:
            lines.append([])
            line_width, space = 0.0, 0.0
        lines[-1].append(word)
        line_width += space + word_width

    result = []
    for line_words in lines:
        merged: list[Span] = []
        for position, word in enumerate(line_words):
            for piece_index, (bold, piece) in enumerate(word):
                content = " " + piece if position and piece_index == 0 else piece
                if merged and merged[-1][0] == bold:
                    merged[-1] = (bold, merged[-1][1] + content)
                else:
                    merged.append((bold, content))
        result.append(merged)
    return result


# --------------------------------------------------------------------------- the layout

BODY_SIZE, BODY_LEADING = 10.5, 15.0
LEAD_SIZE, LEAD_LEADING = 12.5, 18.0
HEADING_SIZE, HEADING_LEADING = 17.0, 21.0
SUBHEADING_SIZE, SUBHEADING_LEADING = 11.5, 15.0
BULLET_INDENT = 15.0
CALLOUT_PADDING = 12.0


def _lang_spans(value: str | list[Span], bold: bool, lang: str) -> list[Span]:
    """Rich text of a content value (plain text or (bold, text) runs), with the language's typography."""
    runs = [(False, value)] if isinstance(value, str) else value
    return [(bold or run_bold, typography(content, lang)) for run_bold, content in runs]


def render_document(doc: dict, lang: str = "fr") -> bytes:
    """Lay out one document of `documents_in(lang)` and return the bytes of its PDF."""
    words = layout_words(lang)
    writer = Pdf(
        title=typography(doc["title"], lang), subject=typography(doc["subtitle"], lang), lang=words["pdf_lang"]
    )

    def _spans(value: str | list[Span], bold: bool = REGULAR) -> list[Span]:
        return _lang_spans(value, bold, lang)

    def wrap(spans: list[Span], width: float, size: float) -> list[list[Span]]:
        return wrap_spans(writer, spans, width, size)

    cover = writer.add_page()
    contents: list[tuple[str, int]] = []  # (section heading, page number) for the table of contents
    page = cover
    y = 0.0  # the cursor: top of the next line, in points from the bottom of the page

    def new_page() -> None:
        nonlocal page, y
        page = writer.add_page()
        y = BODY_TOP

    def ensure(height: float) -> None:
        if y - height < BODY_BOTTOM:
            new_page()

    def draw_lines(lines: list[list[Span]], x: float, size: float, leading: float, color: Color) -> None:
        """Draw wrapped lines from the cursor down, never leaving one line alone at a page break."""
        nonlocal y
        ensure(leading * min(len(lines), 2))
        for index, line in enumerate(lines):
            if index >= 2 and len(lines) - index == 2:
                ensure(leading * 2)
            ensure(leading)
            y -= leading
            page.text(x, y + leading - size, line, size, color)

    def text_block(value: str, bold: bool, size: float, leading: float, color: Color) -> None:
        draw_lines(wrap(_spans(value, bold), CONTENT_WIDTH, size), MARGIN_X, size, leading, color)

    def bullet_list(items: list, x: float, width: float) -> None:
        nonlocal y
        for item in items:
            lines = wrap(_spans(item), width - BULLET_INDENT, BODY_SIZE)
            ensure(BODY_LEADING * min(len(lines), 2))
            page.text(x + 2, y - BODY_SIZE, "•", BODY_SIZE, GOLD, BOLD)
            draw_lines(lines, x + BULLET_INDENT, BODY_SIZE, BODY_LEADING, TEXT)
            y -= 3

    def callout(title: str, items: list) -> None:
        """A tinted box with a gold edge, a bold title and a bullet list; never split across pages."""
        nonlocal y
        inner = CONTENT_WIDTH - 2 * CALLOUT_PADDING - 4
        title_lines = wrap(_spans(title, BOLD), inner, BODY_SIZE)
        item_lines = [wrap(_spans(item), inner - BULLET_INDENT, BODY_SIZE) for item in items]
        height = 2 * CALLOUT_PADDING + BODY_LEADING * len(title_lines) + 4
        height += sum(BODY_LEADING * len(lines) + 3 for lines in item_lines)
        if height > BODY_TOP - BODY_BOTTOM:
            raise ValueError(f"call-out {title!r} is taller than a page")
        y -= 4
        ensure(height)
        page.rect(MARGIN_X, y - height, CONTENT_WIDTH, height, CALLOUT_FILL)
        page.rect(MARGIN_X, y - height, 3, height, GOLD)
        y -= CALLOUT_PADDING
        draw_lines(title_lines, MARGIN_X + CALLOUT_PADDING + 4, BODY_SIZE, BODY_LEADING, NAVY)
        y -= 4
        bullet_list(items, MARGIN_X + CALLOUT_PADDING + 4, inner)
        y -= CALLOUT_PADDING + 8

    # The sections, flowing from page 2 on; a heading never ends a page (it keeps ~3 lines with it).
    for section in doc["sections"]:
        if page is cover:
            new_page()
        else:
            y -= 16
            ensure(12 + HEADING_LEADING * 2 + 8 + BODY_LEADING * 3)
        contents.append((section["heading"], len(writer.pages)))
        page.rect(MARGIN_X, y - 3, 32, 3, GOLD)
        y -= 12
        text_block(section["heading"], BOLD, HEADING_SIZE, HEADING_LEADING, NAVY)
        y -= 8
        for block in section["blocks"]:
            kind = block["kind"]
            if kind == "lead":
                text_block(block["text"], REGULAR, LEAD_SIZE, LEAD_LEADING, NAVY)
                y -= 9
            elif kind == "paragraph":
                text_block(block["text"], REGULAR, BODY_SIZE, BODY_LEADING, TEXT)
                y -= 7
            elif kind == "subheading":
                y -= 5
                ensure(SUBHEADING_LEADING + BODY_LEADING * 2)
                text_block(block["text"], BOLD, SUBHEADING_SIZE, SUBHEADING_LEADING, NAVY)
                y -= 3
            elif kind == "bullets":
                bullet_list(block["items"], MARGIN_X, CONTENT_WIDTH)
                y -= 5
            elif kind == "callout":
                callout(block["title"], block["items"])
            else:
                raise ValueError(f"unknown block kind {kind!r}")

    # The cover: navy band with brand, label, title and subtitle, then the table of contents.
    cover.rect(0, PAGE_HEIGHT - 470, PAGE_WIDTH, 470, NAVY)
    cover.rect(0, PAGE_HEIGHT - 478, PAGE_WIDTH, 8, GOLD)
    cover.text(MARGIN_X, PAGE_HEIGHT - 70, BRAND_NAME.upper(), 15, WHITE, BOLD, spacing=3)
    cover.rect(MARGIN_X, PAGE_HEIGHT - 82, 32, 2, GOLD)
    cover.text(MARGIN_X, PAGE_HEIGHT - 200, doc["label"].upper(), 10, GOLD, BOLD, spacing=2)
    y = PAGE_HEIGHT - 212
    for line in wrap(_spans(doc["title"], BOLD), CONTENT_WIDTH, 30):
        y -= 36
        cover.text(MARGIN_X, y + 6, line, 30, WHITE)
    y -= 14
    for line in wrap(_spans(doc["subtitle"]), CONTENT_WIDTH, 14):
        y -= 20
        cover.text(MARGIN_X, y + 6, line, 14, COVER_SUBTITLE)
    if y < PAGE_HEIGHT - 430:
        raise ValueError(f"the title and subtitle of {doc['title']!r} do not fit in the cover band")
    cover.text(MARGIN_X, PAGE_HEIGHT - 448, typography(words["tagline"], lang), 9, COVER_SUBTITLE)

    y = PAGE_HEIGHT - 530
    cover.text(MARGIN_X, y, words["contents"], 13, NAVY, BOLD)
    y -= 10
    for heading, number in contents:
        lines = wrap(_spans(heading), CONTENT_WIDTH - 40, 10.5)
        for index, line in enumerate(lines):
            y -= 15
            cover.text(MARGIN_X, y + 4, line, 10.5, TEXT)
            if index == 0:
                cover.text_right(MARGIN_X + CONTENT_WIDTH, y + 4, str(number), 10.5, GOLD, BOLD)
        y -= 5
        cover.line(MARGIN_X, y, MARGIN_X + CONTENT_WIDTH, y, RULE)
    if y < BODY_BOTTOM:
        raise ValueError(f"the table of contents of {doc['title']!r} does not fit on the cover")

    # Header and footer of every page, now that the page count is known.
    total = len(writer.pages)
    footer = typography(f"© {LEGAL_NAME}", lang)
    for number, each in enumerate(writer.pages, start=1):
        each.line(MARGIN_X, 54, MARGIN_X + CONTENT_WIDTH, 54, RULE)
        each.text(MARGIN_X, 40, footer, 8, MUTED)
        if each is cover:
            continue
        each.text_right(MARGIN_X + CONTENT_WIDTH, 40, f"{number} / {total}", 8, MUTED)
        each.text(MARGIN_X, PAGE_HEIGHT - 48, BRAND_NAME.upper(), 8, NAVY, BOLD, spacing=1.5)
        each.text_right(MARGIN_X + CONTENT_WIDTH, PAGE_HEIGHT - 48, typography(doc["title"], lang), 8, MUTED)
        each.line(MARGIN_X, PAGE_HEIGHT - 58, MARGIN_X + CONTENT_WIDTH, PAGE_HEIGHT - 58, GOLD, 0.8)
    return writer.to_bytes()


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
    for (lang, key), path in write_documents(output_dir).items():
        data = path.read_bytes()
        pages = len(re.findall(rb"/Type /Page\b(?!s)", data))
        print(f"{lang} {key:28} {path.name:52} {pages} pages {len(data) / 1024:6.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
