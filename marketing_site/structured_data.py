"""Structured data (schema.org JSON-LD) for search engines, built from the pages' own content.

- every indexable page: the `Organization` (brand and legal name, logo, social profiles),
  which the offers name as their seller;
- the home pages: the `WebSite`; every other indexable page: its `BreadcrumbList` (home,
  then the page);
- the pricing pages: the four offers as `Product`s with their `Offer` (amounts and currency
  of the page's language, Complete on quote) and the pricing questions as a `FAQPage`.

The webinars are replays on demand, with no date: no `Event` is published for them.
Everything comes from the pages' words (`content/<lang>/`), the offers' facts and the pricing
state, never from a copy; the amounts from `offer_prices` only. Each page gets one
`<script type="application/ld+json">` with an `@graph` (a data block: browsers never run it,
and the CSP hashes skip it).
"""

from __future__ import annotations

import json
from typing import Any

import reflex as rx

from marketing_site import routes
from marketing_site.brand import BRAND_NAME, FOUNDED_YEAR, LEGAL_NAME
from marketing_site.content.layout import SOCIAL_LINKS
from marketing_site.content.offers import OFFER_NAMES, OFFERS
from marketing_site.content.words import words
from marketing_site.seo import page_text, url
from marketing_site.settings import get_settings

SCHEMA = "https://schema.org"
LOGO_PATH = "/logo.svg"


def organization_id() -> str:
    return url("/") + "#organization"


def offer_prices(lang: str) -> list[dict[str, Any]]:
    """The offers as the pricing page shows them: name and list of (amount, unit) parts.

    The one place structured data reads prices: the offers' facts (content.offers, which the
    pricing page and the compare table also use) in the configured price set, with the page's
    units. An empty list of parts means on quote.
    """
    text = words(lang, "pricing.offers")
    price_set = get_settings().pricing_price_set
    offers = []
    for item in text["items"]:
        key = item["key"]
        offer = OFFERS[key]
        amount = offer.prices[price_set]
        parts = [(amount, text["units"][offer.unit])] if amount else []
        if offer.client_price and amount:  # Interact: plus a per-client amount (SPEC §9)
            parts.append((offer.client_price, text["units"]["per_client"]))
        offers.append(
            {
                "key": key,
                "name": OFFER_NAMES[key],
                "summary": item["summary"],
                "parts": parts,
                "currency": text["currency_code"],
                "on_quote": text["on_quote"],
            }
        )
    return offers


def organization() -> dict[str, Any]:
    return {
        "@type": "Organization",
        "@id": organization_id(),
        "name": BRAND_NAME,
        "legalName": LEGAL_NAME,
        "url": url(routes.HOME.path("fr")),
        "logo": url(LOGO_PATH),
        "foundingDate": str(FOUNDED_YEAR),
        "sameAs": [link["href"] for link in SOCIAL_LINKS],
    }


def website(lang: str) -> dict[str, Any]:
    return {
        "@type": "WebSite",
        "name": BRAND_NAME,
        "url": url(routes.HOME.path(lang)),
        "inLanguage": lang,
        "publisher": {"@id": organization_id()},
    }


def breadcrumbs(page: routes.Page, lang: str) -> dict[str, Any]:
    name = page_text(page.key, lang)["title"].removesuffix(f" | {BRAND_NAME}")
    trail = [(words(lang, "layout.breadcrumb_home"), routes.HOME.path(lang)), (name, page.path(lang))]
    return {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": i, "name": label, "item": url(path)}
            for i, (label, path) in enumerate(trail, start=1)
        ],
    }


def products(lang: str) -> list[dict[str, Any]]:
    page_url = url(routes.PRICING.path(lang))
    found = []
    for offer in offer_prices(lang):
        listing: dict[str, Any] = {
            "@type": "Offer",
            "url": f"{page_url}#{offer['key']}",
            "priceCurrency": offer["currency"],
            "seller": {"@id": organization_id()},
        }
        if offer["parts"]:
            listing["price"] = offer["parts"][0][0]
            listing["availability"] = f"{SCHEMA}/InStock"
            listing["priceSpecification"] = [
                {
                    "@type": "UnitPriceSpecification",
                    "price": amount,
                    "priceCurrency": offer["currency"],
                    "unitText": unit,
                }
                for amount, unit in offer["parts"]
            ]
        else:
            listing["description"] = offer["on_quote"]
        found.append(
            {
                "@type": "Product",
                "@id": f"{page_url}#{offer['key']}",
                "name": f"{BRAND_NAME} {offer['name']}",
                "description": offer["summary"],
                "brand": {"@type": "Brand", "name": BRAND_NAME},
                "offers": listing,
            }
        )
    return found


def faq(lang: str) -> dict[str, Any]:
    items = words(lang, "pricing.faq.items")
    return {
        "@type": "FAQPage",
        "inLanguage": lang,
        "mainEntity": [
            {
                "@type": "Question",
                "name": item["question"],
                "acceptedAnswer": {"@type": "Answer", "text": item["answer"]},
            }
            for item in items
        ],
    }


def graph(page: routes.Page, lang: str) -> list[dict[str, Any]]:
    """The schema.org nodes of one page (empty for pages kept out of search engines)."""
    if not page.indexable:
        return []
    if page is routes.HOME:
        return [organization(), website(lang)]
    nodes = [organization(), breadcrumbs(page, lang)]
    if page is routes.PRICING:
        nodes += [*products(lang), faq(lang)]
    return nodes


def json_ld(page: routes.Page, lang: str) -> str:
    """The page's JSON-LD document; `<` escaped so that no text can close the script."""
    document = {"@context": SCHEMA, "@graph": graph(page, lang)}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def script_tags(page: routes.Page, lang: str) -> list[rx.Component]:
    """The `<script type="application/ld+json">` of a page, if it has structured data."""
    if not graph(page, lang):
        return []
    return [
        rx.el.script(
            type="application/ld+json", custom_attrs={"dangerouslySetInnerHTML": {"__html": json_ld(page, lang)}}
        )
    ]
