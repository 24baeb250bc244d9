"""Change recipes that are tests (issue 31, docs/recipes.md): each everyday change is made in a
temporary copy of the repository with Python, YAML and Markdown edits only, exactly as the
recipe in docs/recipes.md says, then proved to work without a frontend build: the copy's pages
are compiled to Reflex's render tree (as scripts/check_pages.py does) and its services are
called, in a Python process of the copy's own (the edited modules are imported from there).

Each edit is a literal replacement that must find its anchor once: a recipe whose anchor has
moved fails here, so docs/recipes.md cannot drift from the code.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml
from lead_payloads import UNBOUNDED_INTAKE
from servers import ROOT
from test_consent_store import BUN, as_jsx_props, banner, stored

# What the copy needs to import the site and migrate a database; tests/ and docs/ are not copied.
COPIED = (
    "marketing_site",
    "tests/lead_payloads.py",
    "alembic",
    "alembic.ini",
    "rxconfig.py",
    "pyproject.toml",
    "assets/styles",
    "assets/consent.jsx",
    "assets/carousel.jsx",
    "files",
)


@pytest.fixture
def repo(tmp_path) -> Path:
    copy = tmp_path / "repo"
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    return copy


def edit(repo: Path, path: str, anchor: str, replacement: str) -> None:
    """Replace `anchor` (found exactly once) in the copy's file `path`."""
    file = repo / path
    text = file.read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"{path}: the recipe's anchor is found {text.count(anchor)} times: {anchor!r}"
    file.write_text(text.replace(anchor, replacement), encoding="utf-8")


def add_yaml(repo: Path, path: str, keys: list[str], value: object) -> None:
    """Set `keys` (a path of mapping keys) to `value` in the copy's YAML file `path`, appending
    the new entry in YAML: what a maintainer writes by hand."""
    file = repo / path
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    node = data
    for key in keys[:-1]:
        node = node[key]
    node[keys[-1]] = value
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100), encoding="utf-8")


def write(repo: Path, path: str, text: str) -> None:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def run_in(repo: Path, code: str, **env: str) -> dict:
    """Run `code` in a Python process of the copy; it prints one JSON value last, returned."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "TEST_", "REFLEX_", "SMTP_", "MAIL_", "ANALYTICS", "MARKETING"))
    }
    environment.update(
        PYTHONPATH=str(repo),
        REFLEX_TELEMETRY_ENABLED="false",
        DATABASE_URL=f"sqlite:///{repo / 'recipe.db'}",
        MAIL_SINK_DIR=str(repo / "mail"),
        **env,
    )
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,  # its error output is the failure's message
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


RENDER = """
    import json
    from marketing_site import routes
    from marketing_site.components.layout import site_layout
    import importlib

    def render(page, lang):
        # The page in its layout as Reflex compiles it (JavaScript: non-ASCII text \\u-escaped);
        # its body from `marketing_site.pages.<key>`, as the app finds it (page_table.page_module).
        body = importlib.import_module(f"marketing_site.pages.{page.key}").page
        return str(site_layout(page.path(lang), body(lang)))
"""


def js(text: str) -> str:
    """`text` as it appears in compiled JavaScript (non-ASCII characters \\u-escaped)."""
    return json.dumps(text)[1:-1]


# ---------------------------------------------------------------- (a) a new feature page


def test_recipe_a_new_feature_page_in_both_languages(repo):
    edit(
        repo,
        "marketing_site/routes.py",
        "REGISTRATION = Page(",
        'FEATURE_REPORTING = Page("feature_reporting", fr="/reporting-wealth-management", '
        'en="/en/reporting-wealth-management")\nREGISTRATION = Page(',
    )
    edit(
        repo,
        "marketing_site/routes.py",
        "    FEATURE_COMPLIANCE,\n    REGISTRATION,",
        "    FEATURE_COMPLIANCE,\n    FEATURE_REPORTING,\n    REGISTRATION,",
    )
    edit(
        repo,
        "marketing_site/content/navigation.py",
        '            Link("feature_compliance", page=routes.FEATURE_COMPLIANCE),\n',
        '            Link("feature_compliance", page=routes.FEATURE_COMPLIANCE),\n'
        '            Link("feature_reporting", page=routes.FEATURE_REPORTING),\n',
    )
    write(
        repo,
        "marketing_site/pages/feature_reporting/__init__.py",
        '''
        """Feature page: client reporting."""

        from __future__ import annotations

        import reflex as rx

        from marketing_site.pages.feature_page import feature_page


        def page(lang: str) -> rx.Component:
            return feature_page(lang, "feature_reporting", accent="premium", art="portal")
        ''',
    )
    titles = {"fr": "Un reporting client clair et rapide", "en": "Client reporting read at a glance"}
    for lang, label in (("fr", "Reporting client"), ("en", "Client reporting")):
        # The page's words: a copy of another feature page's, retitled.
        words = yaml.safe_load((repo / f"marketing_site/content/{lang}/feature_portal.yaml").read_text())
        words["hero"]["title"] = titles[lang]
        (repo / f"marketing_site/content/{lang}/feature_reporting.yaml").write_text(
            yaml.safe_dump(words, allow_unicode=True, sort_keys=False), encoding="utf-8"
        )
        add_yaml(repo, f"marketing_site/content/{lang}/navigation.yaml", ["links", "feature_reporting"], label)
        add_yaml(
            repo,
            f"marketing_site/content/{lang}/meta.yaml",
            ["feature_reporting"],
            {"title": f"{label} | {{{{brand}}}}", "description": f"{label}: {titles[lang]}."},
        )
    found = run_in(
        repo,
        RENDER
        + """
    from marketing_site import seo
    from marketing_site.marketing_site import app  # the app, its pages added from the route table
    page = routes.FEATURE_REPORTING
    home = {lang: render(routes.HOME, lang) for lang in routes.LANGS}
    print(json.dumps({
        "paths": dict(page.paths()),
        "routed": [path for _, path in page.paths() if path.strip("/") in {r.strip("/") for r in app._unevaluated_pages}],
        "page": {lang: render(page, lang) for lang in routes.LANGS},
        "navbar": {lang: page.path(lang) in home[lang] for lang in routes.LANGS},
        "sitemap": seo.sitemap_xml(),
    }))
    """,
    )
    paths = found["paths"]
    assert paths == {"fr": "/reporting-wealth-management", "en": "/en/reporting-wealth-management"}
    assert found["routed"] == list(paths.values())
    for lang in ("fr", "en"):
        assert titles[lang] in found["page"][lang]
        assert found["navbar"][lang], f"the {lang} navbar's Solutions menu links the page"
        assert f"{paths[lang]}</loc>" in found["sitemap"]


# ---------------------------------------------------------------- (b) a price and an offer's feature


def test_recipe_b_a_price_and_an_offer_feature(repo):
    edit(
        repo,
        "marketing_site/content/offers.py",
        'prices={DEFAULT_SET: "8", ALTERNATE_SET: "120"}',
        'prices={DEFAULT_SET: "9", ALTERNATE_SET: "120"}',
    )
    edit(
        repo,
        "marketing_site/content/offers.py",
        '    ("security", ("two_factor",)),',
        '    ("security", ("two_factor", "single_sign_on")),',
    )
    edit(
        repo,
        "marketing_site/content/offers.py",
        '    "sales_pipeline",\n    "two_factor",\n)',
        '    "sales_pipeline",\n    "two_factor",\n    "single_sign_on",\n)',
    )
    for lang, label in (("fr", "Authentification unique (SSO)"), ("en", "Single sign-on (SSO)")):
        add_yaml(repo, f"marketing_site/content/{lang}/offers.yaml", ["features", "single_sign_on"], label)
    found = run_in(
        repo,
        RENDER
        + """
    from marketing_site import structured_data
    from marketing_site.content.offers import OFFERS
    from marketing_site.state.pricing import CONFIGURED
    print(json.dumps({
        "prerendered_price": CONFIGURED["priceEngage"],
        "pricing": {lang: render(routes.PRICING, lang) for lang in routes.LANGS},
        "compare": {lang: render(routes.COMPARE, lang) for lang in routes.LANGS},
        "prices": {lang: structured_data.offer_prices(lang) for lang in routes.LANGS},
        "json_ld": {lang: structured_data.json_ld(routes.PRICING, lang) for lang in routes.LANGS},
        "status": {key: offer.status("single_sign_on") for key, offer in OFFERS.items()},
    }, ensure_ascii=False))
    """,
    )
    assert found["status"] == {"engage": "no", "manage": "yes", "interact": "yes", "complete": "yes"}
    for lang, label in (("fr", "Authentification unique (SSO)"), ("en", "Single sign-on (SSO)")):
        engage = next(offer for offer in found["prices"][lang] if offer["key"] == "engage")
        assert engage["parts"][0][0] == "9"
        assert '"price": "9"' in found["json_ld"][lang] or '"price":"9"' in found["json_ld"][lang]
        assert js(label) in found["compare"][lang]
        # The pricing card shows the state's price, prerendered from the same facts.
        assert "priceEngage" in found["pricing"][lang]
    assert found["prerendered_price"] == "9"


# ---------------------------------------------------------------- (c) an optional select on the lead form

COMPANY_SIZE_FIELD = """    company_size: Annotated[
        str, select_rule("1-5", "6-20", "21-100", "100+", required=False), _optional()
    ]
"""
COMPANY_SIZE_COLUMN = """    company_size: str = Field(default="", max_length=200, sa_column_kwargs={"server_default": ""})
"""


def test_recipe_c_an_optional_company_size_select_on_the_lead_form(repo):
    edit(
        repo,
        "marketing_site/services/leads.py",
        '            format="email",\n        ),\n    ]\n',
        '            format="email",\n        ),\n    ]\n' + COMPANY_SIZE_FIELD,
    )
    edit(
        repo,
        "marketing_site/db/leads.py",
        "    email: str = Field(max_length=200, index=True)\n",
        "    email: str = Field(max_length=200, index=True)\n" + COMPANY_SIZE_COLUMN,
    )
    labels = {
        "fr": (
            "Taille de votre société",
            {"1-5": "1 à 5 personnes", "6-20": "6 à 20", "21-100": "21 à 100", "100+": "Plus de 100"},
        ),
        "en": (
            "Your company size",
            {"1-5": "1 to 5 people", "6-20": "6 to 20", "21-100": "21 to 100", "100+": "More than 100"},
        ),
    }
    for lang, (label, options) in labels.items():
        add_yaml(repo, f"marketing_site/content/{lang}/lead_forms.yaml", ["labels", "company_size"], label)
        add_yaml(repo, f"marketing_site/content/{lang}/lead_forms.yaml", ["options"], {"company_size": options})
    found = run_in(
        repo,
        """
    import io, json
    from alembic import command
    from alembic.config import Config
    # The migration a maintainer makes with `alembic revision --autogenerate`, then applies
    # (the commands' own functions, in this process: one start instead of three).
    config = Config("alembic.ini")
    command.upgrade(config, "head")
    command.revision(config, message="lead company size", autogenerate=True)
    command.upgrade(config, "head")
    from marketing_site.components.lead_form import lead_form_props
    from marketing_site.components.layout import site_layout
    from marketing_site.services import console, lead_export, leads, mail
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead, OutboxMessage
    from marketing_site.pages.console import leads as console_page
    from marketing_site.content.words import words
    from sqlmodel import select

    import sys
    sys.path.insert(0, "tests")
    from lead_payloads import lead_payload  # payloads made from the copy's field specs

    base = lead_payload("ebook", lang="en", name="Smith", firstname="Jane", phone="+44 20 7946 0000", company="Smith Wealth")
    results = {
        "chosen": leads.submit_lead({**base, "email": "jane@smith.example", "company_size": "6-20"}, "10.0.0.1"),
        "empty": leads.submit_lead({**base, "email": "john@smith.example", "company_size": ""}, "10.0.0.2"),
        "absent": leads.submit_lead({**base, "email": "ann@smith.example"}, "10.0.0.3"),
        "other": leads.submit_lead({**base, "email": "bob@smith.example", "company_size": "huge"}, "10.0.0.4"),
    }
    with new_session() as session:
        stored = {lead.email: lead.company_size for lead in session.exec(select(Lead))}
        outbox = {m.reply_to: m.body for m in session.exec(select(OutboxMessage))}
    # Mailed: the outbox worker's pass, to the mail folder (MAIL_SINK_DIR, no SMTP_HOST), as sent.
    import asyncio, email, pathlib
    from email import policy
    asyncio.run(mail.process_due())
    sent = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in pathlib.Path("mail").glob("*.eml")]
    bodies = {str(m["Reply-To"]): m.get_body(("plain",)).get_content() for m in sent}
    out = io.StringIO()
    with new_session() as session:
        lead_export.write_leads_csv(out, session.exec(select(Lead).order_by(Lead.id)))
    page = console.lead_page(console.LeadFilter())
    spec = [f for f in lead_form_props("ebook", "en")["fields"] if f["name"] == "company_size"][0]
    print(json.dumps({
        "results": {k: [r.status, r.errors] for k, r in results.items()},
        "stored": stored,
        "bodies": bodies,
        "outbox": outbox,
        "csv": out.getvalue(),
        "rows": [{k: row.get(k) for k in ("email", "company_size")} for row in page.rows],
        "columns": list(console_page.COLUMNS),
        "table": str(console_page.table(words("en", "console"), "en")),
        "spec": spec,
    }, ensure_ascii=False))
    """,
    )
    results = found["results"]
    assert results["chosen"] == ["accepted", {}] and results["empty"] == ["accepted", {}]
    assert results["absent"] == ["accepted", {}]
    assert results["other"][0] == "invalid" and "company_size" in results["other"][1]
    assert found["stored"] == {"jane@smith.example": "6-20", "john@smith.example": "", "ann@smith.example": ""}
    # Mailed (in French, the sales team's language): the option's words, or "not given".
    assert set(found["bodies"]) == set(found["outbox"]) == set(found["stored"])  # three mails sent
    assert "Taille de votre société : 6 à 20\r\n" in found["bodies"]["jane@smith.example"]
    assert "Taille de votre société : (non renseigné)\r\n" in found["bodies"]["john@smith.example"]
    header, *lines = found["csv"].lstrip("\ufeff").splitlines()
    assert "company_size" in header.split(";")
    column = header.split(";").index("company_size")
    assert sorted(line.split(";")[column] for line in lines) == ["", "", "6-20"]
    assert "company_size" in found["columns"]
    assert "Your company size" in found["table"] and "6 to 20" in found["table"]
    assert {"email": "jane@smith.example", "company_size": "6-20"} in found["rows"]
    assert {"email": "john@smith.example", "company_size": ""} in found["rows"]
    spec = found["spec"]
    assert spec["kind"] == "select" and spec["required"] is False
    assert [o["value"] for o in spec["options"]] == ["", "1-5", "6-20", "21-100", "100+"]
    assert spec["label"] == "Your company size"


# ---------------------------------------------------------------- (d) a testimonial and autoplay


def test_recipe_d_a_testimonial_and_an_autoplay_interval(repo):
    edit(
        repo,
        "marketing_site/content/testimonials.py",
        "AUTOPLAY_SECONDS: float | None = None",
        "AUTOPLAY_SECONDS: float | None = 6",
    )
    edit(
        repo,
        "marketing_site/content/testimonials.py",
        '        "logo": "/illustrations/home/logo-corvelle.svg",\n    },\n',
        '        "logo": "/illustrations/home/logo-corvelle.svg",\n    },\n'
        '    "marc_aubert": {\n'
        '        "image": "/illustrations/home/portrait-claire-martineau.svg",\n'
        '        "name": "Marc Aubert",\n'
        '        "company": "Aubert Gestion",\n'
        '        "logo": "/illustrations/home/logo-corvelle.svg",\n'
        "    },\n",
    )
    quotes = {
        "fr": "Nos revues annuelles prennent dix minutes.",
        "en": "Our annual reviews take ten minutes to prepare.",
    }
    for lang, job in (("fr", "Associé"), ("en", "Partner")):
        data = yaml.safe_load((repo / f"marketing_site/content/{lang}/testimonials.yaml").read_text())
        add_yaml(
            repo,
            f"marketing_site/content/{lang}/testimonials.yaml",
            ["items"],
            [*data["items"], {"testimonial": "marc_aubert", "quote": quotes[lang], "job": job}],
        )
    found = run_in(
        repo,
        RENDER
        + """
    from marketing_site.components.carousel import carousel_props
    print(json.dumps({
        "props": {lang: carousel_props(lang) for lang in routes.LANGS},
        "home": {lang: render(routes.HOME, lang) for lang in routes.LANGS},
    }, ensure_ascii=False))
    """,
    )
    for lang in ("fr", "en"):
        props = found["props"][lang]
        assert [item["name"] for item in props["items"]] == ["Claire Martineau", "Marc Aubert"]
        assert props["autoplay_ms"] == 6000
        home = found["home"][lang]
        assert "Marc Aubert" in home and js(quotes[lang]) in home
        assert "autoplayMs:6000" in home
        assert js(props["pause_label"]) in home
        # The copy's carousel.jsx rendered with these props (its first render, the prerendered
        # one): the first testimonial, and the Pause control beside previous/next (English pages
        # hide previous/next, not Pause). tests/test_carousel_browser.py runs it in Chromium.
        tree = carousel_tree(repo, props)
        buttons = [e["props"].get("aria-label") for e in elements(tree) if e["type"] == "button"]
        assert props["pause_label"] in buttons
        assert buttons == (
            [props["pause_label"], props["previous_label"], props["next_label"]]
            if lang == "fr"
            else [props["pause_label"]]
        )
        assert any(
            e["type"] == "p" and e["props"].get("children") == props["items"][0]["quote"] for e in elements(tree)
        )
        assert tree["props"]["data-autoplay"] == "rotating"


def carousel_tree(repo: Path, props: dict) -> dict:
    """The copy's `assets/carousel.jsx` rendered once in Bun (tests/js/carousel_tree.mjs)."""
    camel = {key.split("_")[0] + "".join(p.title() for p in key.split("_")[1:]): v for key, v in props.items()}
    done = subprocess.run(
        [
            str(BUN),
            str(ROOT / "tests" / "js" / "carousel_tree.mjs"),
            str(repo / "assets" / "carousel.jsx"),
            json.dumps(camel),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,  # its error output is the failure's message
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def elements(node) -> list[dict]:
    """Every element of a rendered tree, depth first."""
    if isinstance(node, list):
        return [e for child in node for e in elements(child)]
    if not isinstance(node, dict) or "type" not in node:
        return []
    return [node, *elements(node["props"].get("children"))]


# ---------------------------------------------------------------- (e) a new consent purpose


def test_recipe_e_a_new_consent_purpose(repo):
    edit(
        repo,
        "marketing_site/content/consent.py",
        '    ConsentPurpose("marketing", script_settings=("marketing_script_url",), events=("conversion",)),\n',
        '    ConsentPurpose("marketing", script_settings=("marketing_script_url",), events=("conversion",)),\n'
        '    ConsentPurpose("chat", script_settings=("chat_script_url",)),\n',
    )
    edit(
        repo,
        "marketing_site/settings.py",
        '    marketing_script_url: str = ""\n',
        '    marketing_script_url: str = ""\n    chat_script_url: str = ""\n',
    )
    for lang, label in (("fr", "Messagerie instantanée"), ("en", "Live chat")):
        add_yaml(
            repo,
            f"marketing_site/content/{lang}/consent.yaml",
            ["purposes", "chat"],
            {"label": label, "text": f"{label}.", "recipients": f"{label}: chat.example."},
        )
    found = run_in(
        repo,
        RENDER
        + """
    from marketing_site.components.consent import consent_gate, consent_props
    from marketing_site.security import content_security_policy
    print(json.dumps({
        "props": {lang: consent_props(lang) for lang in routes.LANGS},
        "home": render(routes.HOME, "en"),
        "gate": str(consent_gate()),
        "csp": content_security_policy(),
    }, ensure_ascii=False))
    """,
        CHAT_SCRIPT_URL="https://chat.example/widget.js",
    )
    for lang, label in (("fr", "Messagerie instantanée"), ("en", "Live chat")):
        purposes = found["props"][lang]["purposes"]
        assert [p["key"] for p in purposes] == ["analytics", "marketing", "chat"]
        chat = purposes[-1]
        assert chat["label"] == label and chat["scripts"] == ["https://chat.example/widget.js"]
    # In the banner's panel (one box per purpose), and asked for until answered: the head gate
    # paints the banner while the stored choice lacks `chat`, and the banner injects a purpose's
    # scripts only once that purpose is granted (assets/consent.jsx; tests/test_consent.py runs it).
    assert "Live chat" in found["home"] and "https://chat.example/widget.js" in found["home"]
    assert 'purposeKeys:["analytics", "marketing", "chat"]' in found["gate"]
    assert "https://chat.example" in found["csp"]
    # Off until chosen: the copy's banner (its consent.jsx, its props) mounted on a visitor who had
    # answered the two earlier purposes loads what those allow, not the chat, and asks again;
    # once the chat is granted, its script is injected.
    props = as_jsx_props(found["props"]["en"])
    before = banner(props, stored(analytics="1", marketing="0"), consent_jsx=repo / "assets" / "consent.jsx")
    assert "https://chat.example/widget.js" not in before["scripts"]
    assert before["has"]["chat"] is False and before["visible"] is True
    after = banner(props, stored(analytics="1", marketing="0"), [["grant", "chat"]], repo / "assets" / "consent.jsx")
    assert after["scripts"][-1] == "https://chat.example/widget.js" and after["has"]["chat"] is True


# ---------------------------------------------------------------- (f) a dated announcement

# The gate of the page's head (reflex_internals/client_state.py), run in Node with a visitor's
# clock and storage: what <html> says of each variable before the first paint.
GATE_IN_NODE = """
const [script, clock, stored] = [process.argv[1], Number(process.argv[2]), process.argv[3]];
const attributes = {};
globalThis.document = { documentElement: { setAttribute: (n, v) => { attributes[n] = v; }, getAttribute: (n) => attributes[n] ?? null } };
globalThis.window = { localStorage: { getItem: () => stored || null }, sessionStorage: { getItem: () => null } };
globalThis.Date = { now: () => clock };
(0, eval)(script);
process.stdout.write(JSON.stringify(attributes));
"""


def run_gate(script: str, clock_ms: int, stored: str = "") -> dict[str, str]:
    done = subprocess.run(
        ["node", "-e", GATE_IN_NODE, script, str(clock_ms), stored],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,  # its error output is the failure's message
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_recipe_f_a_dated_announcement(repo):
    # Around the day the test runs, so that a page built now carries it (the recipe's example
    # in docs/recipes.md has the dates of the fair).
    from datetime import UTC, datetime, time, timedelta
    from zoneinfo import ZoneInfo

    today = datetime.now(UTC).date()
    starts, ends = today - timedelta(days=2), today + timedelta(days=20)
    edit(
        repo,
        "marketing_site/content/announcements.py",
        "ANNOUNCEMENTS: tuple[Announcement, ...] = (\n",
        "ANNOUNCEMENTS: tuple[Announcement, ...] = (\n"
        f'    Announcement("patrimonia", starts=date({starts.year}, {starts.month}, {starts.day}), '
        f'ends=date({ends.year}, {ends.month}, {ends.day}), link="page:demo", pages=("home", "demo")),\n',
    )
    texts = {
        "fr": ("Nous serons au salon Patrimonia les 24–25 septembre.", "Prendre rendez-vous sur le salon"),
        "en": ("Meet us at the Patrimonia fair on 24–25 September.", "Book a meeting at the fair"),
    }
    for lang, (text, label) in texts.items():
        add_yaml(
            repo,
            f"marketing_site/content/{lang}/announcements.yaml",
            ["items", "patrimonia"],
            {"text": text, "link": label},
        )
    found = run_in(
        repo,
        RENDER
        + """
    from datetime import timedelta
    from marketing_site.marketing_site import app
    from marketing_site.content.announcements import ANNOUNCEMENTS, carried
    from marketing_site.reflex_internals import client_state
    item = next(a for a in ANNOUNCEMENTS if a.key == "patrimonia")
    cut = item.ends_at
    print(json.dumps({
        "pages": {f"{page.key}-{lang}": render(page, lang) for page in (routes.HOME, routes.DEMO, routes.PRICING) for lang in routes.LANGS},
        "head": [str(part) for part in app.head_components],
        "gate": client_state.gate_script(list(client_state.REGISTRY.values())),
        "stylesheet": client_state.stylesheet(list(client_state.REGISTRY.values())),
        "starts_ms": round(item.starts_at.timestamp() * 1000),
        "ends_ms": round(cut.timestamp() * 1000),
        "ends_iso": cut.isoformat(),
        "on": {"before": item.is_on(cut - timedelta(milliseconds=1)), "at": item.is_on(cut)},
        "built_after": [a.key for a in carried("home", cut)],
        "built_before": [a.key for a in carried("home", item.starts_at - timedelta(days=30))],
    }, ensure_ascii=False))
    """,
    )
    for lang, (text, label) in texts.items():
        for page in ("home", "demo"):
            rendered = found["pages"][f"{page}-{lang}"]
            assert js(text) in rendered and js(label) in rendered
            assert '"data-announcement":"patrimonia"' in rendered
            # A named region, its close button named, hidden while off its dates or closed.
            assert f'"aria-label":{json.dumps(words_of(repo, lang)["label"])}' in rendered
            assert f'"aria-label":{json.dumps(words_of(repo, lang)["close"])}' in rendered
            assert (
                '"data-client-hide":"announcement_patrimonia_on=false announcement_patrimonia_closed=true"' in rendered
            )
        assert "patrimonia" not in found["pages"][f"pricing-{lang}"]
    # The cut-off is the end of the last day in Paris, one instant for the server and the visitor.
    paris_midnight = datetime.combine(ends + timedelta(days=1), time(0), ZoneInfo("Europe/Paris"))
    assert found["ends_iso"] == paris_midnight.astimezone(UTC).isoformat()
    assert found["on"] == {"before": True, "at": False}
    assert found["built_after"] == [] and found["built_before"] == ["patrimonia"]
    gate = found["gate"]
    assert any(json.dumps(gate) in part for part in found["head"])  # the app's head runs it
    before = run_gate(gate, found["ends_ms"] - 1)
    after = run_gate(gate, found["ends_ms"])
    early = run_gate(gate, found["starts_ms"] - 1)
    assert before["data-client-announcement-patrimonia-on"] == "true"
    assert after["data-client-announcement-patrimonia-on"] == "false"
    assert early["data-client-announcement-patrimonia-on"] == "false"
    # Closed once, on this browser: remembered under its key, hidden from the first paint.
    closed = run_gate(gate, found["ends_ms"] - 1, json.dumps({"announcement_patrimonia_closed": True}))
    assert closed["data-client-announcement-patrimonia-closed"] == "true"
    assert before["data-client-announcement-patrimonia-closed"] == "false"
    assert (
        'html[data-client-announcement-patrimonia-closed="true"] '
        '[data-client-hide~="announcement_patrimonia_closed=true"]'
    ) in found["stylesheet"]
    assert (
        'html[data-client-announcement-patrimonia-on="false"] [data-client-hide~="announcement_patrimonia_on=false"]'
    ) in found["stylesheet"]


def words_of(repo: Path, lang: str) -> dict:
    return yaml.safe_load((repo / f"marketing_site/content/{lang}/announcements.yaml").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- (g) a required field for one form

ASSETS_FIELD = """    assets: Annotated[
        str, select_rule("under-10m", "10-50m", "50-250m", "over-250m", forms=("demo",)), _required()
    ]
"""
ASSETS_COLUMN = """    assets: str = Field(default="", max_length=200, sa_column_kwargs={"server_default": ""})
"""
ASSETS_WORDS = {
    "fr": (
        "Actifs sous gestion*",
        {
            "under-10m": "Moins de 10 M€",
            "10-50m": "10 à 50 M€",
            "50-250m": "50 à 250 M€",
            "over-250m": "Plus de 250 M€",
        },
    ),
    "en": (
        "Assets under management*",
        {"under-10m": "Under €10m", "10-50m": "€10m to €50m", "50-250m": "€50m to €250m", "over-250m": "Over €250m"},
    ),
}


def test_recipe_g_a_required_assets_select_on_the_demo_booking_only(repo):
    edit(
        repo,
        "marketing_site/services/leads.py",
        '            format="email",\n        ),\n    ]\n',
        '            format="email",\n        ),\n    ]\n' + ASSETS_FIELD,
    )
    edit(
        repo,
        "marketing_site/db/leads.py",
        "    email: str = Field(max_length=200, index=True)\n",
        "    email: str = Field(max_length=200, index=True)\n" + ASSETS_COLUMN,
    )
    for lang, (label, options) in ASSETS_WORDS.items():
        add_yaml(repo, f"marketing_site/content/{lang}/lead_forms.yaml", ["labels", "assets"], label)
        add_yaml(repo, f"marketing_site/content/{lang}/lead_forms.yaml", ["options"], {"assets": options})
    found = run_in(
        repo,
        RENDER
        + """
    import asyncio, email, io, pathlib, sys
    from email import policy
    from alembic import command
    from alembic.config import Config
    config = Config("alembic.ini")
    command.upgrade(config, "head")
    command.revision(config, message="lead assets", autogenerate=True)
    command.upgrade(config, "head")
    sys.path.insert(0, "tests")
    from lead_payloads import booking_payload, lead_payload  # payloads made from the copy's field specs
    from marketing_site.components.lead_form import lead_form_props
    from marketing_site.content.words import words
    from marketing_site.pages.console import bookings as bookings_page, leads as leads_page
    from marketing_site.services import booking, console, console_bookings, lead_export, leads, mail

    slots = [booking.slot_id(start) for start in booking.available_slots()[:4]]
    results = {
        "booked": booking.book(booking_payload(slots[0], email="jane@smith.example", assets="10-50m", lang="en"), "10.0.1.1"),
        "missing": booking.book({**booking_payload(slots[1], email="ann@smith.example", lang="en"), "assets": ""}, "10.0.1.2"),
        "other": booking.book(booking_payload(slots[1], email="bob@smith.example", assets="huge"), "10.0.1.3"),
        # A test's payload that says nothing of the field: the helper fills it from its spec.
        "helper": booking.book(booking_payload(slots[2], email="tom@smith.example"), "10.0.1.4"),
        "download": leads.submit_lead(lead_payload("ebook", email="jane@smith.example", lang="en"), "10.0.1.5"),
    }
    operator = console.Operator(sub="ops", email="ops@smith.example")
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead
    from sqlmodel import select
    with new_session() as session:
        stored = [[lead.email, lead.form, lead.assets] for lead in session.exec(select(Lead).order_by(Lead.id))]
    asyncio.run(mail.process_due())
    sent = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in pathlib.Path("mail").glob("*.eml")]
    bodies = {str(m["Subject"]): m.get_body(("plain",)).get_content() for m in sent if m["To"] == "leads@nereo-wealth.fr"}
    leads_csv, _ = console.export_leads_csv(console.LeadFilter())
    bookings_csv, _ = console_bookings.export_bookings_csv(operator)
    upcoming, _past, _cut = console_bookings.booking_lists()
    lead_rows = console.lead_page(console.LeadFilter()).rows
    erased = console.erase_subject(operator, "jane@smith.example")
    with new_session() as session:
        left = [[lead.email, lead.assets] for lead in session.exec(select(Lead))]

    # The property the site's fields have (tests/lead_payloads.py), now with this one: any value
    # its spec accepts is stored, mailed, exported, shown and erased with the person.
    from hypothesis import HealthCheck, given, settings
    from lead_payloads import follow_through, person

    @settings(max_examples=5, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(person())
    def pipeline(drawn):
        follow_through(*drawn, asyncio.run)

    pipeline()
    print(json.dumps({
        "results": {k: [r.status, r.errors] for k, r in results.items()},
        "messages": {lang: words(lang, "lead_forms.field_errors") for lang in routes.LANGS},
        "specs": {form: [f["name"] for f in leads.field_specs(form, "en")] for form in ("demo", "ebook")},
        "demo_spec": [f for f in leads.field_specs("demo", "en") if f["name"] == "assets"],
        "ebook_props": [f["name"] for f in lead_form_props("ebook", "en")["fields"]],
        "demo_page": {lang: render(routes.DEMO, lang) for lang in routes.LANGS},
        "stored": stored,
        "bodies": bodies,
        "leads_csv": leads_csv,
        "bookings_csv": bookings_csv,
        "lead_rows": [{k: row[k] for k in ("email", "form", "assets")} for row in lead_rows],
        "booking_rows": [{k: row[k] for k in ("email", "assets")} for row in upcoming],
        "leads_table": str(leads_page.table(words("en", "console"), "en")),
        "bookings_section": str(bookings_page.section(words("fr", "console"), "fr")),
        "erased": erased,
        "left": left,
    }, ensure_ascii=False))
    """,
        **UNBOUNDED_INTAKE,
    )
    results, messages = found["results"], found["messages"]
    assert results["booked"][0] == "booked" and results["helper"][0] == "booked"
    assert results["missing"] == ["invalid", {"assets": messages["en"]["required"]}]
    assert results["other"] == ["invalid", {"assets": messages["fr"]["choice"]}]
    assert results["download"] == ["accepted", {}]  # the document forms do not ask it
    # The scheduler asks it (a required select, its options' words), in both languages; no
    # document form does.
    assert found["specs"]["demo"][-1] == "assets" and "assets" not in found["specs"]["ebook"]
    [spec] = found["demo_spec"]
    assert spec["kind"] == "select" and spec["required"] is True and spec["label"] == "Assets under management*"
    assert [o["value"] for o in spec["options"]] == ["", "under-10m", "10-50m", "50-250m", "over-250m"]
    assert "assets" not in found["ebook_props"]
    for lang, (label, options) in ASSETS_WORDS.items():
        assert js(label) in found["demo_page"][lang] and js(options["50-250m"]) in found["demo_page"][lang]
    assert found["stored"] == [
        ["jane@smith.example", "demo", "10-50m"],
        ["tom@smith.example", "demo", "under-10m"],
        ["jane@smith.example", "ebook", ""],
    ]
    # Mailed to sales (in French) with the booking, by its option's words; not with the download.
    [booked_mail] = [
        body
        for subject, body in found["bodies"].items()
        if subject.startswith("Démonstration réservée") and "jane@smith.example" in body
    ]
    assert "Actifs sous gestion : 10 à 50 M€\r\n" in booked_mail
    [download_mail] = [body for subject, body in found["bodies"].items() if subject.startswith("Ebook download")]
    assert "Actifs sous gestion" not in download_mail
    # Both CSV exports have the column: the download empty, the demo's value.
    leads_csv = [(r["email"], r["form"], r["assets"]) for r in _csv_rows(found["leads_csv"])]
    assert ("jane@smith.example", "demo", "10-50m") in leads_csv and ("jane@smith.example", "ebook", "") in leads_csv
    assert ("jane@smith.example", "10-50m") in [(r["email"], r["assets"]) for r in _csv_rows(found["bookings_csv"])]
    assert {"email": "jane@smith.example", "form": "ebook", "assets": ""} in found["lead_rows"]
    assert {"email": "jane@smith.example", "form": "demo", "assets": "10-50m"} in found["lead_rows"]
    assert {"email": "jane@smith.example", "assets": "10-50m"} in found["booking_rows"]
    # The console's tables: a column headed by the field's label, a value shown by its words.
    assert "Assets under management" in found["leads_table"] and js("€10m to €50m") in found["leads_table"]
    assert js("Actifs sous gestion") in found["bookings_section"] and js("10 à 50 M€") in found["bookings_section"]
    # Erased with the person: their lead, their booking and its lead.
    assert (found["erased"]["lead"], found["erased"]["booking"]) == (2, 1)
    assert found["left"] == [["tom@smith.example", "under-10m"]]


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=";"))


# ---------------------------------------------------------------- (h) a footnote and a new highlighted plan

MINIMUM_NOTE = {
    "fr": "Facturation à partir de 50 clients.",
    "en": "Billed from 50 clients.",
}


def test_recipe_h_a_footnote_and_a_new_highlighted_plan(repo):
    edit(repo, "marketing_site/content/offers.py", 'HIGHLIGHTED: str | None = "interact"', 'HIGHLIGHTED = "complete"')
    edit(
        repo,
        "marketing_site/content/offers.py",
        '    Footnote("kyc_lab_partner", "1", features=("kyc_lab",)),\n',
        '    Footnote("kyc_lab_partner", "1", features=("kyc_lab",)),\n'
        '    Footnote("minimum_clients", "2", prices=("engage", "interact")),\n',
    )
    for lang, note in MINIMUM_NOTE.items():
        add_yaml(repo, f"marketing_site/content/{lang}/offers.yaml", ["notes", "minimum_clients"], note)
    found = run_in(
        repo,
        """
    import dataclasses, importlib, json
    from marketing_site.content.offers import FOOTNOTES
    from marketing_site.content.words import words

    def tree(key, lang):
        return importlib.import_module(f"marketing_site.pages.{key}").page(lang).render()

    print(json.dumps({
        "footnotes": [dataclasses.asdict(note) for note in FOOTNOTES],
        "words": {lang: words(lang, "offers") for lang in ("fr", "en")},
        "pricing": {lang: tree("pricing", lang) for lang in ("fr", "en")},
        "compare": {lang: tree("compare", lang) for lang in ("fr", "en")},
    }, ensure_ascii=False))
    """,
    )
    from test_offer_notes import badges, element_tree, footnote_problems

    from marketing_site.content.offers import Footnote

    footnotes = tuple(
        Footnote(**{k: tuple(v) if isinstance(v, list) else v for k, v in n.items()}) for n in found["footnotes"]
    )
    assert [note.key for note in footnotes] == ["kyc_lab_partner", "minimum_clients"]
    for lang, note in MINIMUM_NOTE.items():
        text = found["words"][lang]
        pricing, compare = element_tree(found["pricing"][lang]), element_tree(found["compare"][lang])
        assert footnote_problems(pricing, text, footnotes) == footnote_problems(compare, text, footnotes) == []
        # The note's mark on Engage's and Interact's prices, the note once under the cards.
        described = {
            card.props["id"]: line.props.get("aria-describedby", "")
            for card in pricing.walk()
            if card.tag == "article" and "offer" in card.classes()
            for line in card.walk()
            if "offer__price-line" in line.classes()
        }
        assert described == {
            "engage": "offer-note-minimum_clients",
            "manage": "",
            "interact": "offer-note-minimum_clients",
            "complete": "",
        }
        [listed] = [e for e in pricing.walk() if e.props.get("id") == "offer-note-minimum_clients"]
        assert listed.text(sr=False) == f"2 {note}"
        # A price's note is not the compare table's: it shows no price.
        assert not [e for e in compare.walk() if e.props.get("id") == "offer-note-minimum_clients"]
        # The badge moved to Complete, on the pricing card and on the compare guide's card.
        cards = [
            next(a for a in badge.ancestors() if a.tag == "article") for badge in badges(pricing) + badges(compare)
        ]
        assert [badge.text() for badge in badges(pricing) + badges(compare)] == [text["highlight_badge"]] * 2
        assert cards[0].props["id"] == "complete" and cards[1].text().startswith("Complete")
        highlighted = [e.props["id"] for e in pricing.walk() if "offer--highlighted" in e.classes()]
        assert highlighted == ["complete"]


# ---------------------------------------------------------------- (i) 45-minute meetings


def test_recipe_i_45_minute_meetings(repo):
    write(repo, ".env", "BOOKING_MEETING_MINUTES=45\n")
    edit(
        repo,
        "marketing_site/content/demo.py",
        'AGENDA: dict[str, int | None] = {"context": 5, "demonstration": None, "next_steps": 5}',
        'AGENDA: dict[str, int | None] = {"context": 10, "demonstration": None, "next_steps": 10}',
    )
    found = run_in(
        repo,
        RENDER
        + """
    import asyncio, pathlib
    from datetime import timedelta
    from alembic import command
    from alembic.config import Config
    from icalendar import Calendar
    from sqlmodel import select
    from marketing_site.api import booking as booking_api
    from marketing_site.content.words import words
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services import booking

    command.upgrade(Config("alembic.ini"), "head")
    slots = booking.available_slots()
    contact = {"name": "Martin", "firstname": "Anne", "phone": "+33 1 23 45 67 89", "company": "Banque Exemple",
               "timezone": "Europe/Paris"}
    for lang, slot in zip(("fr", "en"), slots[:2]):
        payload = {**contact, "lang": lang, "email": f"anne.{lang}@example.com", "slot": booking.slot_id(slot)}
        assert booking.book(payload, "10.0.0.1").status == "booked", lang
    with new_session() as session:
        lengths = {str(b.ends_at - b.starts_at) for b in session.exec(select(Booking))}
        mails = {m.mail_to: (m.body, m.calendar_ics) for m in session.exec(select(OutboxMessage))}
    events = {to: Calendar.from_ical(ics).walk("VEVENT")[0] for to, (_, ics) in mails.items()}
    pages = ("DEMO", "PRICING", "COMPARE", "HOME", "ABOUT", "WEBINARS", "FEATURE_PORTAL", "SUBSCRIPTION")
    print(json.dumps({
        "words": {lang: {f.stem: words(lang, f.stem, fallback=lang) for f in sorted(pathlib.Path(
            "marketing_site/content", lang).glob("*.yaml"))} for lang in routes.LANGS},
        "pages": {f"{key}/{lang}": render(getattr(routes, key), lang) for key in pages for lang in routes.LANGS},
        "starts": [booking.slot_id(s) for s in slots[:12]],
        "api": json.loads(asyncio.run(booking_api.slots(None)).body)["duration_minutes"],
        "lengths": sorted(lengths),
        "bodies": {to: body for to, (body, _) in mails.items()},
        "events": {to: [str(e["SUMMARY"]), (e.decoded("DTEND") - e.decoded("DTSTART")).seconds // 60]
                   for to, e in events.items()},
    }, ensure_ascii=False))
    """,
        ENV_FILE=str(repo / ".env"),
    )
    from test_meeting_length import written_lengths

    # The words: no 30-minute meeting left anywhere, 45 where the length was.
    hits = [
        (lang, name, hit)
        for lang, files in found["words"].items()
        for name, tree in files.items()
        for hit in written_lengths(json.dumps(tree, ensure_ascii=False))
    ]
    assert hits == []
    for lang, title, slots_label, summary in (
        ("fr", "Réservez votre démonstration Nereo de 45 minutes", "Créneaux de 45 minutes le {day}", "(45 min)"),
        ("en", "Book your 45-minute Nereo demo", "45-minute slots on {day}", "(45 min)"),
    ):
        demo = found["pages"][f"DEMO/{lang}"]
        assert js(title) in demo and js(slots_label) in demo
        # The agenda: 10 + 25 + 10 minutes.
        agenda = [int(n) for n in re.findall(r'"(\d+) min(?:\\u00a0)?:', demo)]
        assert agenda == [10, 25, 10]
        assert found["words"][lang]["booking"]["mail"]["event_summary"].endswith(summary)
    for key in ("PRICING", "COMPARE", "HOME", "ABOUT", "WEBINARS", "FEATURE_PORTAL", "SUBSCRIPTION"):
        for lang in ("fr", "en"):
            assert "45 minutes" in found["pages"][f"{key}/{lang}"], (key, lang)
    # The scheduler: 45-minute meetings, one starting every hour (45 + the 15-minute buffer).
    assert found["api"] == 45 and found["lengths"] == ["0:45:00"]
    starts = [datetime.fromisoformat(s) for s in found["starts"]]
    same_day = [b - a for a, b in itertools.pairwise(starts) if a.date() == b.date()]
    assert timedelta(hours=1) in same_day and min(same_day) == timedelta(hours=1)
    # The invitation and the visitor's mail, in each language.
    assert found["events"]["anne.fr@example.com"] == ["Démonstration Nereo (45 min)", 45]
    assert found["events"]["anne.en@example.com"] == ["Nereo demo (45 min)", 45]
    assert "Votre démonstration Nereo de 45 minutes avec" in found["bodies"]["anne.fr@example.com"]
    assert "Your 45-minute Nereo demo with" in found["bodies"]["anne.en@example.com"]


# ---------------------------------------------------------------- (j) a partners page

PARTNERS_CONTENT = '''
"""Our partners, as the partners page shows them (words in content/<lang>/partners.yaml)."""

from marketing_site.content.logos import Logo

PARTNERS = (
    Logo("Corvelle Gestion", "/illustrations/home/logo-corvelle.svg", "https://corvelle.example"),
    Logo("Aubert Patrimoine", "/illustrations/home/logo-corvelle.svg"),
)
'''

PARTNERS_PAGE = '''
"""Partners page: who we work with, as a row of logos."""

from __future__ import annotations

import reflex as rx

from marketing_site.components.logo_row import logo_row
from marketing_site.components.sections import hero, section
from marketing_site.content.partners import PARTNERS
from marketing_site.content.words import words


def page(lang: str) -> rx.Component:
    text = words(lang, "partners")
    return rx.fragment(
        hero(text["title"], text["lead"]),
        section(text["row_title"], logo_row(PARTNERS, text["row_label"])),
    )
'''


def test_recipe_j_a_partners_page_with_a_logo_row_and_a_footer_link(repo):
    edit(
        repo,
        "marketing_site/routes.py",
        "REGISTRATION = Page(",
        'PARTNERS = Page("partners", fr="/partenaires", en="/en/partners")\nREGISTRATION = Page(',
    )
    edit(
        repo,
        "marketing_site/routes.py",
        "    FEATURE_COMPLIANCE,\n    REGISTRATION,",
        "    FEATURE_COMPLIANCE,\n    PARTNERS,\n    REGISTRATION,",
    )
    write(repo, "marketing_site/content/partners.py", PARTNERS_CONTENT)
    write(repo, "marketing_site/pages/partners/__init__.py", PARTNERS_PAGE)
    edit(
        repo,
        "marketing_site/content/navigation.py",
        '    Menu("resources", (Link("webinars", page=routes.WEBINARS), Link("blog", url_setting="blog_url"))),\n',
        "    Menu(\n"
        '        "resources",\n'
        '        (Link("webinars", page=routes.WEBINARS), Link("blog", url_setting="blog_url"), '
        'Link("partners", page=routes.PARTNERS)),\n'
        "    ),\n",
    )
    words = {
        "fr": ("Nos partenaires", "Ils nous accompagnent", "Logos de nos partenaires"),
        "en": ("Our partners", "They work with us", "Our partners' logos"),
    }
    for lang, (title, row_title, row_label) in words.items():
        write(
            repo,
            f"marketing_site/content/{lang}/partners.yaml",
            yaml.safe_dump(
                {"title": title, "lead": f"{title}.", "row_title": row_title, "row_label": row_label},
                allow_unicode=True,
                sort_keys=False,
            ),
        )
        add_yaml(repo, f"marketing_site/content/{lang}/navigation.yaml", ["links", "partners"], title)
        add_yaml(
            repo,
            f"marketing_site/content/{lang}/meta.yaml",
            ["partners"],
            {"title": f"{title} | {{{{brand}}}}", "description": f"{title}: {row_title}."},
        )
    found = run_in(
        repo,
        RENDER
        + """
    from marketing_site import seo
    from marketing_site.components.footer import footer
    from marketing_site.marketing_site import app
    page = routes.PARTNERS
    print(json.dumps({
        "paths": dict(page.paths()),
        "routed": [path for _, path in page.paths() if path.strip("/") in {r.strip("/") for r in app._unevaluated_pages}],
        "page": {lang: render(page, lang) for lang in routes.LANGS},
        "footer": {lang: str(footer(lang)) for lang in routes.LANGS},
        "home": {lang: render(routes.HOME, lang) for lang in routes.LANGS},
        "sitemap": seo.sitemap_xml(),
    }, ensure_ascii=False))
    """,
    )
    paths = found["paths"]
    assert paths == {"fr": "/partenaires", "en": "/en/partners"}
    assert found["routed"] == list(paths.values())
    for lang, (title, row_title, row_label) in words.items():
        rendered = found["page"][lang]
        assert js(title) in rendered and js(row_title) in rendered
        # The generic row, with its own classes: the names are the logos' text alternatives, the
        # linked one opens the partner's site.
        assert f'"aria-label":{json.dumps(row_label)},className:"logo-row"' in rendered
        assert 'alt:"Corvelle Gestion"' in rendered and 'alt:"Aubert Patrimoine"' in rendered
        assert 'rel:"noopener",to:"https://corvelle.example"' in rendered
        assert "home-trust" not in rendered
        # The footer of every page links it, in the page's language.
        link = f"to:{json.dumps(paths[lang])}}},{json.dumps(title)}"
        assert link in found["footer"][lang] and link in found["home"][lang]
        assert f"{paths[lang]}</loc>" in found["sitemap"]
