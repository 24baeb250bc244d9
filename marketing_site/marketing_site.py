"""Builds the Reflex app and registers every page of the route table in both languages."""

from __future__ import annotations

from pathlib import Path

import reflex as rx

from marketing_site import (
    error_reports,
    failures,
    logs,
    metrics,
    page_table,
    security,
    theme,
)
from marketing_site.api import api_app
from marketing_site.components.consent import consent_gate
from marketing_site.components.error_boundary import site_error_boundary
from marketing_site.content import sources
from marketing_site.reflex_internals import (
    app_frame,
    client_state,
    exact_paths,
    redis_keyspace,
    reflex_logging,
    site_notice,
    socket_events,
    state_files,
    tab_handover,
)
from marketing_site.reflex_internals.event_middleware import CountHydrations
from marketing_site.services import audience, mail, oidc
from marketing_site.settings import get_settings

logs.configure()
reflex_logging.route_reflex_output()
# Must run before any page is added: the spec's routes have accented parts.
exact_paths.install()
# Before the app creates its token manager: a tab whose worker died keeps its state.
tab_handover.install()
# Before the app creates its state manager: two processes starting at once both purge `.states/`.
state_files.tolerate_concurrent_purges()
# Before Reflex's managers subscribe: they never write the Redis server's configuration.
redis_keyspace.install()
# Each websocket event collects the breadcrumbs of its error reports in a scope of its own.
socket_events.isolate_events()

# One stylesheet for the frame, one per page family (assets/styles/).
STYLESHEETS = [
    "/site.css",
    *sorted(f"/styles/{f.name}" for f in (Path(__file__).parent.parent / "assets" / "styles").glob("*.css")),
]

# The JavaScript that lives beside its Python module (Reflex's shared assets), into this build.
client_state.link_shared_asset()
site_notice.link_shared_asset()

app = rx.App(
    html_lang="fr",
    stylesheets=STYLESHEETS,
    head_components=[
        rx.el.style(theme.css_variables(site_origin=get_settings().site_origin)),
        consent_gate(),
        # Before the first paint: what the browser keeps for the visitor (every client variable
        # the pages' modules, imported with page_table above, declare) shows at once
        # (reflex_internals/client_state.py).
        *client_state.head_components(),
        rx.el.link(rel="icon", href="/favicon.svg", type="image/svg+xml"),
    ],
    # Our API routes first, then exact-path serving of the prerendered site in front of them,
    # security headers (and the websocket's origin check) around everything, and around that
    # the HTTP and websocket metrics (the requests refused above count too).
    # Outermost, each request and websocket connection collects its error reports' breadcrumbs
    # in a scope of its own.
    api_transformer=[
        api_app(),
        exact_paths.ExactPathSite,
        security.SecurityHeaders,
        metrics.HttpMetrics,
        error_reports.IsolatedReports,
    ],
    toaster=None,
    # A failing event handler: logged with a reference the page shows in its words (failures.py).
    backend_exception_handler=app_frame.handler_failure_notice(failures.report_backend_exception, failures.NOTICE_REF),
)
# No connection overlay (its toaster is off above too), and the error boundary shows the site's
# own message (components/error_boundary.py).
app_frame.drop_connection_overlay(app)
app_frame.use_error_boundary(app, site_error_boundary)
# Malformed websocket frames are refused before Reflex reads them: a warning a minute per
# client, never a traceback or an error report (failures.malformed_frame).
socket_events.guard_frames(app)
page_table.add_pages(app)
# Counts hydrations; first, so that it sees every event before any middleware answers one.
app.add_middleware(CountHydrations(), index=0)
# Error reports (SENTRY_DSN) in each worker, before anything can fail.
app.register_lifespan_task(error_reports.start)
# Refuses to start where a mail header could be written unsafely (services/mail_headers.py), then
# sends the mail of stored leads, in every backend worker (each message has one sender).
app.register_lifespan_task(mail.check_startup)
app.register_lifespan_task(mail.run_outbox_worker)
# Runs when the backend starts serving (not when the frontend is exported).
app.register_lifespan_task(oidc.check_startup)
# Asks the identity provider whether the client is configured right (logged, never fatal).
app.register_lifespan_task(oidc.self_check)
# Says whether the Redis server notifies what Reflex needs (the operator sets it; docs/operations.md).
app.register_lifespan_task(redis_keyspace.check_at_start)
# A worker that stops (SIGTERM, a rolling restart) writes the page views it holds.
app.register_lifespan_task(audience.written_at_shutdown)
# Under `make dev` only (SITE_DEV_LOOP): words saved while the backend runs are read again.
app.register_lifespan_task(sources.refresh_in_development)
