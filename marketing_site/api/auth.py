"""Login routes under /auth/ (Starlette): the Reflex backend is the OpenID relying party.

    GET  /auth/login     start a login: ?return_to=<same-site path>&login_hint=<email>&mode=trial
    GET  /auth/silent    renew the login: `prompt=none` with OIDC_SILENT_LOGIN (marker cookie
                         removed first: no loop), else an ordinary login
    GET  /auth/callback  the provider's redirect: state, iss (RFC 9207), code exchange, cookies
    POST /auth/logout    end the session: default (RP-Initiated Logout when the provider offers it),
                         `federated=1` (Auth0 only) or `local_only=1` (not both)
    GET  /auth/session   {"isAuthenticated", "user"} of this browser (no token; no provider call)
    POST /auth/backchannel-logout  the provider's Back-Channel Logout (a signed logout token)

Errors reach the page through a one-shot cookie holding an error code (`state.auth`
turns it into the spec's message); tokens stay in the database. Starting a login stores a
transaction for a day: LOGIN_RATE_LIMIT_PER_IP per client address. The two POST routes read
small forms only (FORM_MAX_BYTES, a few fields, no file).
"""

from __future__ import annotations

import asyncio
import html
import logging
import math
from functools import lru_cache
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from marketing_site import metrics, routes
from marketing_site.api.mail import client_ip
from marketing_site.content.words import words
from marketing_site.services import logout_hint, oidc, provider_reachability, sessions
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, make_rate_limiter
from marketing_site.services.return_paths import safe_return_path
from marketing_site.settings import get_settings

logger = logging.getLogger(__name__)

# Auth0 SPA SDK's wording of the two errors the spec names without text (SPEC §8).
NO_QUERY_ERROR = "no_query"
INVALID_STATE_ERROR = "invalid_state"
BOTH_LOGOUT_FLAGS = "It is invalid to set both the `federated` and `localOnly` options to `true`"
LOGIN_HINT_MAX = 320
# The logout form carries two flags, the back-channel logout one signed token (about 1 KB).
FORM_MAX_BYTES = 16 * 1024
FORM_MAX_FIELDS = 8
# Retry-After of the "login is unavailable" page (its words say "in a minute").
UNAVAILABLE_RETRY_SECONDS = 60


@lru_cache(maxsize=1)
def _login_limiter() -> RateLimiter | RedisRateLimiter:
    settings = get_settings()
    return make_rate_limiter(settings.login_rate_limit_per_ip, settings.rate_limit_window_seconds)


async def _login_wait(request: Request) -> float | None:
    """None if this browser may start a login now, else the seconds to wait (per address)."""
    return await asyncio.to_thread(_login_limiter().hit, f"login-ip:{client_ip(request)}")


def _browser_lang(request: Request) -> str:
    """The browser's first language, as far as the site speaks it (fr* or none: French)."""
    accept = request.headers.get("accept-language", "").strip().lower()
    return "fr" if accept.startswith("fr") or not accept else "en"


def _short_page(lang: str, status: int, text: str, wait: float, back_to: str = "/") -> Response:
    """A one-message page of the site's own (no provider, no frontend), with Retry-After."""
    back = words(lang, "messages.auth.back_to_site", fallback="en")
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{status}</title></head>'
        f'<body><p role="alert">{html.escape(text)}</p>'
        f'<p><a href="{html.escape(back_to, quote=True)}">{html.escape(back)}</a></p></body></html>'
    )
    headers = {"Retry-After": str(math.ceil(wait)), "Cache-Control": "no-store"}
    return HTMLResponse(body, status_code=status, headers=headers)


def _too_many_logins(request: Request, wait: float) -> Response:
    """429 with a short page in the browser's language (its first one: fr* is French)."""
    lang = _browser_lang(request)
    text = words(lang, "messages.auth.rate_limited", fallback="en").format(n=max(1, math.ceil(wait / 60)))
    return _short_page(lang, 429, text, wait)


async def _provider_down(request: Request, destination: str, route: str, back_to: str = "/") -> Response | None:
    """None when the provider serving `destination` answers; else the site's own 503 page
    ("login is unavailable, please try again in a minute"), counted by route. The page's
    language is the return path's (/en/…), else the browser's."""
    if await provider_reachability.reachability().answers(destination):
        return None
    metrics.OIDC_PROVIDER_UNREACHABLE.labels(route=route).inc()
    lang = "en" if back_to == "/en" or back_to.startswith("/en/") else _browser_lang(request)
    key = "messages.auth.logged_out_provider_unavailable" if route == "logout" else "messages.auth.provider_unavailable"
    return _short_page(lang, 503, words(lang, key, fallback="en"), UNAVAILABLE_RETRY_SECONDS, back_to)


async def _small_form(request: Request) -> FormData | Response:
    """The POSTed form (url-encoded or multipart), or the response refusing it: 413 past
    FORM_MAX_BYTES (read no further), 400 for a malformed one, a file or too many fields."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > FORM_MAX_BYTES:
        return PlainTextResponse("Request body too large.", status_code=413)
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_MAX_BYTES:
                return PlainTextResponse("Request body too large.", status_code=413)
    except ClientDisconnect:
        return PlainTextResponse("The request was interrupted.", status_code=400)
    sent = False

    async def replay() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": bytes(body), "more_body": False}

    try:
        return await Request(request.scope, replay).form(
            max_files=0, max_fields=FORM_MAX_FIELDS, max_part_size=FORM_MAX_BYTES
        )
    except Exception:  # noqa: BLE001 - Starlette's parsers raise several kinds for a malformed body
        return PlainTextResponse("Malformed form.", status_code=400)


def _secure() -> bool:
    return get_settings().site_url.startswith("https://")


def _set_cookie(response: Response, name: str, value: str, *, max_age: int | None, http_only: bool) -> None:
    response.set_cookie(name, value, max_age=max_age, path="/", secure=_secure(), httponly=http_only, samesite="lax")


def _clear_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path="/", secure=_secure(), samesite="lax")


def _redirect(location: str, status: int = 303) -> RedirectResponse:
    response = RedirectResponse(location, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _leave(location: str) -> Response:
    """The callback's way out: an HTML refresh, not a 3xx.

    A redirect keeps the fragment of the URL it came from, and the provider's redirect
    to the callback carries the authorize URL's `#mode=trial`; a refresh lands on exactly
    the saved path and query. No referrer: the code and state stay out of Referer.
    """
    target = html.escape(location, quote=True)
    body = (
        '<!doctype html><html lang="fr"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0;url={target}"><title>Connexion</title></head>'
        f'<body><p><a href="{target}">Continuer</a></p></body></html>'
    )
    return HTMLResponse(body, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def _login_page(return_to: str | None = None) -> str:
    from urllib.parse import quote

    path = routes.LOGIN.path("fr")
    target = quote(path, safe="/")
    if return_to and return_to != "/":
        target += "?return_to=" + quote(return_to, safe="")
    return target


def _error(location: str, code: str) -> Response:
    response = _leave(location)
    _set_cookie(response, sessions.ERROR_COOKIE, code, max_age=sessions.ERROR_LIFETIME_SECONDS, http_only=False)
    return response


def _binding(request: Request, response_cookies: dict[str, str]) -> str:
    binding = request.cookies.get(sessions.BINDING_COOKIE) or sessions.new_binding()
    response_cookies[sessions.BINDING_COOKIE] = binding
    return binding


async def login(request: Request) -> Response:
    """Start the redirect login (Authorization Code + PKCE)."""
    wait = await _login_wait(request)
    if wait is not None:
        logger.warning("login start refused: rate limit")
        return _too_many_logins(request, wait)
    party = oidc.relying_party()
    query = request.query_params
    return_to = safe_return_path(query.get("return_to"))
    login_hint = (query.get("login_hint") or "").strip()[:LOGIN_HINT_MAX] or None
    fragment = "mode=trial" if query.get("mode") == "trial" else None
    cookies: dict[str, str] = {}
    transaction = await asyncio.to_thread(
        sessions.new_transaction,
        redirect_uri=party.redirect_uri,
        return_to=return_to,
        binding=_binding(request, cookies),
    )
    try:
        url = await party.authorization_url(transaction, login_hint=login_hint, fragment=fragment)
    except oidc.AuthError as error:
        logger.error("login could not start: %s", error, extra=party.log_values())
        return _error(_login_page(return_to), oidc.LoginFailed.code)
    down = await _provider_down(request, url, "login", return_to)
    if down is not None:
        return down
    response = _redirect(url, 302)
    for name, value in cookies.items():
        _set_cookie(response, name, value, max_age=sessions.TRANSACTION_LIFETIME_SECONDS, http_only=True)
    return response


async def silent(request: Request) -> Response:
    """Renew the login without the visitor's asking: the `prompt=none` session check.

    Only with OIDC_SILENT_LOGIN: a provider may answer prompt=none with a page of its own
    (django-oauth-toolkit 3.4.1: HTTP 500), where the visitor would be left. The marker cookie
    is removed before leaving, so whatever the provider does, the next page load does not start
    another check: at most one round trip, never a loop. Without OIDC_SILENT_LOGIN this is an
    ordinary login back to the same page (the trial's Valider renews an expired access token
    here: the visitor asked), and the marker stays (the session may still be live).
    """
    return_to = safe_return_path(request.query_params.get("return_to"))
    if not get_settings().oidc_silent_login:
        from marketing_site.state.auth import login_url

        return _redirect(login_url(return_to))
    wait = await _login_wait(request)
    if wait is not None:
        logger.warning("silent check refused: rate limit")
        response = _redirect(return_to)
        _clear_cookie(response, sessions.MARKER_COOKIE)
        return response
    party = oidc.relying_party()
    cookies: dict[str, str] = {}
    transaction = await asyncio.to_thread(
        sessions.new_transaction,
        redirect_uri=party.redirect_uri,
        return_to=return_to,
        binding=_binding(request, cookies),
        silent=True,
    )
    try:
        url = await party.authorization_url(transaction, prompt="none")
    except oidc.AuthError as error:
        logger.warning("silent check could not start: %s", error, extra=party.log_values())
        response = _redirect(return_to)
    else:
        if not await provider_reachability.reachability().answers(url):
            # Nobody asked for this round trip: back to the page, anonymous, without a word.
            metrics.OIDC_PROVIDER_UNREACHABLE.labels(route="silent").inc()
            response = _redirect(return_to)
            _clear_cookie(response, sessions.MARKER_COOKIE)
            return response
        response = _redirect(url, 302)
        for name, value in cookies.items():
            _set_cookie(response, name, value, max_age=sessions.TRANSACTION_LIFETIME_SECONDS, http_only=True)
    _clear_cookie(response, sessions.MARKER_COOKIE)
    return response


def _provider_refused(party: oidc.RelyingParty, error: str, description: str) -> None:
    """Log an error the provider's authorize endpoint sent back: at ERROR, for the operator,
    when it says the site's request or registration is wrong; at WARNING otherwise."""
    if not party.authorization_error_is_configuration(error):
        logger.warning("login failed at the provider: %s %s", error, description)
        return
    advice = "check the client's registration at the provider (redirect URI, grant types, PKCE)"
    if error == "invalid_scope":
        advice = (
            f"the site asked for scope {party.scope!r} (less what discovery says the provider does not offer): "
            "add the missing scope to the client at the provider, or set OIDC_USE_REFRESH_TOKENS to false if it "
            "is offline_access"
        )
    logger.error(
        "OIDC configuration error: the provider at %s refused the authorization request with %s (%s): %s",
        party.issuer,
        error,
        description,
        advice,
        extra=party.log_values(),
    )


async def callback(request: Request) -> Response:
    """The provider's redirect back (SPEC §4, §8)."""
    query = request.query_params
    party = oidc.relying_party()
    if not query:
        return _error(_login_page(), NO_QUERY_ERROR)
    if query.get("error") and "state" not in query:
        # A provider error that does not echo the state (RFC 6749 says it should): the
        # provider's word comes first, as in the original SDK.
        logger.warning("login failed at the provider (no state): %s", query.get("error"))
        metrics.OIDC_LOGINS.labels(outcome="provider_error").inc()
        return _error(_login_page(), oidc.LoginFailed.code)
    transaction = await asyncio.to_thread(
        sessions.take_transaction, query.get("state", ""), request.cookies.get(sessions.BINDING_COOKIE)
    )
    if transaction is None:
        # Unknown or reused state (a refreshed callback page, another browser): restart the login.
        metrics.OIDC_LOGINS.labels(outcome="invalid_state").inc()
        return _error(_login_page(), INVALID_STATE_ERROR)
    failed_target = transaction.return_to if transaction.silent else _login_page(transaction.return_to)
    # A repeated `iss` is no issuer (Starlette's get() would take the last one, whatever the first said).
    repeated = len(query.getlist("iss")) > 1
    mixed_up = "the response names its issuer (iss) more than once" if repeated else None
    mixed_up = mixed_up or await party.response_issuer_problem(query.get("iss"), error_response="error" in query)
    if mixed_up:
        logger.warning("login refused: %s", mixed_up, extra={**party.log_values(), **_shown(party, query.get("iss"))})
        metrics.OIDC_LOGINS.labels(outcome="issuer_mismatch").inc()
        response = _error(failed_target, oidc.LoginFailed.code)
        _clear_cookie(response, sessions.MARKER_COOKIE)
        return response
    provider_error = query.get("error")
    if provider_error:
        if transaction.silent and provider_error in oidc.RECOVERABLE_ERRORS:
            metrics.OIDC_LOGINS.labels(outcome="silent_declined").inc()
            response = _leave(transaction.return_to)  # swallowed: the visitor stays anonymous
            _clear_cookie(response, sessions.MARKER_COOKIE)
            return response
        _provider_refused(party, provider_error, query.get("error_description", ""))
        metrics.OIDC_LOGINS.labels(outcome="provider_error").inc()
        response = _error(failed_target, oidc.LoginFailed.code)
        _clear_cookie(response, sessions.MARKER_COOKIE)
        return response
    code = query.get("code")
    if not code:
        metrics.OIDC_LOGINS.labels(outcome="provider_error").inc()
        return _error(_login_page(transaction.return_to), oidc.LoginFailed.code)
    try:
        tokens = await party.exchange_code(code, transaction)
    except oidc.ClientRejected:  # logged at ERROR as a configuration problem, not as the visitor's failure
        metrics.OIDC_LOGINS.labels(outcome="client_rejected").inc()
        return _error(_login_page(transaction.return_to), oidc.LoginFailed.code)
    except oidc.AuthError as error:
        logger.warning("login failed: %s", error, extra=party.log_values())
        metrics.OIDC_LOGINS.labels(outcome=error.code).inc()
        return _error(_login_page(transaction.return_to), error.code)
    await asyncio.to_thread(sessions.delete_session, request.cookies.get(sessions.SESSION_COOKIE))  # no fixation
    session_id = await asyncio.to_thread(sessions.create_session, tokens.claims, tokens.as_tokens())
    metrics.OIDC_LOGINS.labels(outcome="success").inc()
    response = _leave(transaction.return_to)
    lifetime = sessions.SESSION_LIFETIME_SECONDS
    _set_cookie(response, sessions.SESSION_COOKIE, session_id, max_age=lifetime, http_only=True)
    # Only an interactive login arms the marker for a silent check. /auth/silent removed it; a
    # silent login sets it back as "silent" (the page still knows to open its state connection),
    # which starts no further check: at most one silent round trip per interactive login.
    marker = sessions.MARKER_SILENT if transaction.silent else sessions.MARKER_INTERACTIVE
    _set_cookie(response, sessions.MARKER_COOKIE, marker, max_age=sessions.MARKER_LIFETIME_SECONDS, http_only=False)
    return response


def _shown(party: oidc.RelyingParty, iss: str | None) -> dict[str, tuple[str, ...]]:
    """The log `extra` showing in full the issuer a response named, beside the configured one."""
    from marketing_site import logs

    return logs.configuration(party.issuer, iss)


def _flag(value: object) -> bool:
    return isinstance(value, str) and value.lower() in ("1", "true", "on", "yes")


async def logout(request: Request) -> Response:
    """End the session: local-only, or also at the provider (`federated` is Auth0's, OIDC_COMPAT=auth0).

    The ID token goes as `id_token_hint` unless the provider was seen to no longer know the
    session's grant (`services/logout_hint.py`: an expired access token is refreshed first).
    The site's session ends in any case; when the provider does not answer, the visitor gets
    the site's own page saying so instead of the browser's connection-refused page.
    """
    form = await _small_form(request)
    if isinstance(form, Response):
        return form
    federated = _flag(form.get("federated") or request.query_params.get("federated"))
    local_only = _flag(form.get("local_only") or request.query_params.get("local_only"))
    if federated and local_only:
        return PlainTextResponse(BOTH_LOGOUT_FLAGS, status_code=400)
    party = oidc.relying_party()
    session_id = request.cookies.get(sessions.SESSION_COOKIE)
    live = await asyncio.to_thread(sessions.live_session, session_id)
    location = down = None
    if not local_only:
        try:
            # Where the browser goes, asked first: a provider that does not answer gets no
            # refresh either (three attempts of up to 10 s each).
            bare = await party.logout_url(id_token_hint=None, federated=federated)
            down = await _provider_down(request, bare, "logout") if bare else None
            if bare and down is None:
                id_token_hint = await logout_hint.id_token_hint(party, session_id) if live else None
                hint = sessions.user_of(live[0]).get("login_hint") if live else None
                location = await party.logout_url(
                    id_token_hint=id_token_hint,
                    federated=federated,
                    logout_hint=hint if isinstance(hint, str) and hint else None,
                )
        except oidc.AuthError as error:
            logger.warning("provider logout unavailable, local logout only: %s", error, extra=party.log_values())
        else:
            if bare is None:
                logger.info(
                    "local logout only: the provider advertises no end_session_endpoint "
                    "(the visitor stays logged in at the provider)"
                )
    await asyncio.to_thread(sessions.delete_session, session_id)
    response = down or _redirect(location or "/")
    _clear_cookie(response, sessions.SESSION_COOKIE)
    _clear_cookie(response, sessions.MARKER_COOKIE)
    return response


async def backchannel_logout(request: Request) -> Response:
    """OpenID Connect Back-Channel Logout: the provider ends this user's sessions here.

    Called by the provider, not by a browser (no cookie, no Origin): the signed logout
    token is the only credential, accepted once (its `jti`). 200 once the sessions are gone,
    400 for a bad or replayed token.
    """
    headers = {"Cache-Control": "no-store"}
    form = await _small_form(request)
    if isinstance(form, Response):
        return JSONResponse({"error": "invalid_request"}, status_code=form.status_code, headers=headers)
    raw = form.get("logout_token")
    if not isinstance(raw, str) or not raw:
        return JSONResponse({"error": "invalid_request"}, status_code=400, headers=headers)
    party = oidc.relying_party()
    try:
        claims = await party.logout_token_claims(raw)
    except oidc.AuthError as error:
        logger.warning("back-channel logout refused: %s", error, extra=party.log_values())
        return JSONResponse({"error": "invalid_request"}, status_code=400, headers=headers)
    ended = await asyncio.to_thread(sessions.delete_sessions_of, claims["sub"])
    logger.info("back-channel logout from the provider ended %d session(s)", ended)
    return Response(status_code=200, headers=headers)


async def session_info(request: Request) -> Response:
    """What the page may know about this browser's session (public claims only; no provider call).

    "Logged in" is `sessions.live_session`, as for the page (`state.auth`): the two agree.
    """
    from marketing_site.state.auth import public_user

    live = await asyncio.to_thread(sessions.live_session, request.cookies.get(sessions.SESSION_COOKIE))
    body: dict = {"isAuthenticated": False, "user": None}
    if live is not None:
        user = public_user(sessions.user_of(live[0]), get_settings().oidc_roles_claim)
        body = {"isAuthenticated": True, "user": user}
    response = JSONResponse(body)
    response.headers["Cache-Control"] = "no-store"
    if live is None and sessions.marker_is_stale(request.cookies.get(sessions.MARKER_COOKIE)):
        _clear_cookie(response, sessions.MARKER_COOKIE)
    return response


ROUTES = [
    Route("/auth/login", login, methods=["GET"]),
    Route("/auth/silent", silent, methods=["GET"]),
    Route("/auth/callback", callback, methods=["GET"]),
    Route("/auth/logout", logout, methods=["POST"]),
    Route("/auth/session", session_info, methods=["GET"]),
    Route("/auth/backchannel-logout", backchannel_logout, methods=["POST"]),
]
