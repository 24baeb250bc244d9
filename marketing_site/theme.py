"""The palette of SPEC §3 and the layout constants, in one module.

Components never hard-code a colour: they use the CSS custom properties emitted here
(`var(--primary)` …), so the stylesheet and Python agree on every value.
"""

from __future__ import annotations

import json

PRIMARY = "#0b2545"  # deep navy: headings, primary buttons
SECONDARY = "#b8860b"  # antique gold: accents, highlights
GREY = {
    "50": "#f7f8fa",
    "100": "#eef1f5",
    "200": "#dde3ea",
    "300": "#c3ccd8",
    "500": "#6b7889",
    "700": "#3f4a5a",
    "900": "#17202c",
}
PALETTE = {
    "linkHover": "#1d5fa8",
    "backgroundBlue": "#eaf1fb",
    "blueFlash": "#1463d8",
    "relationclient": "#1f6f8b",
    "sales": "#8a4b08",
    "premium": "#5b3f99",
    "compliance": "#1e6b46",
}
# Green tint of the navbar on the two thank-you pages (SPEC §1).
THANKS_TINT = "#e6f4ec"

# Breakpoints of SPEC §9: mobile up to 600 px, small/tablet up to 992 px, default 1200 px.
BREAKPOINT_MOBILE = 600
BREAKPOINT_TABLET = 992
BREAKPOINT_DEFAULT = 1200

PAGE_TRANSITION_MS = 300


def _kebab(name: str) -> str:
    return "".join("-" + c.lower() if c.isupper() else c for c in name)


def accent_names() -> list[str]:
    """The palette entries a card, an offer or a feature page can take as its accent."""
    return ["primary", "secondary", *(_kebab(k) for k in PALETTE)]


def accent_class(name: str) -> str:
    """The class giving an element (and what it contains) the accent `name` as `--accent`.

    A class rather than an inline style: inline styles go through Reflex's runtime CSS
    (Emotion), which static, unhydrated markup (`reflex_internals.hydration`) cannot use.
    """
    if name not in accent_names():
        raise ValueError(f"unknown accent {name!r}; one of {accent_names()}")
    return f"accent-{name}"


def css_variables(site_origin: str = "") -> str:
    """The `:root` block every page carries in its head, and the accent classes.

    `site_origin` (SITE_URL) makes the site's paths absolute where a link's address is
    printed (the print rules of site.css)."""
    entries = {
        "primary": PRIMARY,
        "secondary": SECONDARY,
        **{f"grey-{k}": v for k, v in GREY.items()},
        **{_kebab(k): v for k, v in PALETTE.items()},
        "thanks-tint": THANKS_TINT,
        "page-transition": f"{PAGE_TRANSITION_MS}ms",
        "site-origin": json.dumps(site_origin),
    }
    body = ";".join(f"--{k}:{v}" for k, v in entries.items())
    accents = "".join(f".{accent_class(name)}{{--accent:var(--{name})}}" for name in accent_names())
    return f":root{{{body}}}{accents}"
