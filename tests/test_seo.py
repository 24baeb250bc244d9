"""Search metadata over HTTP: title, description, canonical, reciprocal hreflang, Open Graph
image, sitemap.xml with alternates, robots.txt, noindex on the pages kept out of search."""

from __future__ import annotations

import re
from urllib.parse import quote
from xml.etree import ElementTree

import httpx2
import pytest

from marketing_site import routes

LINK = re.compile(r"<link\b[^>]*>", re.IGNORECASE)
META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)


def _attr(tag: str, name: str) -> str | None:
    match = re.search(rf'\b{name}="([^"]*)"', tag, re.IGNORECASE)
    return match.group(1) if match else None


def head_of(site: str, path: str) -> dict:
    html = httpx2.get(site + quote(path, safe="/")).text
    links = [(_attr(t, "rel"), _attr(t, "hreflang"), _attr(t, "href")) for t in LINK.findall(html)]
    metas = {(_attr(t, "name") or _attr(t, "property")): _attr(t, "content") for t in META.findall(html)}
    # One card per page: Reflex writes an `og:image` of its own (favicon.ico) unless told the page's.
    images = [_attr(t, "content") for t in META.findall(html) if _attr(t, "property") == "og:image"]
    assert images == [metas.get("og:image")], images
    return {
        "title": re.search(r"<title>([^<]*)</title>", html).group(1),
        "description": metas.get("description"),
        "robots": metas.get("robots"),
        "og_image": metas.get("og:image"),
        "canonical": [href for rel, _, href in links if rel == "canonical"],
        "alternates": {lang: href for rel, lang, href in links if rel == "alternate" and lang},
    }


def absolute(site: str, path: str) -> str:
    return site + quote(path, safe="/")


INDEXABLE = [(page, lang, path) for page in routes.PAGES if page.indexable for lang, path in page.paths()]


@pytest.mark.parametrize(("page", "lang", "path"), INDEXABLE, ids=[p for _, _, p in INDEXABLE])
def test_indexable_page_has_title_description_canonical_and_reciprocal_hreflang(site, page, lang, path):
    head = head_of(site, path)
    assert head["title"].strip() and head["description"].strip()
    assert head["robots"] is None
    assert head["canonical"] == [absolute(site, path)]
    assert httpx2.get(head["og_image"]).status_code == 200
    if not page.bilingual:
        assert head["alternates"] == {}
        return
    expected = {"fr": absolute(site, page.fr), "en": absolute(site, page.en), "x-default": absolute(site, page.fr)}
    assert head["alternates"] == expected
    other = page.en if lang == "fr" else page.fr
    assert head_of(site, other)["alternates"] == expected  # reciprocal


@pytest.mark.parametrize("path", [p for page in routes.PAGES if not page.indexable for _, p in page.paths()])
def test_pages_kept_out_of_search_say_noindex(site, path):
    assert head_of(site, path)["robots"] == "noindex"


def test_sitemap_lists_indexable_pages_with_alternates(site):
    tree = ElementTree.fromstring(httpx2.get(site + "/sitemap.xml").content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = {u.find("s:loc", ns).text: u for u in tree.findall("s:url", ns)}
    assert set(urls) == {absolute(site, path) for _, _, path in INDEXABLE}
    pricing = urls[absolute(site, routes.PRICING.fr)]
    alternates = {a.get("hreflang"): a.get("href") for a in pricing.findall("x:link", ns)}
    assert alternates == {
        "fr": absolute(site, routes.PRICING.fr),
        "en": absolute(site, routes.PRICING.en),
        "x-default": absolute(site, routes.PRICING.fr),
    }


def test_robots_txt_announces_the_sitemap_and_keeps_crawlers_out_of_console_login_and_api(site):
    robots = httpx2.get(site + "/robots.txt").text
    assert "User-agent: *" in robots
    assert f"Sitemap: {site}/sitemap.xml" in robots
    disallowed = {line.removeprefix("Disallow: ") for line in robots.splitlines() if line.startswith("Disallow: ")}
    assert disallowed == {"/console", "/en/console", "/auth/", "/api/"}


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("path", [*routes.all_paths(), "/page-absente", "/en/missing-page"])
def test_every_page_announces_its_card_the_manifest_the_icons_and_links_the_accessibility_statement(site, path):
    html = httpx2.get(site + quote(path, safe="/")).text
    metas = {(_attr(t, "name") or _attr(t, "property")): _attr(t, "content") for t in META.findall(html)}
    links = {_attr(t, "rel"): _attr(t, "href") for t in LINK.findall(html)}
    lang = routes.page_lang(path)
    assert (metas["og:image:width"], metas["og:image:height"]) == ("1200", "630")
    assert metas["og:image:alt"].startswith("Nereo") and len(metas["og:image:alt"]) > 20
    assert metas["theme-color"] == "#0b2545"
    assert links["manifest"] == f"/manifest-{lang}.json"
    assert _png_size(httpx2.get(site + links["apple-touch-icon"]).content) == (180, 180)
    # Every footer links to the accessibility statement of the page's language.
    (footer,) = re.findall(r"<footer\b.+?</footer>", html, re.DOTALL)
    assert f'href="{routes.ACCESSIBILITY.path(lang)}"' in footer


@pytest.mark.parametrize("lang", routes.LANGS)
def test_web_app_manifest_of_each_language(site, lang):
    response = httpx2.get(f"{site}/manifest-{lang}.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    manifest = response.json()
    assert manifest["lang"] == lang
    assert manifest["start_url"] == routes.HOME.path(lang)
    assert manifest["name"].startswith("Nereo |") and manifest["short_name"] == "Nereo"
    assert manifest["theme_color"] == "#0b2545" and manifest["background_color"] == "#ffffff"
    sizes = {}
    for icon in manifest["icons"]:
        width, height = _png_size(httpx2.get(site + icon["src"]).content)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        sizes[width] = icon["src"]
    assert {192, 512} <= set(sizes)
