"""Structured data: every page's JSON-LD parses, follows the schema.org types it uses, and
says what the page says (prices, currency, questions, breadcrumbs).

The type table below is the part of schema.org the site uses: for each type, the properties
it defines that may appear (with their expected value kinds) and those required (schema.org
expectations plus what search engines need to use the node).
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import quote

import httpx2
import pytest

from marketing_site import routes, security, structured_data
from marketing_site.brand import BRAND_NAME, LEGAL_NAME
from marketing_site.content.layout import SOCIAL_LINKS

JSON_LD = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.DOTALL)
SCHEMA = "https://schema.org"

# Value kinds: a schema.org type name (a nested node or an @id reference to one on the page),
# or one of these data kinds.
URL, TEXT, NUMBER, INTEGER, DATE, LANGUAGE, CURRENCY, AVAILABILITY = (
    "URL",
    "Text",
    "Number",
    "Integer",
    "Date",
    "Language",
    "Currency",
    "ItemAvailability",
)
TYPES: dict[str, dict] = {
    "Organization": {
        "properties": {
            "@id": {URL},
            "name": {TEXT},
            "legalName": {TEXT},
            "url": {URL},
            "logo": {URL, "ImageObject"},
            "foundingDate": {DATE},
            "sameAs": {URL},
        },
        "required": {"name", "legalName", "url", "logo", "sameAs"},
    },
    "WebSite": {
        "properties": {"name": {TEXT}, "url": {URL}, "inLanguage": {LANGUAGE}, "publisher": {"Organization"}},
        "required": {"name", "url"},
    },
    "BreadcrumbList": {"properties": {"itemListElement": {"ListItem"}}, "required": {"itemListElement"}},
    "ListItem": {
        "properties": {"position": {INTEGER}, "name": {TEXT}, "item": {URL}},
        "required": {"position", "name", "item"},
    },
    "Product": {
        "properties": {
            "@id": {URL},
            "name": {TEXT},
            "description": {TEXT},
            "brand": {"Brand", "Organization"},
            "offers": {"Offer"},
            "url": {URL},
        },
        "required": {"name", "description", "offers"},
    },
    "Brand": {"properties": {"name": {TEXT}}, "required": {"name"}},
    "Offer": {
        "properties": {
            "url": {URL},
            "price": {NUMBER},
            "priceCurrency": {CURRENCY},
            "availability": {AVAILABILITY},
            "priceSpecification": {"UnitPriceSpecification"},
            "seller": {"Organization"},
            "description": {TEXT},
        },
        "required": {"url", "priceCurrency", "seller"},
    },
    "UnitPriceSpecification": {
        "properties": {"price": {NUMBER}, "priceCurrency": {CURRENCY}, "unitText": {TEXT}},
        "required": {"price", "priceCurrency", "unitText"},
    },
    "FAQPage": {"properties": {"mainEntity": {"Question"}, "inLanguage": {LANGUAGE}}, "required": {"mainEntity"}},
    "Question": {"properties": {"name": {TEXT}, "acceptedAnswer": {"Answer"}}, "required": {"name", "acceptedAnswer"}},
    "Answer": {"properties": {"text": {TEXT}}, "required": {"text"}},
}


def _data_kind_ok(kind: str, value) -> bool:
    if kind == URL:
        return isinstance(value, str) and re.match(r"https?://[^\s/]+(/\S*)?$", value) is not None
    if kind == TEXT:
        return isinstance(value, str) and value.strip() == value and bool(value)
    if kind == NUMBER:
        return isinstance(value, (int, float)) or (isinstance(value, str) and re.fullmatch(r"\d+(\.\d+)?", value))
    if kind == INTEGER:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == DATE:
        return isinstance(value, str) and re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", value) is not None
    if kind == LANGUAGE:
        return value in ("fr", "en")
    if kind == CURRENCY:
        return isinstance(value, str) and re.fullmatch(r"[A-Z]{3}", value) is not None
    if kind == AVAILABILITY:
        return value in (f"{SCHEMA}/InStock", f"{SCHEMA}/PreOrder", f"{SCHEMA}/OutOfStock")
    return False


def validate(node: dict, ids: dict[str, str], where: str = "") -> None:
    """Check one node (and what it contains) against TYPES; `ids` maps @id to @type."""
    kind = node.get("@type")
    assert kind in TYPES, f"{where}: unknown or missing @type {kind!r}"
    spec = TYPES[kind]
    missing = spec["required"] - node.keys()
    assert not missing, f"{where} {kind}: missing {sorted(missing)}"
    for name, value in node.items():
        if name == "@type":
            continue
        assert name in spec["properties"], f"{where} {kind}: {name} is not a property of {kind}"
        allowed = spec["properties"][name]
        for item in value if isinstance(value, list) else [value]:
            label = f"{where} {kind}.{name}"
            if isinstance(item, dict) and item.keys() == {"@id"}:
                assert ids.get(item["@id"]) in allowed, f"{label}: reference to {item['@id']} not on the page"
            elif isinstance(item, dict):
                assert item.get("@type") in allowed, f"{label}: {item.get('@type')} not in {allowed}"
                validate(item, ids, label)
            else:
                assert any(_data_kind_ok(k, item) for k in allowed if k not in TYPES), f"{label}: bad value {item!r}"


def page_graph(document: dict) -> list[dict]:
    assert document["@context"] == SCHEMA
    return document["@graph"]


def validate_document(document: dict, where: str) -> list[dict]:
    nodes = page_graph(document)
    ids = {n["@id"]: n["@type"] for n in nodes if "@id" in n}
    for node in nodes:
        validate(node, ids, where)
    return nodes


def _get(site: str, path: str) -> str:
    response = httpx2.get(site + quote(path, safe="/"))
    assert response.status_code == 200
    return response.text


def _documents(page_html: str) -> list[dict]:
    return [json.loads(block) for block in JSON_LD.findall(page_html)]


def test_the_validator_refuses_what_schema_org_does_not_define():
    good = structured_data.organization()
    validate(good, {})
    for broken in (
        {**good, "price": "8"},
        {k: v for k, v in good.items() if k != "legalName"},
        {**good, "logo": "logo.svg"},
        {**good, "@type": "Organisation"},
    ):
        with pytest.raises(AssertionError):
            validate(broken, {})
    offer = structured_data.products("fr")[0]["offers"]
    with pytest.raises(AssertionError, match="not on the page"):
        validate(offer, {})


@pytest.mark.parametrize("path", routes.all_paths())
def test_every_page_has_valid_json_ld_that_matches_its_kind(site, path):
    page = routes.page_for_path(path)
    documents = _documents(_get(site, path))
    if not page.indexable:
        assert documents == []
        return
    assert len(documents) == 1
    nodes = validate_document(documents[0], path)
    types = [n["@type"] for n in nodes]
    organization = next(n for n in nodes if n["@type"] == "Organization")
    assert (organization["name"], organization["legalName"]) == (BRAND_NAME, LEGAL_NAME)
    assert organization["sameAs"] == [link["href"] for link in SOCIAL_LINKS]
    assert organization["logo"] == site + "/logo.svg"
    assert httpx2.get(organization["logo"]).status_code == 200
    if page is routes.HOME:
        assert types == ["Organization", "WebSite"]
        return
    crumbs = next(n for n in nodes if n["@type"] == "BreadcrumbList")["itemListElement"]
    assert [c["position"] for c in crumbs] == [1, 2]
    assert crumbs[0]["item"] == site + quote(routes.HOME.path(routes.page_lang(path)), safe="/")
    assert crumbs[-1]["item"] == site + quote(path, safe="/")  # the page's canonical URL


def _shown(page_html: str, test_id: str) -> str:
    match = re.search(rf'data-testid="{test_id}"[^>]*>([^<]*)<', page_html)
    return html.unescape(match.group(1)).replace("\xa0", " ").strip()


@pytest.mark.parametrize(
    ("path", "symbol", "currency"), [(routes.PRICING.fr, "€", "EUR"), (routes.PRICING.en, "$", "USD")]
)
def test_offer_prices_and_questions_are_those_shown_on_the_pricing_page(site, path, symbol, currency):
    page_html = _get(site, path)
    nodes = validate_document(_documents(page_html)[0], path)
    products = {n["@id"].rsplit("#", 1)[1]: n for n in nodes if n["@type"] == "Product"}
    assert list(products) == ["engage", "manage", "interact", "complete"]
    for key, product in products.items():
        shown = _shown(page_html, f"price-{key}")
        offer = product["offers"]
        assert offer["priceCurrency"] == currency
        assert offer["url"] == site + quote(path, safe="/") + f"#{key}"
        if key == "complete":  # on quote: no amount anywhere
            assert "price" not in offer and "priceSpecification" not in offer
            assert offer["description"] == shown
            continue
        assert symbol in shown
        amount = re.sub(r"[^\d.]", "", shown)
        assert offer["price"] == amount
        assert offer["priceSpecification"][0]["price"] == amount
        unit = re.search(rf'data-testid="price-{key}"[^>]*>[^<]*</span><span class="offer__unit">([^<]*)<', page_html)
        assert offer["priceSpecification"][0]["unitText"] == html.unescape(unit.group(1))
    extra = html.unescape(re.search(r'class="offer__extra">([^<]*)<', page_html).group(1)).replace("\xa0", " ")
    interact_client = products["interact"]["offers"]["priceSpecification"][1]
    assert extra.startswith("+ ") and interact_client["price"] == re.sub(
        r"[^\d.]", "", extra.split(" per")[0].split(" par")[0]
    )
    assert interact_client["unitText"] in extra
    questions = next(n for n in nodes if n["@type"] == "FAQPage")["mainEntity"]
    text = html.unescape(page_html)
    assert len(questions) >= 3
    for question in questions:
        assert question["name"] in text and question["acceptedAnswer"]["text"] in text


def test_json_ld_is_a_data_block_left_out_of_the_script_policy(site):
    page_html = _get(site, routes.PRICING.fr)
    block = re.search(r'<script type="application/ld\+json">.*?</script>', page_html, re.DOTALL).group(0)
    policy = httpx2.get(site + quote(routes.PRICING.fr, safe="/")).headers["content-security-policy"]
    hashes = security.inline_script_hashes(page_html.encode())
    assert security.inline_script_hashes(block.encode()) == []
    assert all(h in policy for h in hashes)
    assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]


@pytest.mark.browser
def test_pages_with_json_ld_hydrate_and_navigate_without_console_errors(new_page, page_errors, site):
    page = new_page()
    page.goto(site + "/")
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    # Client-side navigation renders the pricing page's JSON-LD in the browser.
    page.evaluate(f"() => window.__reactRouterDataRouter.navigate({json.dumps(routes.PRICING.fr)})")
    page.wait_for_function("() => document.querySelector('[data-testid=price-engage]') !== null")
    blocks = page.eval_on_selector_all('script[type="application/ld+json"]', "els => els.map(e => e.textContent)")
    types = [n["@type"] for block in blocks for n in json.loads(block)["@graph"]]
    assert "FAQPage" in types and "WebSite" not in types
    assert page_errors == []
