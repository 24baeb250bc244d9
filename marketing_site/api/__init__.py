"""HTTP routes of the backend (JSON API, login callbacks), mounted in front of Reflex.

Each module lists its Starlette routes in `ROUTES`; `api_app` gathers them. Reflex's own
app is mounted underneath, so every other path still reaches it.
"""

from __future__ import annotations

from starlette.applications import Starlette


def api_app() -> Starlette:
    """The Starlette app that `rx.App(api_transformer=...)` mounts Reflex into."""
    from marketing_site.api import audience, auth, booking, client_report, console, files, health, mail

    route_modules = [mail, audience, booking, files, health, auth, console, client_report]
    return Starlette(routes=[route for module in route_modules for route in module.ROUTES])
