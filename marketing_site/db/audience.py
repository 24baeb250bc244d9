"""Audience measurement: page views counted per day and per combination of what a beacon carries.

There is no row per view: a worker adds its views to these daily totals (services.audience),
so no visit, address or browser can be read back from the table.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Column, Date, Index
from sqlmodel import Field, SQLModel

# The columns that name one daily total (everything a beacon carries); `views` adds up.
DIMENSIONS = (
    "day",
    "path",
    "lang",
    "referrer",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "device",
)
UTM_MAX = 100
HOST_MAX = 253
PATH_MAX = 200


class PageViewDay(SQLModel, table=True):
    """How many views a page had on a day (UTC) in one language, from one referrer host and
    campaign, on one device class."""

    __tablename__ = "page_view_day"
    # The record: the traffic view and the charts read its sums (ROLLUPS), so its one index is
    # the unique one its upserts need (it starts with `day`, which the purge deletes by).
    __table_args__ = (Index("uq_page_view_day", *DIMENSIONS, unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    day: date = Field(sa_column=Column(Date, nullable=False))
    path: str = Field(max_length=PATH_MAX)
    lang: str = Field(max_length=2)
    # The referring site's host name only ("" when direct or from this site).
    referrer: str = Field(default="", max_length=HOST_MAX)
    utm_source: str = Field(default="", max_length=UTM_MAX)
    utm_medium: str = Field(default="", max_length=UTM_MAX)
    utm_campaign: str = Field(default="", max_length=UTM_MAX)
    utm_content: str = Field(default="", max_length=UTM_MAX)
    utm_term: str = Field(default="", max_length=UTM_MAX)
    device: str = Field(max_length=10)  # mobile | tablet | desktop
    views: int = Field(default=0)


class PagePathDay(SQLModel, table=True):
    """The same views summed per day, page and language only: the weekly chart, the funnel and
    the traffic per page or language read a few dozen rows a day instead of thousands."""

    __tablename__ = "page_path_day"
    __table_args__ = (Index("uq_page_path_day", "day", "path", "lang", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    day: date = Field(sa_column=Column(Date, nullable=False))
    path: str = Field(max_length=PATH_MAX)
    lang: str = Field(max_length=2)
    views: int = Field(default=0)


class VisitSourceDay(SQLModel, table=True):
    """The same views summed per day and source only (referring host, utm_source, utm_campaign):
    the traffic per campaign or per source over 13 months reads a few dozen rows a day instead of
    one per page, language and device."""

    __tablename__ = "visit_source_day"
    __table_args__ = (Index("uq_visit_source_day", "day", "referrer", "utm_source", "utm_campaign", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    day: date = Field(sa_column=Column(Date, nullable=False))
    referrer: str = Field(default="", max_length=HOST_MAX)
    utm_source: str = Field(default="", max_length=UTM_MAX)
    utm_campaign: str = Field(default="", max_length=UTM_MAX)
    views: int = Field(default=0)


# The daily sums kept beside PageViewDay, each by the columns that name one of its rows.
ROLLUPS: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (PagePathDay, ("day", "path", "lang")),
    (VisitSourceDay, ("day", "referrer", "utm_source", "utm_campaign")),
)
