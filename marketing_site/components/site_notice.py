"""The failure notice of every page (reflex_internals/site_notice.jsx): a failed event handler, a
lost connection or a server restart, told in the page's language with a reference the server log
also carries (marketing_site/failures.py)."""

from __future__ import annotations

import reflex as rx

from marketing_site import failures
from marketing_site.content.words import words
from marketing_site.reflex_internals.site_notice import SiteNotice, reflex_ref_name


def site_notice(lang: str) -> rx.Component:
    return SiteNotice.create(messages=words(lang, "site_notice"), ref_name=reflex_ref_name(failures.NOTICE_REF))
