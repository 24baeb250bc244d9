"""A third language is one entry in the route table and one copied folder, translated.

This module does what a maintainer would, in a copy of the project: adds German to
`routes.LANGUAGES`, copies `content/en/` to `content/de/`, translates a few words (the demo
page's title, the pricing page's title and heading, its currency, the language's locale, the
not-found message), then makes a production build (in a web folder of its own, REFLEX_WEB_WORKDIR, ~1 min) and
serves it. Nothing else of the code changes.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import httpx2
import pytest
from lead_payloads import lead_payload
from servers import ROOT, SiteServer, build_in_own_web_folder, free_port

ROUTE_TABLE_ENTRY = 'LANGUAGES: dict[str, str] = {"fr": "", "en": "/en"}'
# (file of content/de/, English line as copied, its German translation)
TRANSLATIONS = (
    ("demo.yaml", r"^  title: Book your .*$", "  title: Buchen Sie Ihre {{meeting_minutes}}-minütige {{brand}}-Demo"),
    ("pricing.yaml", r"^  title: Our offers & pricing$", "  title: Unsere Angebote & Preise"),
    ("pricing.yaml", r"^  currency_prefix: \$$", "  currency_prefix: ''"),
    ("pricing.yaml", r"^  currency_suffix: ''$", "  currency_suffix: ' €'"),
    ("pricing.yaml", r"^  currency_code: USD$", "  currency_code: EUR"),
    ("meta.yaml", r"^  title: Pricing \| \{\{brand\}\}$", "  title: Preise | {{brand}}"),
    ("common.yaml", r"^locale: en_GB$", "locale: de_DE"),
    ("messages.yaml", r"^  message: Oops! We are sorry.*$", "  message: Hoppla! Diese Seite gibt es leider nicht"),
)
# The project's own files a build and a server read; the rest is linked, not copied.
COPIED = ("marketing_site", "assets", "rxconfig.py", "alembic", "alembic.ini")
LINKED = (".venv", ".tools", "files")


def _translate(folder: Path) -> None:
    for name, english, german in TRANSLATIONS:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        found = re.search(english, text, re.MULTILINE)
        assert found, f"{name}: {english!r} moved: update this test"
        path.write_text(text.replace(found.group(0), german), encoding="utf-8")


@pytest.fixture(scope="module")
def german_site(workdir):
    project = workdir / "third-language"
    project.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, project / name)
    for name in LINKED:
        if (ROOT / name).exists():
            (project / name).symlink_to((ROOT / name).resolve())

    # 1. One entry in the route table.
    routes = project / "marketing_site" / "routes.py"
    table = routes.read_text(encoding="utf-8")
    assert ROUTE_TABLE_ENTRY in table, "the route table's language entry moved: update this test"
    routes.write_text(table.replace(ROUTE_TABLE_ENTRY, ROUTE_TABLE_ENTRY[:-1] + ', "de": "/de"}'), encoding="utf-8")
    # 2. One copied folder, 3. translated (a few words are enough to prove the wiring).
    content = project / "marketing_site" / "content"
    shutil.copytree(content / "en", content / "de")
    _translate(content / "de")

    web = project / ".web"
    server = SiteServer(free_port(), workdir, root=project, REFLEX_WEB_WORKDIR=str(web))
    build_in_own_web_folder(server, web, root=project)
    server.migrate()
    server.start()
    yield server
    server.stop()


def test_a_third_language_is_served_under_its_prefix_in_its_words(german_site):
    page = httpx2.get(german_site.url + "/de/demo-nereo")
    assert page.status_code == 200
    assert '<html lang="de"' in page.text
    assert "Buchen Sie Ihre 30-minütige Nereo-Demo" in page.text
    # What is not translated yet reads as in the copied folder (here English).
    assert "Choose your 30-minute slot" in page.text
    # The two existing languages are untouched.
    french = httpx2.get(german_site.url + "/demo-nereo")
    assert "Réservez votre démonstration Nereo de 30 minutes" in french.text
    assert "Buchen" not in french.text and '<html lang="fr"' in french.text


def _attr(tag: str, name: str) -> str | None:
    match = re.search(rf'\b{name}="([^"]*)"', tag, re.IGNORECASE)
    return match.group(1) if match else None


def _alternates(html: str) -> dict[str, str]:
    """hreflang -> href of the page's alternate links."""
    links = re.findall(r"<link\b[^>]*>", html)
    return {_attr(t, "hreflang"): _attr(t, "href") for t in links if _attr(t, "rel") == "alternate"}


def _og_locale(html: str) -> str | None:
    metas = re.findall(r"<meta\b[^>]*>", html)
    return next((_attr(t, "content") for t in metas if _attr(t, "property") == "og:locale"), None)


def test_every_word_of_a_page_comes_from_the_language_folder(german_site):
    page = httpx2.get(german_site.url + "/de/pricing")
    assert page.status_code == 200
    html = page.text
    assert '<html lang="de"' in html
    # Its title (meta.yaml), its heading (pricing.yaml) and its locale (common.yaml).
    assert "<title>Preise | Nereo</title>" in html
    assert "Unsere Angebote &amp; Preise" in html
    assert _og_locale(html) == "de_DE"
    # Its social card: the French one until the language's cards are drawn, never a missing file.
    metas = re.findall(r"<meta\b[^>]*>", html)
    card = next(_attr(t, "content") for t in metas if _attr(t, "property") == "og:image")
    assert card == german_site.url + "/og/pricing-fr.jpg"
    assert httpx2.get(card).status_code == 200
    # Its currency, on the page and in its structured data.
    assert re.search(r'data-testid="price-engage"[^>]*>8 €<', html)
    ld = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.DOTALL).group(1))
    offers = [node["offers"] for node in ld["@graph"] if node["@type"] == "Product"]
    assert offers and {offer["priceCurrency"] for offer in offers} == {"EUR"}
    # A bilingual page names its three versions, and each of the others names it back.
    alternates = _alternates(html)
    assert set(alternates) == {"fr", "en", "de", "x-default"}
    assert alternates["de"] == german_site.url + "/de/pricing"
    assert alternates["en"] == german_site.url + "/en/pricing"
    for lang in ("fr", "en"):
        assert _alternates(httpx2.get(alternates[lang]).text) == alternates
    assert f"<loc>{german_site.url}/de/pricing</loc>" in httpx2.get(german_site.url + "/sitemap.xml").text
    # English keeps its own words, locale and currency.
    english = httpx2.get(german_site.url + "/en/pricing").text
    assert "<title>Pricing | Nereo</title>" in english and _og_locale(english) == "en_GB"
    assert "Preise" not in english and re.search(r'data-testid="price-engage"[^>]*>\$8<', english)


def test_a_lead_from_a_third_language_page_is_accepted(german_site):
    answer = httpx2.post(german_site.url + "/api/v1/mail/send", json=lead_payload(lang="de"))
    assert answer.status_code == 200, answer.text


def test_an_unknown_path_under_the_third_prefix_answers_404_in_its_language(german_site):
    page = httpx2.get(german_site.url + "/de/gibt-es-nicht")
    assert page.status_code == 404
    assert '<html lang="de"' in page.text
    assert "Hoppla! Diese Seite gibt es leider nicht" in page.text
    # Its buttons lead to the German pages.
    assert 'href="/de/pricing"' in page.text
