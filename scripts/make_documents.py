"""Write the five downloadable PDF documents (SPEC §3), in French and in English, from
`marketing_site.content.downloads` and `marketing_site.content.downloads_en`.

Usage: .venv/bin/python scripts/make_documents.py [output_dir]      (default: files/)

Standard library only. `PdfWriter` is a small PDF 1.4 writer: A4 pages, the standard Type1
fonts Helvetica and Helvetica-Bold with WinAnsiEncoding (so French accents, « », – , ’ and …
render without embedding a font), uncompressed ASCII content streams, a valid xref table.
`render_document` lays one document out: a cover page with the table of contents, then the
sections (headings, paragraphs, bullet lists, call-out boxes), a header and a footer with
the page number on every inner page.

The output is deterministic (no dates, no random IDs, no compression whose bytes depend on
the zlib build), so re-running the script gives byte-identical files and
tests/test_documents.py can check that the committed PDFs match the content module.
"""

from __future__ import annotations

import hashlib
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from marketing_site.brand import BRAND_NAME, LEGAL_NAME  # noqa: E402
from marketing_site.content.downloads import LANGS, documents_in, layout_words  # noqa: E402

OUTPUT_DIR = ROOT / "files"
CREATOR = "scripts/make_documents.py"

# --------------------------------------------------------------------------- page geometry

PAGE_WIDTH, PAGE_HEIGHT = 595.28, 841.89  # A4 in points
MARGIN_X = 64.0
CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X
BODY_TOP = PAGE_HEIGHT - 92.0
BODY_BOTTOM = 78.0

Color = tuple[float, float, float]


def _hex(value: str) -> Color:
    return tuple(int(value[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


NAVY = _hex("#0b2545")
GOLD = _hex("#b8860b")
TEXT = _hex("#1f2a37")
MUTED = _hex("#5b6675")
RULE = _hex("#d5dae1")
WHITE = _hex("#ffffff")
COVER_SUBTITLE = _hex("#c9d6e8")
CALLOUT_FILL = _hex("#f8f3e6")

# --------------------------------------------------------------------------- fonts and metrics

REGULAR, BOLD = "F1", "F2"
FONT_NAMES = {REGULAR: "Helvetica", BOLD: "Helvetica-Bold"}

# Glyph widths (1/1000 em) of the printable ASCII characters 32..126, from the Adobe AFM files.
_ASCII_WIDTHS = {
    REGULAR: [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
    ],
    BOLD: [
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
        975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
        333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
        611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
    ],
}
# Non-ASCII characters whose width is not that of their unaccented base letter: (regular, bold).
_SPECIAL_WIDTHS = {
    "\u00a0": (278, 278), "’": (222, 278), "‘": (222, 278), "“": (333, 500), "”": (333, 500),
    "«": (556, 556), "»": (556, 556), "–": (556, 556), "—": (1000, 1000), "…": (1000, 1000),
    "•": (350, 350), "€": (556, 556), "°": (400, 400), "©": (737, 737), "®": (737, 737),
    "§": (556, 556), "·": (278, 278), "œ": (944, 944), "Œ": (1000, 1000), "æ": (889, 889),
    "Æ": (1000, 1000), "ß": (611, 611), "í": (278, 278), "ì": (278, 278), "î": (278, 278),
    "ï": (278, 278),
}


def char_width(char: str, font: str) -> int:
    """Approximate Helvetica advance width of one character, in 1/1000 em (good enough to wrap)."""
    if " " <= char <= "~":
        return _ASCII_WIDTHS[font][ord(char) - 32]
    if char in _SPECIAL_WIDTHS:
        return _SPECIAL_WIDTHS[char][font == BOLD]
    base = unicodedata.normalize("NFD", char)[0]  # é -> e, Ç -> C
    if " " <= base <= "~":
        return _ASCII_WIDTHS[font][ord(base) - 32]
    return 556


def text_width(text: str, font: str, size: float) -> float:
    return sum(char_width(char, font) for char in text) * size / 1000


def pdf_text(text: str) -> str:
    """A PDF literal string for `text` in WinAnsiEncoding, kept ASCII (octal escapes above 126)."""
    try:
        raw = text.encode("cp1252")
    except UnicodeEncodeError as error:
        char = text[error.start]
        raise ValueError(f"character {char!r} is not in WinAnsiEncoding, in {text!r}") from None
    out = []
    for byte in raw:
        if byte in b"()\\":
            out.append("\\" + chr(byte))
        elif 32 <= byte <= 126:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}")
    return "(" + "".join(out) + ")"


def pdf_info_text(text: str) -> str:
    """A PDF text string for the document information dictionary (UTF-16BE with BOM, hex)."""
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"


def typography(text: str, lang: str) -> str:
    """French typography for French documents; typographic apostrophes only for English ones."""
    return french_typography(text) if lang == "fr" else text.replace("'", "’")


def french_typography(text: str) -> str:
    """Typographic apostrophes and non-breaking spaces before : ; ! ? » and after «."""
    text = text.replace("'", "’")
    for mark in (":", ";", "!", "?", "»"):
        text = text.replace(" " + mark, "\u00a0" + mark)
    return text.replace("« ", "«\u00a0")


# --------------------------------------------------------------------------- rich-text wrapping

Span = tuple[str, str]  # (font, text)


def wrap_spans(spans: list[Span], width: float, size: float) -> list[list[Span]]:
    """Break `spans` into lines no wider than `width`, at ordinary spaces only.

    A word may mix fonts (a bold term directly followed by a regular colon); each line is
    returned as a list of spans, adjacent spans of the same font merged.
    """
    words: list[list[Span]] = [[]]
    for font, text in spans:
        for index, part in enumerate(text.split(" ")):
            if index:
                words.append([])
            if part:
                words[-1].append((font, part))
    words = [word for word in words if word]

    lines: list[list[list[Span]]] = [[]]
    line_width = 0.0
    for word in words:
        word_width = sum(text_width(text, font, size) for font, text in word)
        space = text_width(" ", word[0][0], size) if lines[-1] else 0.0
        if lines[-1] and line_width + space + word_width > width:
            lines.append([])
            line_width, space = 0.0, 0.0
        lines[-1].append(word)
        line_width += space + word_width

    result = []
    for line_words in lines:
        merged: list[Span] = []
        for position, word in enumerate(line_words):
            for piece_index, (font, text) in enumerate(word):
                if position and piece_index == 0:
                    text = " " + text
                if merged and merged[-1][0] == font:
                    merged[-1] = (font, merged[-1][1] + text)
                else:
                    merged.append((font, text))
        result.append(merged)
    return result


# --------------------------------------------------------------------------- the PDF writer


def _num(value: float) -> str:
    """A PDF number with at most two decimals and no trailing zeros (stable across runs)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _rgb(color: Color, operator: str) -> str:
    return " ".join(f"{channel:.3f}" for channel in color) + f" {operator}"


class Page:
    """The drawing operations of one page, in PDF content-stream syntax."""

    def __init__(self) -> None:
        self.ops: list[str] = []

    def rect(self, x: float, y: float, width: float, height: float, color: Color) -> None:
        self.ops.append(f"{_rgb(color, 'rg')} {_num(x)} {_num(y)} {_num(width)} {_num(height)} re f")

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Color, width: float = 0.5) -> None:
        self.ops.append(f"{_rgb(color, 'RG')} {_num(width)} w {_num(x1)} {_num(y1)} m {_num(x2)} {_num(y2)} l S")

    def text(
        self,
        x: float,
        y: float,
        spans: list[Span] | str,
        size: float,
        color: Color,
        font: str = REGULAR,
        spacing: float = 0.0,
    ) -> None:
        """Draw one line of text whose baseline starts at (x, y); `spans` may switch fonts."""
        if isinstance(spans, str):
            spans = [(font, spans)]
        parts = [f"BT {_rgb(color, 'rg')} {_num(spacing)} Tc {_num(x)} {_num(y)} Td"]
        for span_font, text in spans:
            parts.append(f"/{span_font} {_num(size)} Tf {pdf_text(text)} Tj")
        parts.append("ET")
        self.ops.append(" ".join(parts))

    def text_right(self, right: float, y: float, text: str, size: float, color: Color, font: str = REGULAR) -> None:
        self.text(right - text_width(text, font, size), y, text, size, color, font)


class PdfWriter:
    """Collect pages, then serialise them as a PDF 1.4 file with fonts, metadata and an xref table."""

    def __init__(self, title: str, author: str, subject: str, lang: str = "fr-FR") -> None:
        self.info = {"Title": title, "Author": author, "Subject": subject, "Creator": CREATOR}
        self.lang = lang
        self.pages: list[Page] = []

    def add_page(self) -> Page:
        page = Page()
        self.pages.append(page)
        return page

    def to_bytes(self) -> bytes:
        # Fixed object numbers: 1 catalog, 2 page tree, 3 info, 4-5 fonts, then page and content pairs.
        count = len(self.pages)
        page_ids = [6 + 2 * index for index in range(count)]
        objects: dict[int, bytes] = {
            1: f"<< /Type /Catalog /Pages 2 0 R /Lang {pdf_text(self.lang)} "
            "/ViewerPreferences << /DisplayDocTitle true >> >>".encode(),
            2: f"<< /Type /Pages /Kids [{' '.join(f'{i} 0 R' for i in page_ids)}] /Count {count} >>".encode(),
            3: ("<< " + " ".join(f"/{key} {pdf_info_text(v)}" for key, v in self.info.items()) + " >>").encode(),
        }
        for number, font in ((4, REGULAR), (5, BOLD)):
            objects[number] = (
                f"<< /Type /Font /Subtype /Type1 /BaseFont /{FONT_NAMES[font]} /Encoding /WinAnsiEncoding >>"
            ).encode()
        for page_id, page in zip(page_ids, self.pages):
            objects[page_id] = (
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_num(PAGE_WIDTH)} {_num(PAGE_HEIGHT)}] "
                f"/Resources << /Font << /{REGULAR} 4 0 R /{BOLD} 5 0 R >> >> /Contents {page_id + 1} 0 R >>"
            ).encode()
            stream = ("\n".join(page.ops) + "\n").encode("ascii")
            objects[page_id + 1] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream"

        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = {}
        for number in sorted(objects):
            offsets[number] = len(out)
            out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
        xref_offset = len(out)
        size = max(objects) + 1
        out += b"xref\n0 %d\n0000000000 65535 f \n" % size
        for number in range(1, size):
            out += b"%010d 00000 n \n" % offsets[number]
        file_id = hashlib.md5(bytes(out)).hexdigest().upper()  # content-derived, hence stable
        out += (
            f"trailer\n<< /Size {size} /Root 1 0 R /Info 3 0 R /ID [<{file_id}> <{file_id}>] >>\n"
            f"startxref\n{xref_offset}\n%%EOF\n"
        ).encode()
        return bytes(out)


# --------------------------------------------------------------------------- the layout

BODY_SIZE, BODY_LEADING = 10.5, 15.0
LEAD_SIZE, LEAD_LEADING = 12.5, 18.0
HEADING_SIZE, HEADING_LEADING = 17.0, 21.0
SUBHEADING_SIZE, SUBHEADING_LEADING = 11.5, 15.0
BULLET_INDENT = 15.0
CALLOUT_PADDING = 12.0


def _lang_spans(value: str | tuple[str, str], font: str = REGULAR, lang: str = "fr") -> list[Span]:
    """Rich text of a content value: a plain string, or a (bold term, text) pair."""
    if isinstance(value, str):
        return [(font, typography(value, lang))]
    term, text = value
    separator = " : " if lang == "fr" else ": "
    return [(BOLD, typography(term, lang)), (REGULAR, typography(separator + text, lang))]


def render_document(doc: dict, lang: str = "fr") -> bytes:
    """Lay out one document of `documents_in(lang)` and return the bytes of its PDF."""
    words = layout_words(lang)
    writer = PdfWriter(
        title=typography(doc["title"], lang),
        author=LEGAL_NAME,
        subject=typography(doc["subtitle"], lang),
        lang=words["pdf_lang"],
    )

    def _spans(value: str | tuple[str, str], font: str = REGULAR) -> list[Span]:
        return _lang_spans(value, font, lang)

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

    def text_block(value: str, font: str, size: float, leading: float, color: Color) -> None:
        draw_lines(wrap_spans(_spans(value, font), CONTENT_WIDTH, size), MARGIN_X, size, leading, color)

    def bullet_list(items: list, x: float, width: float) -> None:
        nonlocal y
        for item in items:
            lines = wrap_spans(_spans(item), width - BULLET_INDENT, BODY_SIZE)
            ensure(BODY_LEADING * min(len(lines), 2))
            page.text(x + 2, y - BODY_SIZE, "•", BODY_SIZE, GOLD, BOLD)
            draw_lines(lines, x + BULLET_INDENT, BODY_SIZE, BODY_LEADING, TEXT)
            y -= 3

    def callout(title: str, items: list) -> None:
        """A tinted box with a gold edge, a bold title and a bullet list; never split across pages."""
        nonlocal y
        inner = CONTENT_WIDTH - 2 * CALLOUT_PADDING - 4
        title_lines = wrap_spans(_spans(title, BOLD), inner, BODY_SIZE)
        item_lines = [wrap_spans(_spans(item), inner - BULLET_INDENT, BODY_SIZE) for item in items]
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
    for line in wrap_spans(_spans(doc["title"], BOLD), CONTENT_WIDTH, 30):
        y -= 36
        cover.text(MARGIN_X, y + 6, line, 30, WHITE)
    y -= 14
    for line in wrap_spans(_spans(doc["subtitle"]), CONTENT_WIDTH, 14):
        y -= 20
        cover.text(MARGIN_X, y + 6, line, 14, COVER_SUBTITLE)
    if y < PAGE_HEIGHT - 430:
        raise ValueError(f"the title and subtitle of {doc['title']!r} do not fit in the cover band")
    cover.text(MARGIN_X, PAGE_HEIGHT - 448, typography(words["tagline"], lang), 9, COVER_SUBTITLE)

    y = PAGE_HEIGHT - 530
    cover.text(MARGIN_X, y, words["contents"], 13, NAVY, BOLD)
    y -= 10
    for heading, number in contents:
        lines = wrap_spans(_spans(heading), CONTENT_WIDTH - 40, 10.5)
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
        pages = data.count(b"/Type /Page ")
        print(f"{lang} {key:28} {path.name:52} {pages} pages {len(data) / 1024:6.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
