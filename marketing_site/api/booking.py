"""The built-in demo scheduler's HTTP side (used when BOOKING_URL is empty).

GET  /api/v1/booking/slots   the slots a visitor can book now (UTC ids; the browser shows them
                             in the visitor's zone)
POST /api/v1/booking         book one: 201 booked · 409 slot taken · 422 per-field errors · 429
                             too many attempts from this address (an IPv6 /64), or a client's
                             budget spent (its email's, its address's: BOOKING_BUDGET_*), with
                             Retry-After and the reason in `errors.form`, which the widget shows ·
                             503 Retry-After, the database cannot be reached (api/unavailable.py)
GET  /api/v1/booking/cancel  the cancel link of the visitor's mail: a confirmation page (a GET
                             changes nothing, so a mail scanner following the link cancels nothing)
POST /api/v1/booking/cancel  cancels: frees the slot and mails METHOD:CANCEL to both sides
"""

from __future__ import annotations

import html
from zoneinfo import ZoneInfo

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from marketing_site import routes, theme
from marketing_site.api.mail import client_ip, read_json_object
from marketing_site.brand import BRAND_NAME
from marketing_site.content.words import words
from marketing_site.services import booking
from marketing_site.settings import get_settings

SLOTS_PATH = "/api/v1/booking/slots"
BOOK_PATH = "/api/v1/booking"
NO_STORE = {"Cache-Control": "no-store"}
REFUSED = ("invalid", "expired", "retired")  # the link's refusals (services.booking.read_cancel_token)
GONE = ("expired", "retired")
# The cancel page's: a Referer is its origin alone (the link's token stays out of every one), and
# its form's POST carries the true `Origin`, which a browser without `Sec-Fetch-Site` is checked by
# (security.SecurityHeaders). `no-referrer` sent `Origin: null`, and such a browser could not cancel.
REFERRER_POLICY = "strict-origin"


async def slots(_: Request) -> JSONResponse:
    offer = await to_thread.run_sync(booking.available_slots)
    return JSONResponse(
        {
            "duration_minutes": get_settings().booking_meeting_minutes,
            "timezone": get_settings().booking_timezone,
            "slots": [booking.slot_id(start) for start in offer],
        },
        headers=NO_STORE,
    )


async def book(request: Request) -> JSONResponse:
    payload = await read_json_object(request)
    if isinstance(payload, JSONResponse):
        return payload
    result = await to_thread.run_sync(booking.book, payload, client_ip(request), request.headers.get("idempotency-key"))
    if result.status == "rate_limited":
        return JSONResponse({"errors": result.errors}, 429, headers={"Retry-After": str(result.retry_after)})
    if result.status == "taken":
        return JSONResponse({"errors": result.errors}, 409)
    if result.status == "invalid":
        return JSONResponse({"errors": result.errors}, 422)
    return JSONResponse({"status": "booked", "slot": booking.slot_id(result.start)}, 201, headers=NO_STORE)  # type: ignore[arg-type]  # a booked result carries its start


# ----------------------------------------------------------------------------- cancel page


def _page(lang: str, body: str, status: int = 200) -> HTMLResponse:
    """The cancel page in the site's frame: its stylesheet, palette, favicon, logo and legal
    links, in the booking's language. A plain document (no scripts): it is reached from a mail
    and does one form post. Never indexed; REFERRER_POLICY keeps the link's token out of Referer."""
    text = words(lang, "booking.cancel_page")
    layout = words(lang, "layout")
    esc = html.escape
    demo = esc(routes.DEMO.path(lang), quote=True)
    home = esc(routes.HOME.path(lang), quote=True)
    legal = [
        (routes.LEGAL_NOTICE.path(lang), words(lang, "navigation.links.legal_notice")),
        (routes.PRIVACY.path(lang), words(lang, "navigation.links.privacy")),
    ]
    document = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex, nofollow">'
        f'<meta name="referrer" content="{REFERRER_POLICY}">'
        f"<title>{esc(text['title'])} | {esc(BRAND_NAME)}</title>"
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        f"<style>{theme.css_variables()}</style>"
        '<link rel="stylesheet" href="/site.css"></head>'
        '<body><div class="site booking-cancel">'
        '<header class="site-header"><div class="site-header__bar">'
        f'<a class="brand" href="{home}" aria-label="{esc(layout["brand_label"], quote=True)}">'
        '<img class="brand__mark" src="/logo.svg" alt="" width="36" height="36">'
        f'<span class="brand__name">{esc(BRAND_NAME)}</span></a></div></header>'
        '<main id="contenu" class="container section booking-cancel__main">'
        f"<h1>{esc(text['title'])}</h1>{body}"
        f'<p><a href="{demo}">{esc(text["back"])}</a></p></main>'
        '<footer class="container booking-cancel__footer"><p>'
        + " · ".join(f'<a href="{esc(href, quote=True)}">{esc(label)}</a>' for href, label in legal)
        + "</p></footer></div></body></html>"
    )
    return HTMLResponse(document, status, headers={**NO_STORE, "Referrer-Policy": REFERRER_POLICY})


def _lang_of(request: Request, found: booking.CancelResult) -> str:
    if found.booking is not None:
        return found.booking.lang
    lang = request.query_params.get("lang")
    return lang if lang in routes.LANGS else "fr"


def _slot_text(found: booking.CancelResult) -> dict[str, str]:
    b = found.booking
    assert b is not None
    start = booking._as_utc(b.starts_at)
    return {"slot": booking.format_slot(start, ZoneInfo(b.visitor_timezone), b.lang), "zone": b.visitor_timezone}


def _problem(lang: str, status: str) -> HTMLResponse:
    text = words(lang, "booking.cancel_page")
    # Gone for good: an expired link, and a link of the retired form (it named a row id).
    return _page(lang, f'<p role="alert">{html.escape(text[status])}</p>', 410 if status in GONE else 400)


async def cancel_page(request: Request) -> HTMLResponse:
    token = request.query_params.get("token", "")
    found = await to_thread.run_sync(booking.booking_for_token, token)
    lang = _lang_of(request, found)
    text = words(lang, "booking.cancel_page")
    if found.status in REFUSED:
        return _problem(lang, found.status)
    if found.status == "already":
        return _page(lang, f"<p>{html.escape(text['already'])}</p>")
    question = html.escape(text["question"].format(**_slot_text(found)))
    form = (
        f'<form method="post" action="{booking.CANCEL_PATH}?lang={lang}">'
        f'<input type="hidden" name="token" value="{html.escape(token, quote=True)}">'
        f'<button type="submit" class="btn btn--primary">{html.escape(text["button"])}</button></form>'
    )
    return _page(lang, f"<p>{question}</p>{form}")


async def cancel(request: Request) -> HTMLResponse:
    try:
        token = (await request.form(max_files=0, max_fields=5)).get("token", "")
    except Exception:  # noqa: BLE001 — a malformed body is an invalid link
        token = ""
    result = await to_thread.run_sync(booking.cancel, token if isinstance(token, str) else "")
    lang = _lang_of(request, result)
    text = words(lang, "booking.cancel_page")
    if result.status in REFUSED:
        return _problem(lang, result.status)
    if result.status == "already":
        return _page(lang, f"<p>{html.escape(text['already'])}</p>")
    return _page(lang, f'<p role="status">{html.escape(text["done"])}</p>')


ROUTES = [
    Route(SLOTS_PATH, slots, methods=["GET"]),
    Route(BOOK_PATH, book, methods=["POST"]),
    Route(booking.CANCEL_PATH, cancel_page, methods=["GET"]),
    Route(booking.CANCEL_PATH, cancel, methods=["POST"]),
]
