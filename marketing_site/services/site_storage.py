"""Every cookie and browser-storage key the site itself sets, in one list.

The code that sets them takes their names and lifetimes from here (the session store and
the login routes, the consent banner through its props), and the privacy policy's cookie
table is rendered from the same list (`pages.legal_document`; words in
`content.privacy`), so the table cannot miss one. Keys written by Reflex's client (its
per-tab token, its colour-mode memory) and by React Router (scroll positions) are listed
too: the site sets them, if not through our code (Reflex's `last_compiled_theme` is
written by its development server only). A browser test compares the table with what a
real visit, consent choice and login leave.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

DAY = 24 * 3600


@dataclasses.dataclass(frozen=True)
class StoredItem:
    key: str  # names the item's words in content.privacy
    name: str
    store: Literal["cookie", "localStorage", "sessionStorage"]
    category: Literal["necessary", "analytics"]
    # Seconds; None = until the tab or browser session ends (sessionStorage) or the
    # visitor clears it (localStorage).
    lifetime_seconds: int | None

    @property
    def cookie_seconds(self) -> int:
        """The Max-Age of a cookie (every cookie here has one)."""
        if self.lifetime_seconds is None:
            raise ValueError(f"{self.name} is not a cookie with a lifetime")
        return self.lifetime_seconds


CONSENT = StoredItem("consent", "nereo_consent", "cookie", "necessary", 182 * DAY)
SESSION = StoredItem("session", "nereo_session", "cookie", "necessary", DAY)
MARKER = StoredItem("marker", "nereo.is.authenticated", "cookie", "necessary", DAY)
LOGIN_ERROR = StoredItem("login_error", "nereo_auth_error", "cookie", "necessary", 300)
LOGIN_BINDING = StoredItem("login_binding", "nereo_login_binding", "cookie", "necessary", DAY)
# Written by Reflex's client.
TAB_TOKEN = StoredItem("tab_token", "token", "sessionStorage", "necessary", None)
RELOAD_GUARD = StoredItem("reload_guard", "reflex_last_reloaded_on_error", "sessionStorage", "necessary", None)
THEME = StoredItem("theme", "theme", "localStorage", "necessary", None)
# Written by React Router's scroll restoration.
SCROLL_POSITIONS = StoredItem("scroll_positions", "react-router-scroll-positions", "sessionStorage", "necessary", None)
# Written only when the visitor objects to the audience measurement (assets/site_ui.jsx, the
# privacy policy's button): the measurement itself writes nothing.
AUDIENCE_OPT_OUT = StoredItem("audience_opt_out", "nereo_audience_opt_out", "localStorage", "necessary", None)
# The client variables a visitor's own actions set (reflex_internals/client_state.py): a closed
# announcement, the testimonials' pause. One JSON object per storage area, written only when the
# visitor acts. The session one is listed (in ITEMS, so in the privacy policy) once a variable
# uses it: tests/test_client_state.py checks that every area a declared variable uses is listed.
CLIENT_VARS = StoredItem("client_vars", "nereo_client", "localStorage", "necessary", None)
CLIENT_VARS_SESSION = StoredItem("client_vars_session", "nereo_client", "sessionStorage", "necessary", None)

ITEMS: tuple[StoredItem, ...] = (
    CONSENT,
    SESSION,
    MARKER,
    LOGIN_ERROR,
    LOGIN_BINDING,
    TAB_TOKEN,
    RELOAD_GUARD,
    THEME,
    SCROLL_POSITIONS,
    AUDIENCE_OPT_OUT,
    CLIENT_VARS,
)
