"""The five downloadable PDFs (SPEC §3): committed in files/, valid-looking, small, and in sync.

No server is needed: the committed files are compared byte for byte with a fresh rendering of
`marketing_site.content.downloads` by scripts/make_documents.py, so a text change that was not
followed by `.venv/bin/python scripts/make_documents.py` fails here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from marketing_site.content.downloads import DOCUMENTS

ROOT = Path(__file__).resolve().parent.parent
FILES = ROOT / "files"
MAX_BYTES = 200 * 1024


def _load_generator():
    spec = importlib.util.spec_from_file_location("make_documents", ROOT / "scripts" / "make_documents.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> dict[str, Path]:
    """Every document rendered afresh into a temporary directory, by key."""
    return _load_generator().write_documents(tmp_path_factory.mktemp("documents"))


def test_the_five_documents_are_declared():
    assert set(DOCUMENTS) == {
        "ebook",
        "white_paper",
        "portal_documentation",
        "kyc_documentation",
        "subscription_documentation",
    }
    assert len({doc["file"] for doc in DOCUMENTS.values()}) == len(DOCUMENTS)
    assert len({doc["display_name"] for doc in DOCUMENTS.values()}) == len(DOCUMENTS)


@pytest.mark.parametrize("key", DOCUMENTS)
def test_committed_file_is_a_small_pdf(key):
    path = FILES / DOCUMENTS[key]["file"]
    assert path.is_file(), f"missing {path}: run scripts/make_documents.py"
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    assert data.rstrip(b"\r\n").endswith(b"%%EOF")
    assert len(data) < MAX_BYTES
    assert 4 <= data.count(b"/Type /Page ") <= 8


@pytest.mark.parametrize("key", DOCUMENTS)
def test_display_name_is_a_safe_pdf_name(key):
    name = DOCUMENTS[key]["display_name"]
    assert name.endswith(".pdf")
    assert "/" not in name and "\\" not in name
    assert name.isascii() and name.isprintable()


@pytest.mark.parametrize("key", DOCUMENTS)
def test_committed_file_matches_the_content_module(key, regenerated):
    committed = (FILES / DOCUMENTS[key]["file"]).read_bytes()
    assert regenerated[key].read_bytes() == committed, (
        f"files/{DOCUMENTS[key]['file']} is out of date: run .venv/bin/python scripts/make_documents.py"
    )
