"""Five journeys with Guidepup's virtual screen reader in Chromium, on the production build, in
French and in English (issue 41, point 3): (1) home → an offer → the e-book form → the thank-you
page; (2) booking a demo with the keyboard; (3) login → free-trial registration; (4) the consent
banner and its panel; (5) the console's leads page.

Each journey's transcript (tests/screen_reader.py) is checked: every control is said with a
role and a name, checkable controls and disclosures with their state, each page read from top
to bottom has its headings in order, and the errors and successes of the journey are said
(through the focus or a live region). It is then compared with its readable log in
docs/accessibility/screen-reader/<lang>/ (dates, times and slot counts masked);
`make screen-reader-logs` writes the logs again (SCREEN_READER_LOGS=write) after a change of
words or structure.

Forms are driven generically: every field the form has, in the order Tab reaches it, filled from
its kind and name, so a field added to a form changes the log, not the journey.
"""

from __future__ import annotations

import difflib
import json
import os
import time

import httpx2
import pytest
from browser_checks import AUTHORIZE
from conftest import CONSOLE_ADMIN_USER, TRIAL_USER
from lead_payloads import lead_payload
from screen_reader import ACTIONS, KEYS, Reader, Step, Transcript, log_path, problems, render, said

from marketing_site import routes
from marketing_site.content.words import words as site_words
from marketing_site.i18n import lookup
from marketing_site.services.site_storage import CONSENT

pytestmark = pytest.mark.browser

WRITE = os.environ.get("SCREEN_READER_LOGS") == "write"
LOCALES = {"fr": "fr-FR", "en": "en-GB"}
# Fields by name, then by kind (a field added to a form gets its kind's value).
VALUES = {"name": "Martin", "firstname": "Camille", "company": "Family Office Martin", "phone": "+33 6 12 34 56 78"}
BY_KIND = {"tel": "+33 6 12 34 56 78", "email": "", "text": "Texte", "textarea": "Texte", "search": "Texte"}
# A field the browser refuses before anything is sent: the journeys check it is said.
DOTLESS_EMAIL = "ada@intranet"
# The answer already given to the consent banner (journey 4 is the banner itself).
ANSWERED = "v=1&analytics=0&marketing=0&ts=1700000000"

TITLES = {
    "1-ebook": {
        "fr": "Parcours 1 : l'accueil, une offre, le formulaire de l'e-book, la page de remerciement",
        "en": "Journey 1: home, an offer, the e-book form, the thank-you page",
    },
    "2-booking": {
        "fr": "Parcours 2 : réserver une démonstration au clavier",
        "en": "Journey 2: booking a demo with the keyboard",
    },
    "3-trial": {
        "fr": "Parcours 3 : la connexion, puis l'inscription à l'essai gratuit",
        "en": "Journey 3: login, then the free-trial registration",
    },
    "4-consent": {
        "fr": "Parcours 4 : le bandeau de consentement et son panneau",
        "en": "Journey 4: the consent banner and its panel",
    },
    "5-console": {"fr": "Parcours 5 : la page des leads de la console", "en": "Journey 5: the console's leads page"},
}


def _reader(new_page, site, journey: str, lang: str, answered: bool = True) -> Reader:
    page = new_page(locale=LOCALES[lang], timezone_id="Europe/Paris")
    if answered:
        page.context.add_cookies([{"name": CONSENT.name, "value": ANSWERED, "url": site}])
    return Reader(page, Transcript(journey, lang, TITLES[journey][lang]), site)


def _finish(reader: Reader) -> None:
    """The checks, then the log: written (SCREEN_READER_LOGS=write) or compared."""
    transcript = reader.transcript
    text = render(transcript)
    path = log_path(transcript.journey, transcript.lang)
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert problems(transcript) == []
    if not WRITE:
        committed = path.read_text() if path.exists() else ""
        diff = "\n".join(
            difflib.unified_diff(committed.splitlines(), text.splitlines(), "committed", "spoken", lineterm="")
        )
        assert committed == text, (
            f"{path} differs from what was said (`make screen-reader-logs` writes it):\n{diff[:4000]}"
        )


def _said(step, text: str) -> None:
    assert said(step.phrases, text), (text, step.phrases)


def _field(reader: Reader) -> dict | None:
    """The focused form field: name, kind, whether it has a value; None on anything else."""
    return reader.page.evaluate(
        """() => { const e = document.activeElement;
          if (!e || !['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName) || e.type === 'submit') return null;
          return {name: e.name, kind: e.tagName === 'INPUT' ? e.type : e.tagName.toLowerCase(), value: e.value}; }"""
    )


def _wait_focus_in_main(reader: Reader, what: str) -> None:
    """A client-side page change: the site moves focus into the new page (its heading, or the
    #anchor the link named), and the reader says where it landed."""
    reader.page.wait_for_function("() => document.activeElement?.closest('main') !== null")
    reader._step("wait", what)


def _fill_form(reader: Reader, email: str) -> None:
    """From the focused field to the submit button: each empty field is typed in (a select gets
    its first real option), a prefilled one is left as it is."""
    while (found := _field(reader)) is not None:
        if not found["value"]:
            if found["kind"] == "select":
                reader.page.keyboard.press("ArrowDown")
                reader._step("press", "↓")
            else:
                reader.type(
                    email
                    if found["kind"] == "email"
                    else VALUES.get(found["name"], BY_KIND.get(found["kind"], "Texte"))
                )
        reader.tab()


# ----------------------------------------------------------------------------- 1. the e-book

# Focus is in the page's content (a client-side page change moved it there).
IN_MAIN = "() => document.activeElement?.closest('main') !== null"


def _new_page(reader: Reader) -> str:
    """A function of the page: true once another page is shown and the site has moved the focus
    into it (to its heading, the #anchor's heading, or its content: `focusNewPage`); the link
    that was followed keeps the focus until the old page goes."""
    here = json.dumps(reader.page.evaluate("() => location.pathname"))
    return f"() => location.pathname !== {here} && document.activeElement?.matches('h1, h2, h3, h4, main')"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_home_an_offer_the_ebook_form_and_the_thank_you_page(new_page, site, lang):
    reader = _reader(new_page, site, "1-ebook", lang)
    forms = site_words(lang, "lead_forms")
    reader.open(routes.HOME.path(lang))
    reader.read(routes.HOME.path(lang))
    # An offer: the first card (French: its plan on the pricing page; English: its feature page).
    reader.tab_to("#solutions a")
    # Where the link led: the reader says the heading the site moved the focus to.
    offer = reader.press("Enter", until="heading, ", then=_new_page(reader))
    assert [p for p in offer.phrases if p.startswith("heading, ")], offer.phrases
    reader.read(reader.page.evaluate("() => decodeURIComponent(location.pathname)"))
    # No link of the site leads to the e-book's page (a campaign's landing page): its address.
    reader.open(routes.EBOOK.path(lang))
    reader.read(routes.EBOOK.path(lang))
    reader.tab_to("form.lead-form :is(input, select, textarea):not([tabindex='-1'])")
    _fill_form(reader, DOTLESS_EMAIL)
    # The browser's check refuses the address: focus on the field, said with its message.
    refused = reader.press("Enter")
    _said(refused, forms["field_errors"]["email"])
    _said(refused, "invalid")
    reader.replace(f"lecteur.ecran.{lang}@example.com")
    reader.tab()
    success = forms["success"]["ebook"]
    with reader.page.expect_download():
        # The thank-you message, then the thank-you page (its heading has the focus).
        sent = reader.press("Enter", until=[success, "heading, "], then=_new_page(reader))
    _said(sent, "polite: " + success)
    reader.read(reader.page.evaluate("() => decodeURIComponent(location.pathname)"))
    _finish(reader)


# ----------------------------------------------------------------------------- 2. a demo

SCHEDULER = ".booking-scheduler"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_booking_a_demo_with_the_keyboard(new_page, site, lang):
    reader = _reader(new_page, site, "2-booking", lang)
    booking = site_words(lang, "booking")["widget"]
    forms = site_words(lang, "lead_forms")
    reader.open(
        routes.DEMO.path(lang), ready=f"() => document.querySelector('{SCHEDULER}')?.dataset.phase === 'choose'"
    )
    reader.read(routes.DEMO.path(lang))
    # The days, then the slots: radio groups; an arrow moves to the next one, selects it and says it.
    reader.tab_to(f"{SCHEDULER}__day")
    day = reader.press("ArrowRight", until="polite: ")
    _said(day, "checked, position 2")
    reader.tab()
    chosen = reader.press("ArrowRight", until="polite: " + booking["selected"].split("{")[0])
    _said(chosen, "checked, position 2")
    # Enter chooses the slot: the form, its first field focused.
    reader.press("Enter", then="() => document.activeElement?.id === 'booking-' + document.activeElement?.name")
    _fill_form(reader, DOTLESS_EMAIL)
    refused = reader.press("Enter")
    _said(refused, forms["field_errors"]["email"])
    reader.replace(f"lecteur.ecran.demo.{lang}@example.com")
    reader.tab_to(f"{SCHEDULER}__form button[type=submit]")
    booked = reader.press("Enter", until=booking["booked_title"])
    _said(booked, f"heading, {booking['booked_title']}")
    reader.read(booking["label"], SCHEDULER)
    _finish(reader)


# ----------------------------------------------------------------------------- 3. login, then the trial


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_login_then_the_free_trial_registration(new_page, site, auth_services, lang):
    reader = _reader(new_page, site, "3-trial", lang)
    manager = auth_services["manager"]
    # A page of one path in every language: its words become the browser's language once it has
    # hydrated, a moment after (read before, on a loaded machine, they were still French).
    title = json.dumps(lookup(lang, "login.title"))
    reader.open(routes.LOGIN.path(lang), ready=f"() => document.querySelector('main h1')?.textContent === {title}")
    reader.read(routes.LOGIN.path(lang))
    reader.tab_to(f"a[href='{routes.FREE_TRIAL.path(lang)}']")
    # The page leaves for the identity provider (what the trial page says on its way out, before
    # the redirect, depends on the machine's speed: not recorded).
    reader.page.keyboard.press("Enter")
    reader.page.wait_for_url(AUTHORIZE)
    reader.transcript.steps.append(Step(ACTIONS[lang]["press"].format(target=KEYS[lang]["Enter"])))
    reader.page.locator(f"button[name=sub][value='{TRIAL_USER['sub']}']").click()
    reader.page.wait_for_url(site + routes.FREE_TRIAL.path(lang))
    reader.page.wait_for_function("() => document.querySelector('#trial-lastName')?.value !== ''")
    reader.ensure_started()
    reader._step("login")
    reader.read(routes.FREE_TRIAL.path(lang))
    reader.tab_to("#trial-lastName")
    _fill_form(reader, TRIAL_USER["email"])
    submitting = lookup(lang, "free_trial.submitting")
    manager.delay = 1.0  # the environment takes a second to create: long enough to be said
    try:
        registering = reader.press("Enter", until=submitting)
        _said(registering, "polite: " + submitting)
        reader.page.wait_for_url(manager.url + "/advisor/onboard")
    finally:
        manager.delay = 0
    _finish(reader)


# ----------------------------------------------------------------------------- 4. the consent banner


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_consent_banner_and_its_panel(new_page, site, lang):
    reader = _reader(new_page, site, "4-consent", lang, answered=False)
    consent = site_words(lang, "consent")
    reader.open(routes.HOME.path(lang))
    reader.read(consent["label"], ".consent-banner")
    reader.tab_to(".consent-banner__customise")
    _said(reader.press("Enter", state=True), "expanded")
    first = reader.tab_to(".consent-panel input[type=checkbox]:not([disabled])")
    _said(first, "not checked")
    _said(reader.press("Space", state=True), ", checked")
    reader.tab_to(".consent-panel .consent-button")
    saved = reader.press("Enter", until=consent["saved"], then=IN_MAIN)
    _said(saved, "polite: " + consent["saved"])
    # The footer's button opens the panel again, with the choice made.
    reader.tab_to(".site-footer button")
    reader.press("Enter", then="() => document.activeElement?.classList.contains('consent-banner__title')")
    panel = reader.read(consent["panel_title"], ".consent-panel")
    _said(panel, ", checked")
    _finish(reader)


# ----------------------------------------------------------------------------- 5. the console's leads

TOTAL = "() => /^[1-9]/.test(document.querySelector('[data-testid=console-total]')?.textContent ?? '')"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_console_leads_page(new_page, site, site_server, lang):
    console_words = site_words(lang, "console")
    email = f"lecteur.ecran.console.{lang}@example.com"
    sent = httpx2.post(site + "/api/v1/mail/send", json=lead_payload(email=email, lang=lang, company="Banque Lecture"))
    assert sent.status_code == 200
    # Its mail sent: the row says so whenever the journey runs.
    query = "SELECT o.status FROM outbox_message o JOIN lead ON lead.id = o.lead_id WHERE lead.email = ?"
    for _ in range(400):
        if site_server.query(query, email) == [("sent",)]:
            break
        time.sleep(0.05)
    reader = _reader(new_page, site, "5-console", lang)
    console = routes.CONSOLE.path(lang)
    reader.page.goto(site + console)
    reader.page.wait_for_url(AUTHORIZE)
    reader.page.locator(f"button[name=sub][value='{CONSOLE_ADMIN_USER['sub']}']").click()
    reader.page.wait_for_url(site + console)
    # The leads are in (how many depends on the other tests: never said here).
    reader.page.wait_for_function(TOTAL)
    reader.ensure_started()
    reader._step("login")
    reader.headings(console)
    reader.tab_to("#console-search")
    reader.type(email)
    outcomes = console_words["outcomes"]
    found = reader.press("Enter", until="polite: " + console_words["ok"])
    _said(found, outcomes["filtered"].replace("{count}", "1"))
    reader.read("#leads", "#leads")
    reader.page.keyboard.press("ControlOrMeta+a")
    reader.type("x" * 201, shown="x × 201")
    # That the filter was refused (the outcome), and why (the message under the form).
    refused = reader.press("Enter", until=[outcomes["filter_refused"], "assertive: "])
    _said(refused, "assertive: " + console_words["errors"]["search"])
    _finish(reader)
