"""The failure notice of every page (assets/site_notice.jsx): a failed event handler, a lost
connection or a server restart, told in the page's language with a reference the server log
also carries (marketing_site/failures.py)."""

from __future__ import annotations

import reflex as rx

from marketing_site.content.words import words

SITE_NOTICE = "$/public/site_notice.jsx"


class SiteNotice(rx.Component):
    library = SITE_NOTICE
    tag = "SiteNotice"
    # The words of content/<lang>/site_notice.yaml.
    messages: rx.Var[dict]


def site_notice(lang: str) -> rx.Component:
    return SiteNotice.create(messages=words(lang, "site_notice"))
