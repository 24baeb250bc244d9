"""Failures on the server's side reach the person: a short reference, in the log and on the page.

- An event handler that raises: `report_backend_exception` (Reflex's backend exception handler)
  logs the traceback with a reference and sends the page Reflex's `_set_value` event for the ref
  that `assets/site_notice.jsx` registers: the page shows its own words with the reference. No
  script travels from the server (the site's CSP has no 'unsafe-eval', which blocks Reflex's toast).
- A lost connection or a server restart: the page shows its message with a reference it made
  and, once connected again, posts it to /api/v1/client-report (api/client_report.py), which logs it.
"""

from __future__ import annotations

import logging

import reflex as rx
from reflex_base.event import EventSpec

from marketing_site.logs import new_reference

logger = logging.getLogger("marketing_site.failures")

# The ref of assets/site_notice.jsx (Reflex prefixes `ref_`).
NOTICE_REF = "site_error"


def report_backend_exception(exception: Exception) -> EventSpec:
    reference = new_reference()
    logger.error("event handler failed ref=%s", reference, exc_info=exception)
    return rx.set_value(NOTICE_REF, reference)
