"""Content: French and English hold the same keys (the YAML files of `content/<lang>/`), every
page has its title and description in each of its languages; every image has an alt text."""

from __future__ import annotations

import re

import httpx2
import pytest
import yaml

from marketing_site import routes
from marketing_site.content.words import CONTENT_DIR

# Words files written in one language only, read in that language everywhere: the sales
# team's French mails, and the download strips shown in one language on both versions.
ONE_LANGUAGE = {
    "fr": {"booking_sales", "lead_sales", "ebook_banner"},
    "en": {"white_paper_banner"},
}
# Titles and descriptions: each language holds those of the pages it has (checked below).
PER_PAGE = {"meta"}
WORDS_FILES = {lang: {path.stem for path in (CONTENT_DIR / lang).glob("*.yaml")} for lang in ("fr", "en")}
# Words files as written (placeholders unfilled): one per page or component, in each language.
YAML_FILES = sorted((WORDS_FILES["fr"] & WORDS_FILES["en"]) - PER_PAGE)


def _yaml(lang: str, name: str):
    return yaml.safe_load((CONTENT_DIR / lang / f"{name}.yaml").read_text(encoding="utf-8"))


def _shape(value):
    """The structure of a content value: dict keys, list lengths, leaf types."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_shape(item) for item in value]
    return type(value).__name__


def test_every_page_module_has_both_languages():
    names = set(YAML_FILES) | PER_PAGE
    assert len(names) >= 20
    assert {"home", "pricing", "compare", "layout", "meta"} <= names


def test_every_words_file_is_in_both_languages_unless_written_in_one():
    for lang, other in (("fr", "en"), ("en", "fr")):
        assert WORDS_FILES[lang] - WORDS_FILES[other] == ONE_LANGUAGE[lang]


@pytest.mark.parametrize("name", YAML_FILES)
def test_french_and_english_words_files_have_the_same_keys(name):
    assert _shape(_yaml("fr", name)) == _shape(_yaml("en", name))


def test_meta_covers_every_page_in_each_of_its_languages():
    for page in routes.PAGES:
        for lang, _ in page.paths():
            table = _yaml(lang, "meta")
            assert table[page.key]["title"] and table[page.key]["description"]


IMG = re.compile(r"<img\b[^>]*>", re.DOTALL)


@pytest.mark.parametrize("path", routes.all_paths())
def test_every_image_has_alt_and_dimensions(site, path):
    html = httpx2.get(site + path).text
    for tag in IMG.findall(html):
        assert re.search(r'\balt="', tag), tag
        assert re.search(r'\bwidth="\d+"', tag) and re.search(r'\bheight="\d+"', tag), tag


def test_titles_and_descriptions_are_unique_per_indexable_page(site):
    seen_titles, seen_descriptions = {}, {}
    for page in routes.PAGES:
        if not page.indexable:
            continue
        for _, path in page.paths():
            html = httpx2.get(site + path).text
            title = re.search(r"<title>([^<]+)</title>", html).group(1)
            description = re.search(r'<meta content="([^"]+)" name="description"', html).group(1)
            assert title not in seen_titles, (path, seen_titles.get(title))
            assert description not in seen_descriptions, (path, seen_descriptions.get(description))
            seen_titles[title], seen_descriptions[description] = path, path


def test_the_thank_you_pages_have_titles_of_their_own(site):
    thanks = (routes.THANKS_EBOOK, routes.THANKS_WHITE_PAPER, routes.THANKS_DOCUMENTATION)
    titles = {}
    for page in thanks:
        for lang in routes.LANGS:
            path = page.path(lang)
            titles[path] = re.search(r"<title>([^<]+)</title>", httpx2.get(site + path).text).group(1)
    assert len(titles) >= len(thanks)
    assert len(set(titles.values())) == len(titles), titles
