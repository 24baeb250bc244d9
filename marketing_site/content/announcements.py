"""Announcements: a strip at the top of pages, between two dates. Their words are in
`content/<lang>/announcements.yaml`, under `items.<key>` (`text`, and `link` when there is one).

An announcement says:
- `key`: lowercase letters, digits and `_`. It names its words, and a visitor who closes the
  announcement is remembered under it on that browser: a new announcement takes a new key.
- `starts`, `ends`: the first and the last day it shows, days in Paris (`SITE_ZONE`): from 00:00
  on `starts` to midnight at the end of `ends`. `ends=None` keeps it until it is removed. An
  aware datetime instead of a date is an exact instant (`ends` then is the first instant it no
  longer shows).
- `link`: none, a page of the site (`page:<route key>`, optionally `#anchor`) or an https address.
- `pages`: the route keys (`routes.py`) of the pages it shows on; empty, the default: every page,
  the not-found pages included.
- `dismissible`: a close button, remembered on the visitor's browser (the default); False for
  an announcement that must stay (a planned outage).

The cut-off is one instant, for the server and the visitor alike: a page built before it carries
the announcement, and the visitor's browser, reading the page after it, hides it before the first
paint (components/announcement.py; reflex_internals/client_state.py). A page built before
`starts` carries it hidden, and the visitor's browser shows it from `starts`. With scripts
blocked, a page shows what was current when the site was built.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from marketing_site import routes

# Whose calendar the dates are read in: the site's audience and its team are in France.
SITE_ZONE = ZoneInfo("Europe/Paris")
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


@dataclasses.dataclass(frozen=True)
class Announcement:
    key: str
    starts: date | datetime
    ends: date | datetime | None
    link: str = ""
    pages: tuple[str, ...] = ()
    dismissible: bool = True

    def __post_init__(self) -> None:
        if not _KEY.fullmatch(self.key):
            raise ValueError(f"announcement key {self.key!r}: lowercase letters, digits and _, 40 at most")
        for bound in (self.starts, self.ends):
            if isinstance(bound, datetime) and bound.tzinfo is None:
                raise ValueError(f"announcement {self.key}: {bound} needs a time zone (or give a date)")
        if self.ends_at is not None and self.ends_at <= self.starts_at:
            raise ValueError(f"announcement {self.key}: it ends ({self.ends}) before it starts ({self.starts})")
        known = {page.key for page in routes.PAGES}
        unknown = [key for key in self.pages if key not in known]
        if unknown:
            raise ValueError(f"announcement {self.key}: no page {unknown} in routes.PAGES")
        if self.link:
            self.href("fr")  # a page that does not exist is an error now, not on a visit

    @property
    def starts_at(self) -> datetime:
        return _instant(self.starts, day_after=False)

    @property
    def ends_at(self) -> datetime | None:
        """The first instant it no longer shows (None: no end)."""
        return None if self.ends is None else _instant(self.ends, day_after=True)

    def shows_on(self, page_key: str | None) -> bool:
        """On the page with this route key (None: a not-found page)."""
        return not self.pages or page_key in self.pages

    def is_over(self, moment: datetime) -> bool:
        return self.ends_at is not None and moment >= self.ends_at

    def is_on(self, moment: datetime) -> bool:
        return self.starts_at <= moment and not self.is_over(moment)

    def href(self, lang: str) -> str:
        """Where its link goes, for a page in `lang`."""
        if self.link.startswith("page:"):
            key, _, anchor = self.link.removeprefix("page:").partition("#")
            page = next((p for p in routes.PAGES if p.key == key), None)
            if page is None:
                raise ValueError(f"announcement {self.key}: no page {key!r} in routes.PAGES")
            return page.path(lang) + (f"#{anchor}" if anchor else "")
        if self.link.startswith("https://"):
            return self.link
        raise ValueError(
            f"announcement {self.key}: a link is 'page:<route key>' or an https address, not {self.link!r}"
        )


def _instant(bound: date | datetime, day_after: bool) -> datetime:
    if isinstance(bound, datetime):
        return bound.astimezone(UTC)
    day = bound + timedelta(days=1) if day_after else bound
    return datetime.combine(day, time(0), SITE_ZONE).astimezone(UTC)


ANNOUNCEMENTS: tuple[Announcement, ...] = (
    Announcement("compare_offers", starts=date(2026, 11, 1), ends=None, link="page:compare", pages=("pricing",)),
)


def carried(page_key: str | None, built_at: datetime) -> list[Announcement]:
    """The announcements a page built at `built_at` carries: those of its page that are not over.
    One that has not started yet is carried hidden (the visitor's clock shows it in time)."""
    return [a for a in ANNOUNCEMENTS if a.shows_on(page_key) and not a.is_over(built_at)]
