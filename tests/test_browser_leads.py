"""The five lead forms in Chromium against the production build, with a real SMTP server.

Submit → a download whose bytes are a PDF named as its display name → the thank-you URL →
one mail with the right subject, body and Reply-To → one stored lead, on French and English
pages. Then the plausible-value corpus in the browser (accepted, or refused before sending
with the field's message), autofill followed by an immediate click, a real 422 and a real 429,
and the per-form state rules of SPEC §4 for a non-200 answer and a network failure (sent again
with the same Idempotency-Key on a network error or a 502-504 first; never the thank-you text).
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest
from lead_corpus import ACCEPTED, BASE, REFUSED
from lead_payloads import fill_form, form_values, lead_payload
from pypdf import PdfReader

from marketing_site import routes
from marketing_site.components.lead_form import SEND_RETRY
from marketing_site.content.downloads import document_for
from marketing_site.content.lead_forms import DOWNLOAD_FORMS
from marketing_site.content.words import words as site_words
from marketing_site.services.leads import field_specs

pytestmark = pytest.mark.browser

# The words every lead form shares (content/<lang>/lead_forms.yaml).
FR, EN = site_words("fr", "lead_forms"), site_words("en", "lead_forms")

# Form key -> a French page that carries it.
FORM_PAGES = {
    "ebook": routes.EBOOK.fr,
    "white_paper": routes.WHITE_PAPER.fr,
    "portal_documentation": routes.PORTAL_DOCUMENTATION.fr,
    "kyc_documentation": routes.KYC_DOCUMENTATION.fr,
    "subscription_documentation": routes.SUBSCRIPTION.fr,
}
# Form key -> an English page that carries it (the subscription page has no English version).
EN_FORM_PAGES = {
    "ebook": routes.EBOOK.en,
    "white_paper": routes.WHITE_PAPER.en,
    "portal_documentation": routes.FEATURE_PORTAL.en,
    "kyc_documentation": routes.FEATURE_COMPLIANCE.en,
}


def _open_form(new_page, site, path, **kwargs):
    page = new_page(**kwargs)
    page.goto(site + quote(path, safe="/"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    form = page.locator("form.lead-form")
    form.wait_for()
    # The thank-you message shows for 1.2 s before the page moves on to the thank-you page: on a
    # busy machine a read after the download may come too late, so the page records it.
    page.evaluate(
        """() => new MutationObserver(() => {
            const success = document.querySelector('form.lead-form .lead-form__success');
            if (success && window.__leadSuccess === undefined) window.__leadSuccess = success.innerText;
        }).observe(document.body, {childList: true, subtree: true, characterData: true})"""
    )
    return page, form


def _success_text(page) -> str:
    """The thank-you message the form showed (recorded by `_open_form`'s observer)."""
    return page.wait_for_function("() => window.__leadSuccess").json_value()


def _fill(form, email, phone="+33 6 12 34 56 78", lang="fr", **overrides):
    """Every field the form asks (from its specs; the form's id is `lead-<form key>`), with the
    corpus' plausible values where it has one."""
    form_key = form.get_attribute("id").removeprefix("lead-")
    fill_form(form, form_key, lang, {**BASE, "email": email, "phone": phone, **overrides})


# One person downloads all five documents (the per-email limit lets them).
ONE_PERSON = f"all-five-{time.time_ns()}@example.com"


@pytest.mark.parametrize("form_key", list(FORM_PAGES))
def test_successful_request_downloads_thanks_mails_and_stores(new_page, site, site_server, smtp, form_key):
    page, form = _open_form(new_page, site, FORM_PAGES[form_key])
    email = ONE_PERSON
    _fill(form, email)
    with page.expect_request("**/api/v1/mail/send") as request_info, page.expect_download() as download_info:
        form.get_by_role("button").click()
    download = download_info.value
    document = document_for(DOWNLOAD_FORMS[form_key]["document"], "fr")
    assert download.suggested_filename == document["display_name"]
    assert Path(download.path()).read_bytes()[:5] == b"%PDF-"
    assert _success_text(page) == "Merci pour votre téléchargement"
    expected = DOWNLOAD_FORMS[form_key]["thanks"]["fr"]
    page.wait_for_function("(p) => decodeURIComponent(location.pathname) === p", arg=expected)
    subject = DOWNLOAD_FORMS[form_key]["subject"]
    mails = smtp.wait_for(1, subject=subject, reply_to=email)
    assert len(mails) == 1
    body = mails[0].get_payload(decode=True).decode().replace("\r\n", "\n")
    summary = f"Prénom : Camille\nNom : Martin\nTéléphone : +33 6 12 34 56 78\nEmail : {email}\nSociété : Family Office Martin\n"
    assert body.startswith(summary + f"Document : {document['display_name']} (version française)\n")
    # The payload's text (SPEC §3) is the same summary.
    assert request_info.value.post_data_json["text"] == summary
    rows = site_server.query("SELECT firstname, lang FROM lead WHERE email = ? AND form = ?", email, form_key)
    assert rows == [("Camille", "fr")]
    assert page.state_sockets == []  # the form and its thank-you page need no server state


@pytest.mark.parametrize("form_key", list(EN_FORM_PAGES))
def test_english_pages_download_the_english_document(new_page, site, site_server, smtp, form_key):
    page, form = _open_form(new_page, site, EN_FORM_PAGES[form_key])
    email = f"en-{form_key}-{time.time_ns()}@example.com"
    _fill(form, email, lang="en")
    with page.expect_download() as download_info:
        form.get_by_role("button").click()
    document = document_for(DOWNLOAD_FORMS[form_key]["document"], "en")
    assert download_info.value.suggested_filename == document["display_name"]
    data = Path(download_info.value.path()).read_bytes()
    cover = PdfReader(download_info.value.path()).pages[0].extract_text().splitlines()
    assert data.startswith(b"%PDF-") and b"/Lang (en-GB)" in data and "Contents" in cover
    page.wait_for_function("() => location.pathname === '/en/merci'")
    [mail] = smtp.wait_for(1, subject=DOWNLOAD_FORMS[form_key]["subject"], reply_to=email)
    body = mail.get_payload(decode=True).decode().replace("\r\n", "\n")
    assert f"Document : {document['display_name']} (version anglaise)\n" in body
    assert site_server.query("SELECT lang FROM lead WHERE email = ?", email) == [("en",)]


def test_english_white_paper_goes_to_en_merci_with_its_spec_text(new_page, site, smtp):
    page, form = _open_form(new_page, site, routes.WHITE_PAPER.en)
    email = f"en-wp-{time.time_ns()}@example.com"
    _fill(form, email, phone="+44 20 7946 0000", lang="en", name="Smith", firstname="Jane", company="Smith Wealth")
    with page.expect_download():
        form.get_by_role("button").click()
    assert _success_text(page) == "Thank you for your downlad"
    page.wait_for_function("() => location.pathname === '/en/merci'")
    page.get_by_text("Oops").first.wait_for()  # the kept defect: /en/merci is not a page


def _submit_rejected(new_page, site, path):
    """A real 422: the page lost the phone rule (as a page cached before a rule change would),
    so the browser sends what the server refuses."""
    page, form = _open_form(new_page, site, path)
    _fill(form, f"bad-{time.time_ns()}@example.com", phone="not a phone")
    page.evaluate("() => document.querySelector('form.lead-form input[name=phone]').removeAttribute('pattern')")
    with page.expect_response(lambda r: "/api/v1/mail/send" in r.url) as response_info:
        form.get_by_role("button").click()
    assert response_info.value.status == 422
    form.locator(".lead-form__error").wait_for()
    return page, form


def _assert_phone_message_next_to_the_field(form, lang="fr"):
    words = FR if lang == "fr" else EN
    assert form.locator(".lead-form__error").inner_text() == words["invalid"]
    phone = form.locator("input[name=phone]")
    assert phone.get_attribute("aria-invalid") == "true"
    message = form.locator("#" + phone.get_attribute("aria-describedby"))
    assert message.inner_text() == words["field_errors"]["phone"]
    assert form.locator(".field__error").count() == 1


def test_non_200_on_white_paper_keeps_the_button_and_shows_no_thanks(new_page, site):
    """SPEC §4 set mailSent here (the thank-you text instead of the button after a failure): not
    followed on purpose, it lost leads (issue 33, docs/leads.md)."""
    _, form = _submit_rejected(new_page, site, routes.WHITE_PAPER.fr)
    _assert_phone_message_next_to_the_field(form)
    assert form.get_attribute("data-mail-sent") == "false"
    assert form.get_by_role("button").is_enabled()
    assert form.locator(".lead-form__success").count() == 0


def test_non_200_on_ebook_resets_mail_sent_and_keeps_the_button(new_page, site):
    _, form = _submit_rejected(new_page, site, routes.EBOOK.fr)
    _assert_phone_message_next_to_the_field(form)
    assert form.get_attribute("data-mail-sent") == "unset"
    assert form.get_attribute("data-error") == "true"
    assert form.get_by_role("button").is_enabled()


def test_non_200_on_documentation_keeps_the_button(new_page, site):
    _, form = _submit_rejected(new_page, site, routes.KYC_DOCUMENTATION.fr)
    _assert_phone_message_next_to_the_field(form)
    assert form.get_attribute("data-mail-sent") == "false"
    assert form.get_by_role("button").is_visible()


def _record_retrying(page) -> None:
    """The page keeps the retrying message once shown (it goes when the send ends)."""
    page.evaluate(
        """() => new MutationObserver(() => {
            const note = document.querySelector('form.lead-form .lead-form__retrying');
            if (note && window.__leadRetrying === undefined) window.__leadRetrying = note.innerText;
        }).observe(document.body, {childList: true, subtree: true, characterData: true})"""
    )


def _until_failure_shown(page, form) -> None:
    """Moves the page's clock (Playwright's, installed before the page loaded) past each pause of
    the form's retries (SEND_RETRY, 20 s in all) until it shows the failure: seconds, not 20."""
    for _ in range(80):
        if form.locator(".lead-form__error").count():
            return
        page.clock.fast_forward(1000)
        page.wait_for_timeout(100)
    raise AssertionError("the form never showed the failure")


def _open_form_with_clock(new_page, site, path):
    page = new_page()
    page.clock.install()
    page.goto(site + quote(path, safe="/"))
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
    form = page.locator("form.lead-form")
    form.wait_for()
    _record_retrying(page)
    return page, form


def test_a_lasting_server_error_is_retried_then_shown_with_the_button_kept(new_page, site):
    """A proxy answering 503 every time: the form tries again for SEND_RETRY's 20 s with the same
    Idempotency-Key, saying so, then shows the generic failure; the white paper keeps its button
    and shows no thank-you text."""
    page, form = _open_form_with_clock(new_page, site, routes.WHITE_PAPER.en)
    keys = []

    def busy(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.fulfill(status=503, body="busy")

    page.route("**/api/v1/mail/send", busy)
    _fill(form, f"busy-{time.time_ns()}@example.com", lang="en")
    form.get_by_role("button").click()
    _until_failure_shown(page, form)
    assert form.locator(".lead-form__error").inner_text() == EN["error"]
    assert page.evaluate("() => window.__leadRetrying") == EN["retrying"]
    assert form.locator(".lead-form__retrying").count() == 0
    # Every pause but the last fits in the 20 s (the clock moves by whole seconds here, so the
    # last may not): five sends at least, never more than one plus a send after each pause.
    assert 5 <= len(keys) <= len(SEND_RETRY["pausesMs"]) + 1 and len(set(keys)) == 1 and keys[0]
    assert form.locator(".field__error").count() == 0
    assert form.get_attribute("data-mail-sent") == "false"
    assert form.get_by_role("button").is_enabled()
    assert form.locator(".lead-form__success").count() == 0


def test_network_failure_is_retried_then_shows_the_error_and_keeps_the_button(new_page, site, site_server):
    page, form = _open_form_with_clock(new_page, site, routes.WHITE_PAPER.fr)
    page.route("**/api/v1/mail/send", lambda route: route.abort("connectionfailed"))
    email = f"offline-{time.time_ns()}@example.com"
    _fill(form, email)
    form.get_by_role("button").click()
    _until_failure_shown(page, form)
    assert form.locator(".lead-form__error").inner_text() == "Une erreur est survenue. Veuillez réessayer"
    assert page.evaluate("() => window.__leadRetrying") == FR["retrying"]
    assert form.get_attribute("data-mail-sent") == "false"
    assert form.get_by_role("button").is_enabled()
    assert form.locator(".lead-form__success").count() == 0
    assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(0,)]


def test_a_502_twice_then_through_is_one_lead_stored_once(new_page, site, site_server, smtp):
    """Issue 33: a machine restarting behind the proxy answers 502 twice; the form sends again by
    itself with the same Idempotency-Key, telling the visitor, and the third request reaches the
    site: the thank-you, one lead, one mail."""
    page, form = _open_form(new_page, site, routes.WHITE_PAPER.fr)
    _record_retrying(page)
    keys = []

    def restarting(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) <= 2:
            route.fulfill(status=502, body="bad gateway")
        else:
            route.continue_()

    page.route("**/api/v1/mail/send", restarting)
    email = f"restart-{time.time_ns()}@example.com"
    _fill(form, email)
    with page.expect_download():
        form.get_by_role("button").click()
    assert _success_text(page) == "Merci pour votre téléchargement"
    assert page.evaluate("() => window.__leadRetrying") == FR["retrying"]
    assert len(keys) == 3 and len(set(keys)) == 1
    assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(1,)]
    assert len(smtp.wait_for(1, reply_to=email)) == 1


def test_button_shows_progress_and_a_double_click_makes_one_lead(new_page, site, site_server):
    page, form = _open_form(new_page, site, routes.PORTAL_DOCUMENTATION.fr)
    release = []
    page.route("**/api/v1/mail/send", lambda route: release.append(route))  # noqa: PLW0108 - Playwright tags the handler with an attribute: a bound builtin cannot carry one
    email = f"double-{time.time_ns()}@example.com"
    _fill(form, email)
    button = form.get_by_role("button")
    button.click()
    page.wait_for_function("() => document.querySelector('.lead-form__submit').disabled")
    assert button.inner_text() == "Envoi en cours…"
    button.click(force=True)  # ignored while the first request is under way
    page.wait_for_timeout(300)
    assert len(release) == 1
    with page.expect_download():
        release[0].continue_()
    assert site_server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(1,)]


def test_required_fields_are_enforced_by_the_browser(new_page, site, site_server):
    page, form = _open_form(new_page, site, routes.EBOOK.fr)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/api/v1/mail/send" in r.url else None)
    form.get_by_role("button").click()
    page.wait_for_timeout(300)
    assert requests == []
    for spec in field_specs("ebook", "fr"):
        field = form.locator(f"[name={spec['name']}]")
        assert (field.get_attribute("required") is not None) == spec["required"], spec["name"]
    assert form.locator("input[name=phone]").get_attribute("type") == "tel"
    assert form.locator("input[name=email]").get_attribute("type") == "email"
    assert "Politique de confidentialité" in form.inner_text()


# The browser subset of the corpus: a few of each kind, through the real form.
BROWSER_ACCEPTED = [
    ("name", "de La Tour d'Auvergne"),
    ("name", "O’Connor"),
    ("name", "Nguyễn"),
    ("firstname", "Jean-Baptiste"),
    ("firstname", "Zoë"),
    ("company", "Rothschild & Co"),
    ("company", "Edmond de Rothschild (Suisse) S.A."),
    ("phone", "06 12 34 56 78 poste 2"),
    ("phone", "+1 (212) 555-0100"),
    ("phone", "+44 (0)20 7946 0000 ext 4"),
    ("phone", "01.23.45.67.89"),
    ("phone", "(+33) 1 23 45 67 89"),
    ("email", "ada+tag@example.com"),
    ("email", "j.doe@sub.domain.example.fr"),
    ("email", "jose@exämple.fr"),
    ("email", "ivan@пример.рф"),
]


def _read_field(page, name):
    return page.evaluate(
        "(n) => { const i = document.querySelector(`form.lead-form input[name=${n}]`);"
        " return {valid: i.validity.valid, value: i.value}; }",
        name,
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_corpus_value_is_either_sent_and_accepted_or_explained_before_sending(new_page, site, lang):
    """For every plausible value: the browser's verdict (the rules the page carries) is the
    server's, and what the browser refuses is explained next to the field in the page language."""
    page, form = _open_form(new_page, site, routes.EBOOK.fr if lang == "fr" else routes.EBOOK.en)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/api/v1/mail/send" in r.url else None)
    words = FR if lang == "fr" else EN
    _fill(form, "someone@example.com", lang=lang)
    for field, values in ACCEPTED.items():
        for value in values:
            form.get_by_label(words["labels"][field]).fill(value)
            verdict = _read_field(page, field)
            assert verdict["valid"], (field, value)
            # What the form would send (Chromium sends an IDN email's domain in punycode).
            email = verdict["value"] if field == "email" else f"browser-{time.time_ns()}@example.com"
            payload = lead_payload(**{**BASE, "email": email, field: verdict["value"]}, lang=lang)
            assert httpx2.post(site + "/api/v1/mail/send", json=payload).status_code == 200, (field, value)
        form.get_by_label(words["labels"][field]).fill(BASE[field])
    for field, values in REFUSED.items():
        for value in values:
            form.get_by_label(words["labels"][field]).fill(value)
            form.get_by_role("button").click()
            message = form.locator(f"#{form.get_attribute('id')}-{field}-error")
            message.wait_for()
            assert message.inner_text() in words["field_errors"].values(), (field, value)
            assert page.evaluate("() => document.activeElement.name") == field
            # The server says the same about it.
            payload = lead_payload(**{**BASE, "email": f"r-{time.time_ns()}@example.com", field: value}, lang=lang)
            response = httpx2.post(site + "/api/v1/mail/send", json=payload)
            assert response.status_code == 422 and field in response.json()["errors"], (field, value)
        form.get_by_label(words["labels"][field]).fill(BASE[field])
    assert requests == []  # nothing refused was ever sent


@pytest.mark.parametrize(("field", "value"), BROWSER_ACCEPTED)
def test_plausible_values_go_through_the_real_form(new_page, site, site_server, smtp, field, value):
    page, form = _open_form(new_page, site, routes.PORTAL_DOCUMENTATION.fr)
    email = value if field == "email" else f"form-{time.time_ns()}@example.com"
    _fill(form, email, **({} if field == "email" else {field: value}))
    with page.expect_download():
        form.get_by_role("button").click()
    assert _success_text(page) == "Merci pour votre téléchargement"
    if field == "email":  # stored with its domain readable, whatever the browser sent
        query = "SELECT COUNT(*) FROM lead WHERE email = ? AND form = 'portal_documentation'"
        assert site_server.query(query, value) == [(1,)]
    else:
        assert site_server.query(f"SELECT {field} FROM lead WHERE email = ?", email) == [(value,)]


def test_a_dotless_email_is_explained_before_sending(new_page, site):
    page, form = _open_form(new_page, site, routes.WHITE_PAPER.en)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/api/v1/mail/send" in r.url else None)
    _fill(form, "ada@intranet", lang="en")
    form.get_by_role("button").click()
    message = form.locator(".field__error")
    message.wait_for()
    assert message.inner_text() == EN["field_errors"]["email"]
    assert form.locator("input[name=email]").get_attribute("aria-invalid") == "true"
    assert form.get_attribute("data-error") == "false" and form.locator(".lead-form__error").count() == 0
    # Typing again clears the message; a complete address goes through.
    form.get_by_label("Your email*").fill(f"ada-{time.time_ns()}@intranet.example.com")
    assert form.locator(".field__error").count() == 0
    with page.expect_download():
        form.get_by_role("button").click()
    assert requests and len(requests) == 1


def test_autofill_and_an_immediate_click_succeed_and_a_fast_lead_is_flagged(new_page, site, site_server, smtp):
    page, _form = _open_form(new_page, site, routes.EBOOK.en)
    email = f"autofill-{time.time_ns()}@example.com"
    # What the browser's autofill does: every field set at once, then an input event each.
    with page.expect_request(lambda r: "/api/v1/mail/send" in r.url) as request_info:
        page.evaluate(
            """(values) => {
                for (const [name, value] of Object.entries(values)) {
                    const field = document.querySelector(`form.lead-form [name=${name}]`);
                    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value").set;
                    setter.call(field, value);
                    field.dispatchEvent(new Event("input", { bubbles: true }));
                }
                document.querySelector("form.lead-form button[type=submit]").click();
            }""",
            form_values("ebook", **{**BASE, "email": email, "phone": "+44 20 7946 0000"}),
        )
    page.wait_for_function("() => location.pathname === '/en/merci'")
    # Flagged when sent within LEAD_MIN_FILL_SECONDS of the form appearing (2 s; a loaded
    # machine can take longer between the page's mount and the script's click).
    fast = request_info.value.post_data_json["elapsedMs"] < 2000
    assert site_server.query("SELECT flags FROM lead WHERE email = ?", email) == [("fast" if fast else "",)]
    [mail] = smtp.wait_for(1, subject=DOWNLOAD_FORMS["ebook"]["subject"], reply_to=email)
    assert ("À vérifier : formulaire envoyé très vite" in mail.get_payload(decode=True).decode()) == fast


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_throttled_visitor_is_told_when_to_retry(new_page, site, site_server, lang):
    email = f"throttled-{lang}-{time.time_ns()}@example.com"
    # The same person has already asked for ten documents in ten minutes (RATE_LIMIT_PER_EMAIL).
    for i in range(10):
        assert (
            httpx2.post(site + "/api/v1/mail/send", json=lead_payload(email=email, company=f"C{i}")).status_code == 200
        )
    page, form = _open_form(
        new_page, site, routes.KYC_DOCUMENTATION.fr if lang == "fr" else routes.FEATURE_COMPLIANCE.en
    )
    _fill(form, email, lang=lang)
    with page.expect_response(lambda r: "/api/v1/mail/send" in r.url) as response_info:
        form.get_by_role("button").click()
    response = response_info.value
    assert response.status == 429
    minutes = -(-int(response.headers["retry-after"]) // 60)
    words = FR if lang == "fr" else EN
    expected = words["throttled_minutes"].replace("{n}", str(minutes))
    page.wait_for_function("(t) => document.querySelector('.lead-form__error')?.textContent === t", arg=expected)
    assert words["error"] not in form.inner_text()
    assert form.get_attribute("data-mail-sent") == "false" and form.get_by_role("button").is_visible()
