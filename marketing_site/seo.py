"""Search-engine metadata: per-page head tags, sitemap.xml and robots.txt.

The public base URL (`SITE_URL`) is read at build time: canonical links are baked into
the prerendered pages, and the sitemap is written beside them.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape

import reflex as rx

from marketing_site import routes, theme
from marketing_site.brand import BRAND_NAME
from marketing_site.content.words import words
from marketing_site.settings import get_settings

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"


# The social cards' size (scripts/make_og_images.py draws them), announced with og:image:width/height.
OG_CARD_SIZE = {"width": 1200, "height": 630}
# The app icons drawn from the logo by the same script: path -> size in px.
APP_ICONS = {"/icons/app-192.png": 192, "/icons/app-512.png": 512, "/icons/apple-touch-icon.png": 180}
APPLE_TOUCH_ICON = "/icons/apple-touch-icon.png"
# The browser's UI colour on mobile and the installed app's: the navy of the navbar and logo.
THEME_COLOR = theme.PRIMARY
BACKGROUND_COLOR = "#ffffff"  # the page background (site.css)


def manifest_path(lang: str) -> str:
    """The web app manifest of a language (name, start URL and `lang` are the language's).
    `.json`, so that the app and nginx (whose MIME table has no `.webmanifest`) send it with
    one JSON type that browsers accept for manifests."""
    return f"/manifest-{lang}.json"


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


def card_alt(page: routes.Page | None, lang: str) -> str:
    """The text of a page's social card (brand, title, tagline), as its `og:image:alt`."""
    title = page_text(page.key if page is not None else "not_found", lang)["title"].split(" | ")[0]
    return words(lang, "meta.card_alt").format(title=title, tagline=words(lang, "meta.card_tagline"))


def head_tags(page: routes.Page | None, lang: str) -> list[rx.Component]:
    """Canonical, hreflang alternates, Open Graph (but the image itself), robots tags, the
    language's web app manifest and the icons of a page (None: the not-found page)."""
    tags: list[rx.Component] = [
        rx.el.meta(property="og:image:width", content=str(OG_CARD_SIZE["width"])),
        rx.el.meta(property="og:image:height", content=str(OG_CARD_SIZE["height"])),
        rx.el.meta(property="og:image:alt", content=card_alt(page, lang)),
        rx.el.link(rel="manifest", href=manifest_path(lang)),
        rx.el.link(rel="apple-touch-icon", href=APPLE_TOUCH_ICON),
        rx.el.meta(name="theme-color", content=THEME_COLOR),
    ]
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


# Never worth crawling: the operators' console (in every language), the login redirects, the API.
ROBOTS_DISALLOWED = (*sorted({p for _, p in routes.CONSOLE.paths()}), "/auth/", "/api/")


def robots_txt() -> str:
    """Everything may be crawled but the console, login and API paths; the sitemap is announced."""
    disallow = "".join(f"Disallow: {path}\n" for path in ROBOTS_DISALLOWED)
    return f"User-agent: *\n{disallow}Sitemap: {url('/sitemap.xml')}\n"


def web_app_manifest(lang: str) -> dict:
    """The web app manifest of a language: its home, its name, the logo's icons."""
    return {
        "name": words(lang, "meta.home.title"),
        "short_name": BRAND_NAME,
        "description": words(lang, "meta.home.description"),
        "lang": lang,
        "dir": "ltr",
        "start_url": routes.HOME.path(lang),
        "scope": "/",
        "display": "browser",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": path, "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
            for path, size in APP_ICONS.items()
            if path != APPLE_TOUCH_ICON
        ],
    }


def write_seo_files(static_dir: Path) -> None:
    """Write sitemap.xml, robots.txt and the web app manifests into the production build."""
    for lang in routes.LANGS:
        text = json.dumps(web_app_manifest(lang), ensure_ascii=False, indent=1)
        (static_dir / manifest_path(lang).lstrip("/")).write_text(text, encoding="utf-8")
    (static_dir / "sitemap.xml").write_text(sitemap_xml(), encoding="utf-8")
    (static_dir / "robots.txt").write_text(robots_txt(), encoding="utf-8")
