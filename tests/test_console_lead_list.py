"""What the console's leads table shows, checked lead by lead against a plain-Python reading of
the same filter: each search column, each filter and its edges (the first and last instant of a
day), each sort order with its tie-break, the page bounds, the row's display keys and formats,
and the export URL of a filter. The team acts on this table: a filter that drops or adds a lead,
or a wrong page count, misleads a person (mutation testing found these free)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

MIDNIGHT = datetime(2026, 11, 8, tzinfo=UTC)


@dataclass(frozen=True)
class Stored:
    """A lead as the test stores it, and the statuses of its outbox rows in order."""

    email: str
    name: str
    firstname: str
    company: str
    form: str
    lang: str
    at: datetime
    flags: str = ""
    utm_source: str = ""
    referrer: str = ""
    utm_campaign: str = ""
    outbox: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return self.utm_source or self.referrer


# Each search term below is held by one column of one lead only (name, firstname, email,
# company), two leads share a name and two a creation instant (the sort's tie-break by id), and
# three sit on the edges of the day 2026-11-08 (its first instant, its last, the next day's first).
LEADS = (
    Stored(
        "jeanne@alpha.test",
        "Martin",
        "Jeanne",
        "Alpha",
        "ebook",
        "fr",
        MIDNIGHT - timedelta(days=3),
        utm_source="newsletter",
        referrer="www.google.com",
        utm_campaign="autumn",
        outbox=("failed", "sent"),
    ),
    Stored(
        "p.d@beta.test",
        "Durand",
        "Paul",
        "Beta",
        "white_paper",
        "en",
        MIDNIGHT,
        flags="fast",
        referrer="www.bing.com",
        outbox=("failed",),
    ),
    Stored(
        "lea@gamma.test",
        "Petit",
        "Lea",
        "Gamma 100%_Family",
        "kyc_documentation",
        "fr",
        MIDNIGHT.replace(hour=23, minute=59, second=59, microsecond=999999),
    ),
    Stored(
        "zoe@delta.test",
        "Martin",
        "Zoe",
        "Delta",
        "ebook",
        "en",
        MIDNIGHT + timedelta(days=1),
        flags="honeypot",
        utm_source="linkedin",
        utm_campaign="autumn",
        outbox=("pending",),
    ),
    Stored(
        "b@echo.test",
        "Bernard",
        "Hugo",
        "Back\\slash",
        "demo",
        "fr",
        MIDNIGHT - timedelta(days=3),
        utm_source="newsletter",
        utm_campaign="spring",
        outbox=("sent", "sent"),
    ),
    Stored(
        "c@fox.test", "Carre", "Ines", "Fox", "ebook", "fr", MIDNIGHT - timedelta(microseconds=1), outbox=("sending",)
    ),
)


@pytest.fixture
def stored(store):
    """The leads above in a fresh database, with their outbox rows: (id, Stored) in id order."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead, OutboxMessage

    ids = []
    with new_session() as session, session.begin():
        for number, lead in enumerate(LEADS):
            row = Lead(
                form=lead.form,
                lang=lead.lang,
                name=lead.name,
                firstname=lead.firstname,
                phone="+33 1 23 45 67 89",
                company=lead.company,
                email=lead.email,
                idempotency_key=f"list-{number}",
                flags=lead.flags,
                utm_source=lead.utm_source,
                referrer=lead.referrer,
                utm_campaign=lead.utm_campaign,
                landing_page=f"/page-{number}",
                created_at=lead.at,
            )
            session.add(row)
            session.flush()
            ids.append(row.id)
            for attempt, status in enumerate(lead.outbox):
                session.add(
                    OutboxMessage(
                        lead_id=row.id,
                        message_id=f"<{number}.{attempt}@list.test>",
                        mail_from="site@example.test",
                        mail_to="leads@example.test",
                        reply_to=lead.email,
                        subject="Lead",
                        body="…",
                        status=status,
                    )
                )
                session.flush()  # the outbox ids follow the order above: the last is the latest
    return list(zip(ids, LEADS, strict=True))


def _parse(**values):
    from marketing_site.services.console import LeadFilter

    return LeadFilter.parse(values)


def _matches(f, lead: Stored) -> bool:
    """The filter read in plain Python: what the console promises to list."""
    day_start = datetime.fromisoformat(f.date_from).replace(tzinfo=UTC) if f.date_from else None
    day_end = datetime.fromisoformat(f.date_to).replace(tzinfo=UTC) + timedelta(days=1) if f.date_to else None
    term = f.search.lower()
    return all(
        (
            not term or any(term in text.lower() for text in (lead.name, lead.firstname, lead.email, lead.company)),
            not f.form or lead.form == f.form,
            not f.lang or lead.lang == f.lang,
            day_start is None or lead.at >= day_start,
            day_end is None or lead.at < day_end,
            not f.mail_status or (not lead.outbox if f.mail_status == "none" else f.mail_status in lead.outbox),
            not f.flagged or bool(lead.flags) == (f.flagged == "yes"),
            not f.campaign or lead.utm_campaign == f.campaign,
            not f.source or lead.source == f.source,
        )
    )


def _expected(stored, f) -> list[str]:
    keyed = [
        ((getattr(lead, "at" if f.sort == "created_at" else f.sort), lead_id), lead.email)
        for lead_id, lead in stored
        if _matches(f, lead)
    ]
    return [email for _, email in sorted(keyed, reverse=f.descending)]


FILTERS = [
    {},
    {"search": "DURAND"},  # name only, any case
    {"search": "paul"},  # first name only
    {"search": "beta.test"},  # email only
    {"search": "family"},  # company only
    {"search": "martin"},
    {"search": "100%_"},  # LIKE's wildcards are literal
    {"search": "%"},
    {"search": "_"},
    {"search": "\\"},
    {"search": "  Martin  "},  # trimmed
    {"search": "nobody"},
    {"form": "ebook"},
    {"form": "demo"},
    {"lang": "en"},
    {"lang": "fr"},
    {"date_from": "2026-11-08"},  # its first instant is in, the one before out
    {"date_to": "2026-11-08"},  # its last instant is in, the next day's first out
    {"date_from": "2026-11-08", "date_to": "2026-11-08"},
    {"date_from": "2026-11-09", "date_to": "2026-11-09"},
    {"date_to": "2026-11-04"},
    {"mail_status": "none"},
    {"mail_status": "failed"},  # any of the lead's mails, not only the latest
    {"mail_status": "sent"},
    {"mail_status": "pending"},
    {"mail_status": "sending"},
    {"flagged": "yes"},
    {"flagged": "no"},
    {"campaign": "autumn"},
    {"campaign": "spring"},
    {"source": "newsletter"},  # the utm_source, though a referrer is there too
    {"source": "www.bing.com"},  # no utm_source: the referrer
    {"source": "www.google.com"},  # hidden behind a utm_source
    {"source": "linkedin"},
    {"form": "ebook", "lang": "fr", "campaign": "autumn"},
    {"search": "martin", "flagged": "yes"},
]


@pytest.mark.parametrize("values", FILTERS, ids=[str(v) for v in FILTERS])
def test_each_filter_lists_exactly_the_leads_it_names(stored, values):
    from marketing_site.services.console import lead_page

    f = _parse(**values)
    page = lead_page(f, size=100)
    assert [row["email"] for row in page.rows] == _expected(stored, f)
    assert page.total == len(page.rows)


@pytest.mark.parametrize(
    ("sort", "descending"), list(itertools.product(("created_at", "name", "email", "company", "form"), ("1", "0")))
)
def test_each_sort_orders_both_ways_and_breaks_ties_by_id_the_same_way(stored, sort, descending):
    from marketing_site.services.console import lead_page

    f = _parse(sort=sort, descending=descending)
    assert [row["email"] for row in lead_page(f, size=100).rows] == _expected(stored, f)


def test_the_default_order_is_the_newest_first(stored):
    from marketing_site.services.console import lead_page

    emails = [row["email"] for row in lead_page(_parse(), size=100).rows]
    assert emails[:2] == ["zoe@delta.test", "lea@gamma.test"]
    # Two leads made at the same instant: the later id first.
    assert emails[-2:] == ["b@echo.test", "jeanne@alpha.test"]


def test_the_export_holds_the_filters_leads_in_the_tables_order(stored):
    import csv
    import io

    from marketing_site.services.console import export_leads_csv

    for values in ({"sort": "email", "descending": "0"}, {"sort": "name"}, {"mail_status": "failed"}, {"lang": "en"}):
        f = _parse(**values)
        body, count = export_leads_csv(f)
        rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
        assert [row[rows[0].index("email")] for row in rows[1:]] == _expected(stored, f)
        assert count == len(rows) - 1


@pytest.mark.parametrize(
    ("size", "asked", "shown", "pages", "on_page"),
    [
        (6, 1, 1, 1, 6),  # exactly one full page: no empty second page
        (5, 1, 1, 2, 5),
        (5, 2, 2, 2, 1),  # the last page holds the one left
        (5, 3, 2, 2, 1),  # past the end: the last page
        (4, 2, 2, 2, 2),
        (1, 6, 6, 6, 1),
        (2, 2, 2, 3, 2),
    ],
)
def test_pages_are_counted_up_and_a_page_past_the_end_shows_the_last(stored, size, asked, shown, pages, on_page):
    from marketing_site.services.console import lead_page

    page = lead_page(_parse(sort="email", descending="0", page=asked), size=size)
    assert (page.total, page.page, page.pages, len(page.rows)) == (6, shown, pages, on_page)
    emails = sorted(lead.email for lead in LEADS)
    assert [row["email"] for row in page.rows] == emails[(shown - 1) * size : shown * size]


def test_an_empty_table_is_one_empty_page(store):
    from marketing_site.services.console import lead_page

    page = lead_page(_parse(page=3))
    assert (page.rows, page.total, page.page, page.pages) == ([], 0, 1, 1)


def test_a_row_shows_every_field_its_latest_mail_status_source_and_minute(stored):
    from marketing_site.services.console import lead_page

    rows = {row["email"]: row for row in lead_page(_parse(), size=100).rows}
    first_id = stored[0][0]
    assert rows["jeanne@alpha.test"] == {
        "id": str(first_id),
        "created_at": "2026-11-05 00:00",
        "form": "ebook",
        "lang": "fr",
        "name": "Martin",
        "firstname": "Jeanne",
        "phone": "+33 1 23 45 67 89",
        "company": "Alpha",
        "email": "jeanne@alpha.test",
        "mail_status": "sent",  # failed, then sent: the latest
        "flagged": "",
        "landing_page": "/page-0",
        "source": "newsletter",
        "campaign": "autumn",
    }
    assert rows["lea@gamma.test"]["created_at"] == "2026-11-08 23:59"
    assert (rows["lea@gamma.test"]["mail_status"], rows["lea@gamma.test"]["source"]) == ("none", "")
    assert (rows["p.d@beta.test"]["source"], rows["p.d@beta.test"]["flagged"]) == ("www.bing.com", "fast")
    assert rows["c@fox.test"]["mail_status"] == "sending"


# ------------------------------------------------------------------ parsing a filter


def test_a_filter_keeps_what_it_is_given_trimmed_and_the_dates_in_iso_form():
    from marketing_site.services.console import LeadFilter

    f = _parse(
        search=" Martin ",
        form=" ebook",
        lang="en ",
        date_from="2026-11-01",
        date_to="2026-11-08",
        mail_status="failed",
        flagged="no",
        campaign=" autumn ",
        source=" linkedin ",
        sort="company",
        descending="0",
        page="3",
    )
    assert f == LeadFilter(
        search="Martin",
        form="ebook",
        lang="en",
        date_from="2026-11-01",
        date_to="2026-11-08",
        mail_status="failed",
        flagged="no",
        campaign="autumn",
        source="linkedin",
        sort="company",
        descending=False,
        page=3,
    )
    assert _parse() == LeadFilter()
    assert _parse(sort="  ") == LeadFilter()  # a blank sort is the default one
    # A value that is not text (a JSON number or list) counts as left empty.
    assert _parse(search=5, form=["ebook"], campaign=None) == LeadFilter()


@pytest.mark.parametrize(
    ("descending", "expected"),
    [
        ("0", False),
        ("false", False),
        ("", False),
        (False, False),
        (0, False),
        ("1", True),
        ("true", True),
        (True, True),
    ],
)
def test_the_direction_is_descending_unless_it_says_otherwise(descending, expected):
    assert _parse(descending=descending).descending is expected


@pytest.mark.parametrize(("page", "expected"), [(None, 1), ("", 1), (0, 1), ("-4", 1), ("1", 1), (2, 2), ("7", 7)])
def test_the_page_is_at_least_the_first(page, expected):
    assert _parse(page=page).page == expected


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"page": ["2"]}, "page"),
        ({"page": "2.5"}, "page"),
        ({"flagged": "maybe"}, "flagged"),
        ({"campaign": "x" * 101}, "campaign"),
        ({"source": "x" * 101}, "source"),
        ({"campaign": "a\x1fb"}, "campaign"),
        ({"source": "a\nb"}, "source"),
        ({"search": "a\x1fb"}, "search"),
        ({"date_to": "tomorrow"}, "date_to"),
        ({"sort": "id"}, "sort"),
        ({"lang": "EN"}, "lang"),
    ],
)
def test_a_bad_filter_names_its_field(values, field):
    from marketing_site.services.console import FilterError

    with pytest.raises(FilterError) as error:
        _parse(**values)
    assert error.value.field == field and str(error.value) == field


def test_tags_of_the_limit_and_spaces_inside_a_value_are_accepted():
    f = _parse(campaign="c" * 100, source="s" * 100, search="a b " + "x" * 196)
    assert (len(f.campaign), len(f.source), len(f.search)) == (100, 100, 200)
    assert (_parse(campaign="black friday").campaign, _parse(source="news letter").source) == (
        "black friday",
        "news letter",
    )
    assert _parse(date_from="2026-11-08", date_to="2026-11-08").date_to == "2026-11-08"


def test_the_export_link_carries_the_filter_without_its_page_or_empty_values():
    assert _parse(page=4).query() == {"sort": "created_at", "descending": "1"}
    assert _parse(form="ebook", sort="name", descending="0", date_from="2026-01-02", page=2).query() == {
        "form": "ebook",
        "sort": "name",
        "descending": "0",
        "date_from": "2026-01-02",
    }
    # The link, parsed again, is the same filter (on its first page).
    f = _parse(search="Martin", flagged="yes", campaign="autumn", source="linkedin", lang="fr", descending="0", page=3)
    assert _parse(**f.query()) == _parse(**{**f.query(), "page": 1})
    assert _parse(**f.query()).descending is False
