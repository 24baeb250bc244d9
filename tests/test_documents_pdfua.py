"""The PDF documents are tagged PDF/UA-1 (ISO 14289-1): each committed file in files/, and a test
document carrying one of every element the Markdown may hold (tests/documents/every_element.md:
a table, a figure, links, a passage in another language), rendered afresh.

Two checks, both build-free: `pdfua check` (PyPI's checker of the machine-checkable subset of
PDF/UA-1) with no finding, and this file's own reading of the structure with pikepdf
(scripts/pdf_structure.py): nothing drawn outside tagged content or an artifact, the headings'
levels, the text of the structure equal to the Markdown's in the Markdown's order, /Alt on every
figure, header cells with their scope, described links, the passages' languages, the fonts and the
catalogue's metadata. veraPDF, the reference validator, is Java from a registry this machine does
not reach: docs/documents.md says how to run it where it is available.

tests/test_documents.py proves that the committed files are the generator's output, byte for byte.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from marketing_site.content.downloads import LANGS, documents_in, layout_words, parse_document

ROOT = Path(__file__).resolve().parent.parent
FILES = ROOT / "files"
EVERY_ELEMENT = ROOT / "tests" / "documents" / "every_element.md"
sys.path.insert(0, str(ROOT / "scripts"))

from pdf_structure import Element, structure


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_documents", ROOT / "scripts" / "make_documents.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _load_generator()
# (lang, parsed document) for every committed document, and the test document (in English).
COMMITTED = {
    documents_in(lang)[key]["file"]: (lang, documents_in(lang)[key]) for lang in LANGS for key in documents_in(lang)
}


@pytest.fixture(scope="module")
def every_element(tmp_path_factory) -> Path:
    """The test document with one of every element, rendered afresh."""
    doc = parse_document(EVERY_ELEMENT.read_text("utf-8"), EVERY_ELEMENT)
    path = tmp_path_factory.mktemp("documents") / doc["file"]
    path.write_bytes(GENERATOR.render_document(doc, "en"))
    return path


@pytest.fixture(scope="module")
def documents(every_element) -> dict[Path, tuple[str, dict]]:
    """Every PDF to check: the committed ones and the test document, with their language and text."""
    found = {FILES / name: value for name, value in COMMITTED.items()}
    found[every_element] = ("en", parse_document(EVERY_ELEMENT.read_text("utf-8"), EVERY_ELEMENT))
    return found


NAMES = [*COMMITTED, "every-element.pdf"]


def _document(documents, name) -> tuple[Path, str, dict]:
    path = next(path for path in documents if path.name == name)
    lang, doc = documents[path]
    return path, lang, doc


# ----------------------------------------------------------------------------- pdfua check

# pdfua 0.1.3's empty-heading rule (UA-14-001) cannot read a heading whose content is an array of
# marked-content items (it looks an attribute up on the array, which pikepdf refuses), as every
# Typst heading is: the rule is skipped, and this file's heading test checks what it would.
PDFUA_RULES_THAT_CANNOT_RUN = {"UA-14-001"}


def test_pdfua_check_finds_nothing_in_any_document(documents):
    result = subprocess.run(
        [str(Path(sys.executable).parent / "pdfua"), "check", "--format", "json", *map(str, documents)],
        capture_output=True,
        text=True,
        check=False,
    )
    reports, decoder, position = [], json.JSONDecoder(), 0
    while position < len(result.stdout.rstrip()):
        report, position = decoder.raw_decode(result.stdout, position)
        reports.append(report)
        position += len(result.stdout[position:]) - len(result.stdout[position:].lstrip())
    assert {Path(report["file"]) for report in reports} == set(documents), result.stderr
    for report in reports:
        assert report["findings"] == [], report["file"]
        assert report["summary"]["errors"] == report["summary"]["warnings"] == 0
        assert {skip["rule_id"] for skip in report["skipped"]} <= PDFUA_RULES_THAT_CANNOT_RUN, report["skipped"]
    assert result.returncode == 0, result.stdout[-2000:]


# ----------------------------------------------------------------------------- the catalogue and the pages


@pytest.mark.parametrize("name", NAMES)
def test_document_level_entries(documents, name):
    path, lang, doc = _document(documents, name)
    title = GENERATOR.typography(doc["title"], lang)
    with pikepdf.open(path) as pdf:
        root = pdf.Root
        assert root.MarkInfo.Marked is True
        assert str(root.Lang) == layout_words(lang)["pdf_lang"]
        assert root.ViewerPreferences.DisplayDocTitle is True
        assert str(pdf.docinfo.Title) == title
        metadata = pdf.open_metadata()
        assert metadata["dc:title"] == title
        assert metadata["pdfuaid:part"] == "1"
        for page in pdf.pages:
            assert page.obj.Tabs == "/S"


def _outline_titles(items, depth=0) -> list[tuple[int, str]]:
    titles = []
    for item in items:
        titles.append((depth, item.title))
        titles.extend(_outline_titles(item.children, depth + 1))
    return titles


@pytest.mark.parametrize("name", NAMES)
def test_the_outline_is_built_from_the_headings(documents, name):
    path, lang, doc = _document(documents, name)
    expected = [(0, GENERATOR.typography(doc["title"], lang))]
    for section in doc["sections"]:
        expected.append((1, GENERATOR.typography(section["heading"], lang)))
        expected.extend(
            (2, _plain(block["text"], lang)) for block in section["blocks"] if block["kind"] == "subheading"
        )
    with pikepdf.open(path) as pdf, pdf.open_outline() as outline:
        assert _outline_titles(outline.root) == expected


@pytest.mark.parametrize("name", NAMES)
def test_every_font_is_embedded_with_a_unicode_map(documents, name):
    path, _, _ = _document(documents, name)
    with pikepdf.open(path) as pdf:
        fonts = {font.objgen: font for page in pdf.pages for font in page.Resources.get("/Font", {}).values()}
        assert fonts
        for font in fonts.values():
            assert "/ToUnicode" in font, font.BaseFont
            described = font.DescendantFonts[0] if "/DescendantFonts" in font else font
            descriptor = described.FontDescriptor
            assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")), font.BaseFont


# ----------------------------------------------------------------------------- the structure


def _plain(runs: list[dict], lang: str) -> str:
    return GENERATOR.typography("".join(run["text"] for run in runs), lang)


def _words(text: str) -> str:
    return " ".join(text.split())


def expected_reading(doc: dict, lang: str) -> list[tuple[str, str]]:
    """(tag, text) of each block of the document, in the Markdown's order, as a reader meets them:
    the cover (label, title, subtitle, tagline), the table of contents, then the sections."""
    words = layout_words(lang)

    def text(value):
        return _words(_plain(value, lang) if isinstance(value, list) else GENERATOR.typography(value, lang))

    reading = [
        ("/P", doc["label"].upper()),
        ("/H1", text(doc["title"])),
        ("/P", text(doc["subtitle"])),
        ("/P", text(words["tagline"])),
        ("/H2", text(words["contents"])),
    ]
    reading += [("/TOCI", text(section["heading"])) for section in doc["sections"]]
    for section in doc["sections"]:
        reading.append(("/H2", text(section["heading"])))
        for block in section["blocks"]:
            kind = block["kind"]
            if kind in ("lead", "paragraph"):
                reading.append(("/P", text(block["text"])))
            elif kind == "subheading":
                reading.append(("/H3", text(block["text"])))
            elif kind == "bullets":
                reading += [("/LBody", text(item)) for item in block["items"]]
            elif kind == "callout":
                reading.append(("/P", text(block["title"])))
                reading += [("/LBody", text(item)) for item in block["items"]]
            elif kind == "table":
                reading += [("/TH", text(cell)) for cell in block["header"]]
                reading += [("/TD", text(cell)) for row in block["rows"] for cell in row]
            elif kind == "figure":
                reading.append(("/Figure", text(block["alt"])))
    return reading


READ_AS_A_WHOLE = {"/P", "/H1", "/H2", "/H3", "/LBody", "/TH", "/TD", "/TOCI", "/Figure"}


def actual_reading(tree: Element) -> list[tuple[str, str]]:
    """(tag, text) of each block element of the structure tree, in its order (a figure by its /Alt;
    a table of contents entry without its page number)."""
    reading = []

    def visit(element: Element) -> None:
        if element.tag not in READ_AS_A_WHOLE:
            for kid in element.kids:
                if isinstance(kid, Element):
                    visit(kid)
                elif isinstance(kid, str) and kid.strip() and element.tag != "/Lbl":
                    # Text outside any block (a list's bullet apart): read, but not the Markdown's.
                    reading.append((element.tag, _words(kid)))
            return
        if element.tag == "/Figure":
            reading.append((element.tag, _words(str(element.node.get("/Alt", "")))))
        elif element.tag == "/TOCI":
            reading.append((element.tag, re.sub(r" \d+$", "", _words(element.text))))
        else:
            reading.append((element.tag, _words(element.text)))

    visit(tree)
    return reading


@pytest.fixture(scope="module")
def trees(documents):
    """The structure tree and marked content of every document, read once (the files stay open:
    the elements are views of their objects)."""
    read, opened = {}, []
    for path in documents:
        pdf = pikepdf.open(path)
        opened.append(pdf)
        tree, pages = structure(pdf)
        read[path.name] = (tree, pages, len(pdf.pages))
    yield read
    for pdf in opened:
        pdf.close()


@pytest.mark.parametrize("name", NAMES)
def test_the_structure_reads_as_the_markdown_in_its_order(documents, trees, name):
    _, lang, doc = _document(documents, name)
    tree, _, _ = trees[name]
    assert actual_reading(tree) == expected_reading(doc, lang)


@pytest.mark.parametrize("name", NAMES)
def test_everything_drawn_is_tagged_or_an_artifact(documents, trees, name):
    tree, pages, page_count = trees[name]
    for number, (page, content) in enumerate(pages.items(), start=1):
        assert content.untagged == [], f"page {number}: drawn outside tagged content or an artifact"
        # Every marked-content sequence of the page is reached from the structure tree.
        assert {(page, mcid) for mcid in content.mcids} <= tree.marked, f"page {number}: content outside the tree"
        # The running header and footer (brand, title, copyright, page number) are artifacts.
        if number > 1:
            assert f"{number} / {page_count}" in content.artifact_text
    assert re.search(r"\d+ / \d+", tree.text) is None


@pytest.mark.parametrize("name", NAMES)
def test_headings_nest_without_skipped_levels(trees, name):
    tree, _, _ = trees[name]
    levels = [int(element.tag[2]) for element in tree.walk() if re.fullmatch(r"/H\d", element.tag)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(later <= earlier + 1 for earlier, later in itertools.pairwise(levels))
    assert all(element.text.strip() for element in tree.walk() if re.fullmatch(r"/H\d", element.tag))


def _attributes(element: Element) -> list:
    attributes = element.node.get("/A")
    return [] if attributes is None else list(attributes) if isinstance(attributes, pikepdf.Array) else [attributes]


@pytest.mark.parametrize("name", NAMES)
def test_figures_tables_lists_and_links_carry_their_semantics(trees, name):
    tree, _, _ = trees[name]
    elements = list(tree.walk())
    for figure in (element for element in elements if element.tag == "/Figure"):
        assert str(figure.node.get("/Alt", "")).strip()
    for header in (element for element in elements if element.tag == "/TH"):
        assert any(attribute.get("/Scope") in ("/Column", "/Row", "/Both") for attribute in _attributes(header))
    for item in (element for element in elements if element.tag == "/LI"):
        assert [kid.tag for kid in item.kids if isinstance(kid, Element)] == ["/Lbl", "/LBody"]
    for link in (element for element in elements if element.tag == "/Link"):
        (annotation,) = link.annotations()
        description = str(annotation.get("/Contents", ""))
        assert description.startswith(_words(link.text)), (description, link.text)
        address = str(annotation.get("/A", {}).get("/URI", "")).removeprefix("mailto:")
        assert address in description


def test_the_test_document_carries_every_element_it_names(trees):
    """Guards the test document itself: the checks above meet a table, a figure, links and a passage."""
    tree, _, _ = trees["every-element.pdf"]
    tags = {element.tag for element in tree.walk()}
    assert {"/Table", "/TH", "/TD", "/Figure", "/Link", "/L", "/LI", "/Lbl", "/LBody", "/H3", "/TOC"} <= tags
    figure = next(element for element in tree.walk() if element.tag == "/Figure")
    assert str(figure.node.Alt) == "Bar chart: three bars rising from left to right, the last one gold"
    descriptions = sorted(
        str(annotation.Contents)
        for element in tree.walk()
        if element.tag == "/Link"
        for annotation in element.annotations()
    )
    assert "link to the demonstration page (https://www.example.test/en/demo)" in descriptions
    assert "our contact address (contact@example.test)" in descriptions


def _passages(pages) -> dict[str, str]:
    """Text of the marked content in another language, by language tag."""
    found: dict[str, str] = {}
    for content in pages.values():
        for mcid, lang in content.lang.items():
            found[lang] = found.get(lang, "") + content.text.get(mcid, "")
    return found


@pytest.mark.parametrize("name", NAMES)
def test_passages_in_another_language_are_marked_with_it(documents, trees, name):
    _, lang, doc = _document(documents, name)
    _, pages, _ = trees[name]
    expected: dict[str, str] = {}

    def collect(value) -> None:
        if isinstance(value, dict) and "text" in value and "lang" in value and value["lang"]:
            expected[value["lang"]] = expected.get(value["lang"], "") + GENERATOR.typography(value["text"], lang)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    collect(doc["sections"])
    document_lang = layout_words(lang)["pdf_lang"]
    marked = {tag: _words(text) for tag, text in _passages(pages).items() if tag != document_lang and text.strip()}
    assert marked == {tag: _words(text) for tag, text in expected.items()}


@pytest.mark.parametrize("lang", LANGS)
def test_the_accessibility_statement_says_what_holds_for_the_documents(lang):
    statement = (ROOT / "marketing_site" / "content" / lang / "accessibility.md").read_text("utf-8")
    statement = " ".join(statement.split())
    for fact in ("PDF/UA-1", "pdfua", "veraPDF"):
        assert fact in statement
    assert "n'ont pas encore été évalués" not in statement and "have not been assessed" not in statement
