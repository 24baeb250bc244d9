"""The failure notice's JavaScript (`site_notice.jsx`, beside this module), which reads Reflex's client.

The notice tells a person, in the page's words, that something failed on the server's side
(components/site_notice.py gives it its words; marketing_site/failures.py says when). It reads
two things of Reflex's client that no public API offers (touch point 16 of docs/reflex-upgrade.md):

- Reflex's client `refs` registry (`$/utils/state`): the notice registers the ref where Reflex's
  `_set_value` event, sent by the server's exception handler (`app_frame.handler_failure_notice`),
  lands; its name is Reflex's formatting of the site's ref (`reflex_ref_name`);
- `connectErrors`, the second item of `EventLoopContext`'s value (`$/utils/context`), to tell a
  lost connection.

The file is a Reflex shared asset (`shared_assets`): it lives here, beside the Python that loads
it, and the app links it into the build (`link_shared_asset`).
"""

from __future__ import annotations

import reflex as rx
from reflex_base.utils.format import format_ref

from marketing_site.reflex_internals import shared_assets

SITE_NOTICE_JSX = "site_notice.jsx"


def link_shared_asset() -> str:
    """Link site_notice.jsx into the app's assets (the app does it when it is built)."""
    return rx.asset(SITE_NOTICE_JSX, shared=True).importable_path


def reflex_ref_name(ref: str) -> str:
    """The name under which Reflex's `rx.set_value(ref, …)` looks a ref up in its client `refs`."""
    return format_ref(ref)


class SiteNotice(rx.Component):
    """The notice: nothing until a handler fails or the connection is lost."""

    library = shared_assets.import_path(__name__, SITE_NOTICE_JSX)
    tag = "SiteNotice"
    # The words of content/<lang>/site_notice.yaml.
    messages: rx.Var[dict]
    # The ref the server's exception handler sets (`reflex_ref_name` of failures.NOTICE_REF).
    ref_name: rx.Var[str]
