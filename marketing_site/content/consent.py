"""The consent purposes the banner asks about: one choice each, in this order.

A purpose is what the visitor accepts or refuses in the banner's customise panel ("Accept all"
and "Refuse all" answer every purpose at once). Its words (label, text, where its data goes) are
`purposes.<key>` in `content/<lang>/consent.yaml`; what it loads once chosen is named here by
the settings that hold the script URLs (read when the frontend is built, also allowed by the
content security policy), and which `window.nereoConsent.track(name, …)` events it carries. A
script or an event of a purpose never runs before that purpose is chosen. The privacy policy
(`content/<lang>/privacy.md`, section Cookies) names the same purposes.

The visitor's choice is kept in the consent cookie as `v=1&<key>=0|1&…&ts=…`, one pair per
purpose. A cookie that lacks a purpose (a purpose added since, or the cookie of the earlier
banner, which had `analytics` only) keeps the choices it has and asks again: the banner shows
with those choices ticked, and what the missing purpose loads stays off until it is answered.

To add a purpose: a line in PURPOSES, its script URL setting in `settings.py` (empty: nothing
to load), and its words under `purposes` in each `content/<lang>/consent.yaml`.
"""

from __future__ import annotations

import dataclasses
import re

# In the cookie and the JS API: lower-case letters, digits and underscores.
PURPOSE_KEY = re.compile(r"[a-z][a-z0-9_]*")
# What the cookie's `v` says; a cookie of another version is asked again in full.
CONSENT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class ConsentPurpose:
    """One purpose of the banner: its key, what it loads, which events it carries."""

    key: str
    # Names of Settings fields holding the URLs of the scripts it loads once chosen.
    script_settings: tuple[str, ...] = ()
    # Names of the events `window.nereoConsent.track` sends for it (only once it is chosen).
    events: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not PURPOSE_KEY.fullmatch(self.key) or self.key in ("v", "ts"):
            raise ValueError(f"consent purpose key {self.key!r}: lower-case letters, digits, underscores")


PURPOSES: tuple[ConsentPurpose, ...] = (
    # Visit statistics through a third-party tool (privacy policy: "Audience measurement"). The
    # site's own cookie-less measurement (services.audience) is exempt and not asked about here.
    ConsentPurpose("analytics", script_settings=("analytics_script_url",)),
    # Campaign effectiveness: the conversion event of the English lead forms (SPEC §4) and the
    # marketing tag that receives it (privacy policy: "Marketing and conversion tracking").
    ConsentPurpose("marketing", script_settings=("marketing_script_url",), events=("conversion",)),
)


def purpose_keys() -> tuple[str, ...]:
    return tuple(purpose.key for purpose in PURPOSES)
