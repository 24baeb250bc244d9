"""HTTP routes of the backend (JSON API, login callbacks), mounted in front of Reflex.

Each module lists its Starlette routes in `ROUTES`; `api_app` gathers them. Reflex's own
app is mounted underneath, so every other path still reaches it.
"""

from __future__ import annotations

from starlette.applications import Starlette


def api_app() -> Starlette:
    """The Starlette app that `rx.App(api_transformer=...)` mounts Reflex into."""
    from sqlalchemy import exc

    from marketing_site import failures
    from marketing_site.api import (
        audience,
        auth,
        booking,
        client_report,
        console,
        files,
        health,
        mail,
        metrics,
        unavailable,
    )

    route_modules = [mail, audience, booking, files, health, auth, console, client_report, metrics]
    return Starlette(
        routes=[route for module in route_modules for route in module.ROUTES],
        exception_handlers={
            # The database cannot be reached: 503 with Retry-After (api/unavailable.py).
            exc.DBAPIError: unavailable.database_error,
            exc.TimeoutError: unavailable.database_error,
            # A handler that raises: logged and reported with a reference the 500 carries.
            Exception: failures.report_request_exception,
        },
    )
