"""Content: French and English hold the same keys (the YAML files of `content/<lang>/` and the
modules still in Python); every image has an alt text."""

from __future__ import annotations

import importlib
import pkgutil
import re

import httpx
import pytest
import yaml

import marketing_site.content as content_package
from marketing_site import routes
from marketing_site.content.words import CONTENT_DIR

CONTENT_MODULES = [
    importlib.import_module(f"marketing_site.content.{info.name}")
    for info in pkgutil.iter_modules(content_package.__path__)
]
BILINGUAL = [m for m in CONTENT_MODULES if hasattr(m, "FR") and hasattr(m, "EN")]
# Words files as written (placeholders unfilled): one per page or component, in each language
# (a file only in French, like the sales team's notification, is read in French everywhere).
YAML_FILES = sorted(
    path.stem for path in (CONTENT_DIR / "fr").glob("*.yaml") if (CONTENT_DIR / "en" / path.name).is_file()
)


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
    names = {m.__name__.rsplit(".", 1)[1] for m in BILINGUAL} | set(YAML_FILES)
    assert len(names) >= 20
    assert {"home", "pricing", "compare", "layout", "meta"} <= names


@pytest.mark.parametrize("name", YAML_FILES)
def test_french_and_english_words_files_have_the_same_keys(name):
    assert _shape(_yaml("fr", name)) == _shape(_yaml("en", name))


@pytest.mark.parametrize("module", [m for m in BILINGUAL if m.__name__ != "marketing_site.content.meta"], ids=lambda m: m.__name__)
def test_french_and_english_content_have_the_same_keys(module):
    assert _shape(module.FR) == _shape(module.EN)


def test_meta_covers_every_page_in_each_of_its_languages():
    from marketing_site.content import meta

    for page in routes.PAGES:
        for lang, _ in page.paths():
            table = meta.FR if lang == "fr" else meta.EN
            assert table[page.key]["title"] and table[page.key]["description"]


IMG = re.compile(r"<img\b[^>]*>", re.S)


@pytest.mark.parametrize("path", routes.all_paths())
def test_every_image_has_alt_and_dimensions(site, path):
    html = httpx.get(site + path).text
    for tag in IMG.findall(html):
        assert re.search(r'\balt="', tag), tag
        assert re.search(r'\bwidth="\d+"', tag) and re.search(r'\bheight="\d+"', tag), tag


def test_titles_and_descriptions_are_unique_per_indexable_page(site):
    seen_titles, seen_descriptions = {}, {}
    for page in routes.PAGES:
        if not page.indexable:
            continue
        for _, path in page.paths():
            html = httpx.get(site + path).text
            title = re.search(r"<title>([^<]+)</title>", html).group(1)
            description = re.search(r'<meta content="([^"]+)" name="description"', html).group(1)
            assert title not in seen_titles, (path, seen_titles.get(title))
            assert description not in seen_descriptions, (path, seen_descriptions.get(description))
            seen_titles[title], seen_descriptions[description] = path, path
