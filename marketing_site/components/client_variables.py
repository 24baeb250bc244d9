"""Every client variable the site declares (reflex_internals/client_state.py), in one module: the
page head that applies them before the first paint is built from them, so `make dev` rewrites the
head when this module changes (devloop/depmap.FRAME_PROVIDERS).

- `CAROUSEL_PAUSED`: the visitor paused the testimonials' autoplay (components/carousel.py).
- `ANNOUNCEMENT_ON[key]`: the clock is inside the announcement's dates; `ANNOUNCEMENT_CLOSED[key]`:
  this browser closed it (components/announcement.py; content/announcements.py). An announcement
  already over when the module is imported is left out: no page carries it any more.
"""

from __future__ import annotations

from datetime import UTC, datetime

from marketing_site.content import announcements
from marketing_site.reflex_internals.client_state import ClientVar

CAROUSEL_PAUSED = ClientVar("carousel_paused", default=False)


def announcement_on(item: announcements.Announcement) -> ClientVar:
    return ClientVar.window(f"announcement_{item.key}_on", item.starts_at, item.ends_at)


def announcement_closed(item: announcements.Announcement) -> ClientVar:
    return ClientVar(f"announcement_{item.key}_closed", default=False)


_now = datetime.now(UTC)
ANNOUNCEMENT_ON = {a.key: announcement_on(a) for a in announcements.ANNOUNCEMENTS if not a.is_over(_now)}
ANNOUNCEMENT_CLOSED = {
    a.key: announcement_closed(a) for a in announcements.ANNOUNCEMENTS if a.dismissible and not a.is_over(_now)
}
