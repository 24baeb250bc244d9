"""Login routes under /auth/ (Starlette): the Reflex backend is the OpenID relying party.

    GET  /auth/login     start a login: ?return_to=<same-site path>&login_hint=<email>&mode=trial
    GET  /auth/silent    the `prompt=none` session check (marker cookie removed first: no loop)
    GET  /auth/callback  the provider's redirect: state, code exchange, session cookies
    POST /auth/logout    end the session: default (RP-Initiated Logout when the provider offers it),
                         `federated=1` (Auth0 only) or `local_only=1` (not both)
    GET  /auth/session   {"isAuthenticated", "user"} of this browser (no token; no provider call)
    POST /auth/backchannel-logout  the provider's Back-Channel Logout (a signed logout token)

Errors reach the page through a one-shot cookie holding an error code (`state.auth`
turns it into the spec's message); tokens stay in the database.
"""

from __future__ import annotations

import asyncio
import html
import logging

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from marketing_site import metrics, routes
from marketing_site.services import oidc, sessions
from marketing_site.services.return_paths import safe_return_path
from marketing_site.settings import get_settings

logger = logging.getLogger(__name__)

# Auth0 SPA SDK's wording of the two errors the spec names without text (SPEC §8).
NO_QUERY_ERROR = "no_query"
INVALID_STATE_ERROR = "invalid_state"
BOTH_LOGOUT_FLAGS = "It is invalid to set both the `federated` and `localOnly` options to `true`"
LOGIN_HINT_MAX = 320


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
        logger.error("login could not start: %s", error)
        return _error(_login_page(return_to), oidc.LoginFailed.code)
    response = _redirect(url, 302)
    for name, value in cookies.items():
        _set_cookie(response, name, value, max_age=sessions.TRANSACTION_LIFETIME_SECONDS, http_only=True)
    return response


async def silent(request: Request) -> Response:
    """The silent session check by redirect (`prompt=none`).

    The marker cookie is removed before leaving, so whatever the provider does, the next
    page load does not start another check: at most one round trip, never a loop.
    """
    party = oidc.relying_party()
    return_to = safe_return_path(request.query_params.get("return_to"))
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
        logger.warning("silent check could not start: %s", error)
        response = _redirect(return_to)
    else:
        response = _redirect(url, 302)
        for name, value in cookies.items():
            _set_cookie(response, name, value, max_age=sessions.TRANSACTION_LIFETIME_SECONDS, http_only=True)
    _clear_cookie(response, sessions.MARKER_COOKIE)
    return response


async def callback(request: Request) -> Response:
    """The provider's redirect back (SPEC §4, §8)."""
    query = request.query_params
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
    provider_error = query.get("error")
    if provider_error:
        if transaction.silent and provider_error in oidc.RECOVERABLE_ERRORS:
            metrics.OIDC_LOGINS.labels(outcome="silent_declined").inc()
            response = _leave(transaction.return_to)  # swallowed: the visitor stays anonymous
            _clear_cookie(response, sessions.MARKER_COOKIE)
            return response
        logger.warning("login failed at the provider: %s %s", provider_error, query.get("error_description", ""))
        metrics.OIDC_LOGINS.labels(outcome="provider_error").inc()
        target = transaction.return_to if transaction.silent else _login_page(transaction.return_to)
        response = _error(target, oidc.LoginFailed.code)
        _clear_cookie(response, sessions.MARKER_COOKIE)
        return response
    code = query.get("code")
    if not code:
        metrics.OIDC_LOGINS.labels(outcome="provider_error").inc()
        return _error(_login_page(transaction.return_to), oidc.LoginFailed.code)
    try:
        tokens = await oidc.relying_party().exchange_code(code, transaction)
    except oidc.ClientRejected:  # logged at ERROR as a configuration problem, not as the visitor's failure
        metrics.OIDC_LOGINS.labels(outcome="client_rejected").inc()
        return _error(_login_page(transaction.return_to), oidc.LoginFailed.code)
    except oidc.AuthError as error:
        logger.warning("login failed: %s", error)
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


def _flag(value: object) -> bool:
    return isinstance(value, str) and value.lower() in ("1", "true", "on", "yes")


async def logout(request: Request) -> Response:
    """End the session: local-only, or also at the provider (`federated` is Auth0's, OIDC_COMPAT=auth0)."""
    form = await request.form()
    federated = _flag(form.get("federated") or request.query_params.get("federated"))
    local_only = _flag(form.get("local_only") or request.query_params.get("local_only"))
    if federated and local_only:
        return PlainTextResponse(BOTH_LOGOUT_FLAGS, status_code=400)
    session_id = request.cookies.get(sessions.SESSION_COOKIE)
    live = await asyncio.to_thread(sessions.live_session, session_id)
    id_token_hint = live[1].id_token if live else None
    await asyncio.to_thread(sessions.delete_session, session_id)
    location = None
    if not local_only:
        try:
            location = await oidc.relying_party().logout_url(id_token_hint=id_token_hint, federated=federated)
        except oidc.AuthError as error:
            logger.warning("provider logout unavailable, local logout only: %s", error)
        else:
            if location is None:
                logger.info(
                    "local logout only: the provider advertises no end_session_endpoint "
                    "(the visitor stays logged in at the provider)"
                )
    response = _redirect(location or "/")
    _clear_cookie(response, sessions.SESSION_COOKIE)
    _clear_cookie(response, sessions.MARKER_COOKIE)
    return response


async def backchannel_logout(request: Request) -> Response:
    """OpenID Connect Back-Channel Logout: the provider ends this user's sessions here.

    Called by the provider, not by a browser (no cookie, no Origin): the signed logout
    token is the only credential. 200 once the sessions are gone, 400 for a bad token.
    """
    form = await request.form()
    raw = form.get("logout_token")
    headers = {"Cache-Control": "no-store"}
    if not isinstance(raw, str) or not raw:
        return JSONResponse({"error": "invalid_request"}, status_code=400, headers=headers)
    try:
        claims = await oidc.relying_party().logout_token_claims(raw)
    except oidc.AuthError as error:
        logger.warning("back-channel logout refused: %s", error)
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
    return response


ROUTES = [
    Route("/auth/login", login, methods=["GET"]),
    Route("/auth/silent", silent, methods=["GET"]),
    Route("/auth/callback", callback, methods=["GET"]),
    Route("/auth/logout", logout, methods=["POST"]),
    Route("/auth/session", session_info, methods=["GET"]),
    Route("/auth/backchannel-logout", backchannel_logout, methods=["POST"]),
]
