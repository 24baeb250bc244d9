"""Search-engine metadata: per-page head tags, sitemap.xml and robots.txt.

The public base URL (`SITE_URL`) is read at build time: canonical links are baked into
the prerendered pages, and the sitemap is written beside them.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape

import reflex as rx

from marketing_site import routes
from marketing_site.content.words import words
from marketing_site.settings import get_settings

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"


def og_card_path(key: str, lang: str) -> str:
    """Where scripts/make_og_images.py draws a page's Open Graph card in a language."""
    return f"/og/{key}-{lang}.jpg"


def og_image_path(key: str, lang: str) -> str:
    """The page's Open Graph card: its language's once drawn, else the French one (a new
    language's pages never point to a missing image)."""
    own = og_card_path(key, lang)
    return own if (ASSETS_DIR / own.lstrip("/")).is_file() else og_card_path(key, routes.LANGS[0])


def url(path: str) -> str:
    """Absolute public URL of a path, percent-encoded as browsers send it."""
    return get_settings().absolute(quote(path, safe="/"))


def page_text(key: str, lang: str) -> dict[str, str]:
    """Title and description of a page in a language (`content/<lang>/meta.yaml`; French
    for a page that exists in French only)."""
    return words(lang, f"meta.{key}")


def og_image_url(page: routes.Page | None, lang: str) -> str:
    """The absolute URL of a page's card (None: the not-found page's). Reflex writes the
    page's one `og:image` tag from it (`add_page(image=…)`; its default is favicon.ico)."""
    return url(og_image_path(page.key if page is not None else "not_found", lang))


def head_tags(page: routes.Page | None, lang: str) -> list[rx.Component]:
    """Canonical, hreflang alternates, Open Graph (but the image) and robots tags of a page."""
    tags: list[rx.Component] = []
    if page is None or not page.indexable:
        tags.append(rx.el.meta(name="robots", content="noindex"))
    if page is None:
        return tags
    path = page.path(lang)
    text = page_text(page.key, lang)
    tags += [
        rx.el.link(rel="canonical", href=url(path)),
        rx.el.meta(property="og:title", content=text["title"]),
        rx.el.meta(property="og:description", content=text["description"]),
        rx.el.meta(property="og:url", content=url(path)),
        rx.el.meta(property="og:type", content="website"),
        rx.el.meta(property="og:locale", content=words(lang, "common.locale")),
        rx.el.meta(name="twitter:card", content="summary_large_image"),
    ]
    if page.bilingual:
        for alt_lang, alt_path in page.paths():
            tags.append(rx.el.link(rel="alternate", href=url(alt_path), custom_attrs={"hrefLang": alt_lang}))
        tags.append(rx.el.link(rel="alternate", href=url(page.path("fr")), custom_attrs={"hrefLang": "x-default"}))
    return tags


def sitemap_xml() -> str:
    """The sitemap of indexable pages, with their language alternates."""
    entries = []
    for page in routes.PAGES:
        if not page.indexable:
            continue
        alternates = ""
        if page.bilingual:
            links = [(lang, url(p)) for lang, p in page.paths()] + [("x-default", url(page.path("fr")))]
            alternates = "".join(
                f'<xhtml:link rel="alternate" hreflang="{lang}" href="{escape(href)}"/>' for lang, href in links
            )
        for _, path in page.paths():
            entries.append(f"<url><loc>{escape(url(path))}</loc>{alternates}</url>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "\n".join(entries) + "\n</urlset>\n"
    )


def robots_txt() -> str:
    """Everything may be crawled except the API; the sitemap is announced."""
    return f"User-agent: *\nDisallow: /api/\nSitemap: {url('/sitemap.xml')}\n"


def write_seo_files(static_dir: Path) -> None:
    """Write sitemap.xml and robots.txt into the production build."""
    (static_dir / "sitemap.xml").write_text(sitemap_xml(), encoding="utf-8")
    (static_dir / "robots.txt").write_text(robots_txt(), encoding="utf-8")
