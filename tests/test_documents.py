"""The five downloadable PDFs (SPEC §3), in French and English: committed in files/, valid-looking,
small, in sync, and each in its own language.

No server is needed: the committed files are compared byte for byte with a fresh rendering of
the Markdown in `marketing_site/content/<lang>/documents/` by scripts/make_documents.py, so a
text change that was not followed by `.venv/bin/python scripts/make_documents.py` fails here, and
so would a generator whose output changed from one run to the next. The cover's text is read back
with pypdf. tests/test_documents_pdfua.py checks that the files are tagged PDF/UA-1.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from pypdf import PdfReader

from marketing_site.content.downloads import DOCUMENTS, LANGS, documents_in

ROOT = Path(__file__).resolve().parent.parent
FILES = ROOT / "files"
MAX_BYTES = 200 * 1024


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_documents", ROOT / "scripts" / "make_documents.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EVERY = [(lang, key) for lang in LANGS for key in DOCUMENTS]


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every document rendered afresh into a temporary directory, by (lang, key)."""
    return _load_generator().write_documents(tmp_path_factory.mktemp("documents"))


def test_the_five_documents_are_declared_in_both_languages():
    for lang in LANGS:
        assert set(documents_in(lang)) == {
            "ebook",
            "white_paper",
            "portal_documentation",
            "kyc_documentation",
            "subscription_documentation",
        }
    every = [documents_in(lang)[key] for lang, key in EVERY]
    assert len({doc["file"] for doc in every}) == len(every)
    assert len({doc["display_name"] for doc in every}) == len(every)


@pytest.mark.parametrize(("lang", "key"), EVERY)
def test_committed_file_is_a_small_pdf(lang, key):
    path = FILES / documents_in(lang)[key]["file"]
    assert path.is_file(), f"missing {path}: run scripts/make_documents.py"
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    assert data.rstrip(b"\r\n").endswith(b"%%EOF")
    assert len(data) < MAX_BYTES
    assert 4 <= len(PdfReader(path).pages) <= 8


@pytest.mark.parametrize(("lang", "key"), EVERY)
def test_display_name_is_a_safe_pdf_name(lang, key):
    name = documents_in(lang)[key]["display_name"]
    assert name.endswith(".pdf")
    assert "/" not in name and "\\" not in name
    assert name.isascii() and name.isprintable()


@pytest.mark.parametrize(("lang", "key"), EVERY)
def test_committed_file_matches_the_content_module(lang, key, regenerated):
    name = documents_in(lang)[key]["file"]
    assert regenerated[lang, key].read_bytes() == (FILES / name).read_bytes(), (
        f"files/{name} is out of date: run .venv/bin/python scripts/make_documents.py"
    )


# The language tag of the PDF, and a word only a document in that language has (its cover's).
LANGUAGE_MARKERS = {"fr": (b"/Lang (fr-FR)", "Sommaire"), "en": (b"/Lang (en-GB)", "Contents")}


@pytest.mark.parametrize(("lang", "key"), EVERY)
def test_each_document_is_in_its_language(lang, key):
    doc = documents_in(lang)[key]
    data = (FILES / doc["file"]).read_bytes()
    cover = PdfReader(FILES / doc["file"]).pages[0].extract_text()
    tag, word = LANGUAGE_MARKERS[lang]
    assert tag in data and word in cover.splitlines()
    other = "en" if lang == "fr" else "fr"
    other_tag, other_word = LANGUAGE_MARKERS[other]
    assert other_tag not in data and other_word not in cover.splitlines()
    # Same structure in both languages: the English text is a translation, section by section.
    counterpart = documents_in(other)[key]
    assert len(doc["sections"]) == len(counterpart["sections"])
    assert [len(s["blocks"]) for s in doc["sections"]] == [len(s["blocks"]) for s in counterpart["sections"]]


def test_english_display_names_are_english():
    for key, doc in documents_in("en").items():
        assert doc["display_name"] != DOCUMENTS[key]["display_name"]
        for french in ("Documentation ", "nouvelle", "livre blanc", "Parcours", "tendances"):
            assert french not in doc["display_name"]
