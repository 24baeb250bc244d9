"""State of the operators' console. Every handler checks the role first, on the server.

`_operator()` reads the session through the HttpOnly cookie of the websocket's handshake
(`router.headers`, filled by the server, not by the event) and `services.console.access_of`
decides; without the role the handler clears what the page holds and does nothing else.
Nothing the browser sends (state, payload) is trusted for access: payloads are validated
like any input.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlencode

import reflex as rx

from marketing_site import routes
from marketing_site.content.words import words
from marketing_site.services import console, console_bookings
from marketing_site.state.auth import AuthState, login_url

logger = logging.getLogger(__name__)

FILTER_FIELDS = ("search", "form", "lang", "date_from", "date_to", "mail_status", "flagged", "campaign", "source")
TRAFFIC_FIELDS = ("by", "from", "to")


class ConsoleState(rx.State):
    # checking | anonymous | forbidden | granted (only what the page shows; never trusted)
    access: str = "checking"
    # Leads: the filter as applied, the page of rows and the export link of the same filter.
    filters: dict[str, str] = {}
    sort: str = "created_at"
    descending: bool = True
    page: int = 1
    pages: int = 1
    total: int = 0
    rows: list[dict[str, str]] = []
    filter_error: str = ""
    export_href: str = routes.CONSOLE_LEADS_CSV
    # Traffic: the grouping and period as applied (ISO days), and the rows.
    traffic_by: str = "page"
    traffic_from: str = ""
    traffic_to: str = ""
    traffic: list[dict[str, str]] = []
    traffic_error: str = ""
    # Chart and funnel.
    weeks: list[dict[str, Any]] = []
    funnel_steps: list[dict[str, Any]] = []
    # Mail: the health report's counts and the messages that need an operator (failed, stuck,
    # late, retrying), with when mail last failed.
    health_status: str = ""
    outbox: dict[str, int] = {}
    last_mail_failure: str = ""
    mail_attention: list[dict[str, str]] = []
    requeued: int = -1
    # Bookings: the demos to come and the past ones, by day (services.console_bookings), whether
    # a list was cut, the team's zone, and the booking whose cancellation awaits its confirmation
    # (the same button clicked again).
    upcoming_bookings: list[dict[str, str]] = []
    past_bookings: list[dict[str, str]] = []
    bookings_cut: bool = False
    team_zone: str = ""
    cancel_asked: str = ""
    # Data-subject requests and the audit log.
    subject_email: str = ""
    subject_counts: list[dict[str, str]] = []
    subject_action: str = ""  # "found" | "erased"
    subject_error: bool = False
    # The erase button is enabled only once its confirmation box is ticked.
    erase_armed: bool = False
    audit: list[dict[str, str]] = []
    # What the last action did, said on the page: a key of console.outcomes, whether it worked,
    # a count where it has one, and the reference of a failure (also in the server log).
    outcome: str = ""
    outcome_ok: bool = True
    outcome_count: int = 0
    outcome_ref: str = ""

    # ------------------------------------------------------------------ access

    def _clear(self) -> None:
        self.rows, self.total, self.pages, self.weeks, self.funnel_steps = [], 0, 1, [], []
        self.traffic = []
        self.outbox, self.mail_attention, self.health_status, self.requeued = {}, [], "", -1
        self.last_mail_failure = ""
        self.upcoming_bookings, self.past_bookings, self.bookings_cut, self.cancel_asked = [], [], False, ""
        self.subject_email, self.subject_counts, self.subject_action, self.audit = "", [], "", []
        self.erase_armed = False
        self._say("")

    def _say(self, outcome: str, ok: bool = True, count: int = 0, ref: str = "") -> None:
        self.outcome, self.outcome_ok, self.outcome_count, self.outcome_ref = outcome, ok, count, ref

    def _operator(self) -> console.Operator | None:
        """The operator behind this websocket, or None (and the page emptied)."""
        access, operator = console.access_of(self.router.headers.cookie)
        if operator is None:
            logger.warning("console event refused: %s", access)
            self.access = access
            self._clear()
        return operator

    @rx.event
    async def load(self):
        """On page load (after AuthState.initialise): anonymous -> login and back; else show."""
        auth = await self.get_state(AuthState)
        self.access = "checking"
        # The session lookup is a database call: in a thread, off the event loop.
        access, operator = await asyncio.to_thread(console.access_of, self.router.headers.cookie)
        if operator is None:
            self.access = access
            self._clear()
            if access == "anonymous" and not auth.isLoading:
                return AuthState.go_to_backend(login_url(auth._current_path()))
            return None
        self.access = "granted"
        self._refresh_all()
        return None

    def _refresh_all(self) -> None:
        self._refresh_leads()
        self._refresh_traffic()
        self.weeks, steps = console.chart_and_funnel()
        # The chart's axis reads the label of the page's language (pages/console/charts.py).
        self.funnel_steps = [
            {**step, **{f"label_{lang}": words(lang, f"console.steps.{step['step']}") for lang in routes.LANGS}}
            for step in steps
        ]
        self._refresh_mail()
        self._refresh_bookings()
        self.audit = console.audit_entries()

    # ------------------------------------------------------------------ leads

    def _filter(self) -> console.LeadFilter:
        return console.LeadFilter.parse(
            {**self.filters, "sort": self.sort, "descending": self.descending, "page": self.page}
        )

    def _refresh_leads(self) -> None:
        try:
            f = self._filter()
        except console.FilterError as error:
            self.filter_error = error.field
            return
        self.filter_error = ""
        result = console.lead_page(f)
        self.rows, self.total, self.page, self.pages = result.rows, result.total, result.page, result.pages
        self.export_href = routes.CONSOLE_LEADS_CSV + "?" + urlencode(f.query())

    @rx.event
    def apply_filters(self, form_data: dict[str, Any]):
        if self._operator() is None:
            return
        values = {k: v.strip() for k in FILTER_FIELDS if isinstance(v := form_data.get(k, ""), str)}
        try:
            console.LeadFilter.parse(values)
        except console.FilterError as error:
            self.filter_error = error.field  # the table keeps the last valid filter
            self._say("filter_refused", ok=False)
            return
        self.filters, self.page = {k: v for k, v in values.items() if v}, 1
        self._refresh_leads()
        self._say("filtered", count=self.total)

    @rx.event
    def sort_by(self, column: str):
        if self._operator() is None:
            return
        if column not in console.SORTS:
            self.filter_error = "sort"
            self._say("sort_refused", ok=False)
            return
        self.descending = not self.descending if column == self.sort else column == "created_at"
        self.sort, self.page = column, 1
        self._refresh_leads()
        self._say("sorted", count=self.total)

    @rx.event
    def go_to_page(self, page: int):
        if self._operator() is None:
            return
        if not isinstance(page, int) or isinstance(page, bool):
            self.filter_error = "page"
            self._say("page_refused", ok=False)
            return
        self.page = max(1, page)
        self._refresh_leads()
        self._say("paged", count=self.page)

    # ------------------------------------------------------------------ traffic

    def _refresh_traffic(self) -> None:
        q = console.TrafficQuery.parse({"by": self.traffic_by, "from": self.traffic_from, "to": self.traffic_to})
        self.traffic_from, self.traffic_to = q.first.isoformat(), q.last.isoformat()
        self.traffic = console.traffic_rows(q)

    @rx.event
    def apply_traffic(self, form_data: dict[str, Any]):
        if self._operator() is None:
            return
        values = {k: v.strip() for k in TRAFFIC_FIELDS if isinstance(v := form_data.get(k, ""), str)}
        try:
            q = console.TrafficQuery.parse(values)
        except console.FilterError as error:
            self.traffic_error = error.field  # the table keeps the last valid choice
            self._say("traffic_refused", ok=False)
            return
        self.traffic_error = ""
        self.traffic_by, self.traffic_from, self.traffic_to = q.by, q.first.isoformat(), q.last.isoformat()
        self.traffic = console.traffic_rows(q)
        self._say("traffic_shown", count=len(self.traffic))

    # ------------------------------------------------------------------ mail

    def _refresh_mail(self) -> None:
        report, self.mail_attention = console.mail_overview()
        self.health_status = report["status"]
        outbox = report.get("outbox") or {}
        self.outbox = {k: int(outbox.get(k) or 0) for k in console.MAIL_COUNTS}
        last = outbox.get("last_failure_at")
        self.last_mail_failure = last.replace("T", " ")[:16] if last else ""

    @rx.event
    def refresh_mail(self):
        if self._operator() is None:
            return
        self._refresh_mail()
        self._say("mail_refreshed")

    @rx.event
    def retry_one(self, message_id: str):
        if self._operator() is None:
            return
        if not (isinstance(message_id, str) and message_id.isdigit()):
            self._say("requeued", ok=False)
            return
        self.requeued = console.retry_mail(int(message_id))
        self._refresh_mail()
        self._say("requeued", ok=self.requeued > 0, count=self.requeued)

    @rx.event
    def retry_all(self):
        if self._operator() is None:
            return
        self.requeued = console.retry_mail(None)
        self._refresh_mail()
        self._say("requeued", ok=self.requeued > 0, count=self.requeued)

    # ------------------------------------------------------------------ bookings

    def _refresh_bookings(self) -> None:
        self.upcoming_bookings, self.past_bookings, self.bookings_cut = console_bookings.booking_lists()
        self.team_zone = console_bookings.team_zone_name()

    @rx.event
    def refresh_bookings(self):
        if self._operator() is None:
            return
        self.cancel_asked = ""
        self._refresh_bookings()
        self._say("bookings_refreshed", count=len(self.upcoming_bookings))

    @rx.event
    def cancel_booking(self, booking_id: str):
        """The row's button: the first click asks for the confirmation (the button says so), the
        same button again cancels on the person's behalf (services.console_bookings)."""
        operator = self._operator()
        if operator is None:
            return
        shown = {row["id"] for row in self.upcoming_bookings if row["cancellable"]}
        if not isinstance(booking_id, str) or booking_id not in shown:
            self.cancel_asked = ""
            self._say("booking_refused", ok=False)
            return
        if self.cancel_asked != booking_id:
            self.cancel_asked = booking_id
            self._say("booking_cancel_asked")
            return
        self.cancel_asked = ""
        result = console_bookings.cancel_for_person(operator, int(booking_id))
        outcome = {"cancelled": "booking_cancelled", "already": "booking_already", "started": "booking_started"}
        self._say(outcome.get(result.status, "booking_gone"), ok=result.status == "cancelled")
        self._refresh_bookings()
        self._refresh_mail()
        self.audit = console.audit_entries()

    @rx.event
    def keep_booking(self):
        if self._operator() is None:
            return
        self.cancel_asked = ""
        self._say("booking_kept")

    # ------------------------------------------------------------------ data subjects

    def _show_subject(self, email: str, action: str, counts: dict[str, int]) -> None:
        self.subject_email, self.subject_action, self.subject_error = email, action, False
        self.subject_counts = [{"holder": k, "count": str(v)} for k, v in counts.items()]
        self.audit = console.audit_entries()
        self.erase_armed = False
        self._say(action, count=sum(counts.values()))

    @rx.event
    def lookup_subject(self, form_data: dict[str, Any]):
        operator = self._operator()
        if operator is None:
            return
        email = form_data.get("email")
        try:
            found = console.subject_data(operator, email if isinstance(email, str) else "", "lookup")
        except console.SubjectError:
            self.subject_error, self.subject_counts, self.subject_action = True, [], ""
            self._say("invalid_email", ok=False)
            return
        self._show_subject(console.normalise_email(str(email)), "found", {k: len(v) for k, v in found.items()})

    @rx.event
    def arm_erase(self, checked: bool):
        if self._operator() is None:
            return
        self.erase_armed = checked is True

    @rx.event
    def erase_subject(self, form_data: dict[str, Any]):
        operator = self._operator()
        if operator is None:
            return
        email = form_data.get("email")
        if not self.erase_armed:
            # The button is disabled until the box is ticked; an event sent anyway is refused aloud.
            self._say("erase_unconfirmed", ok=False)
            return
        self.erase_armed = False
        try:
            counts = console.erase_subject(operator, email if isinstance(email, str) else "")
        except console.SubjectError:
            self.subject_error = True
            self._say("invalid_email", ok=False)
            return
        except console.ErasureFailed as failure:
            self.audit = console.audit_entries()
            self._say("erase_failed", ok=False, ref=failure.reference)
            return
        except console.ErasurePartial as partial:
            # What was erased, and aloud that some of the person is still held (never "done").
            self._show_subject(console.normalise_email(str(email)), "erased", partial.erased)
            self._say("erase_partial", ok=False, count=sum(partial.remaining.values()))
            self._refresh_leads()
            self._refresh_mail()
            self._refresh_bookings()
            return
        self._show_subject(console.normalise_email(str(email)), "erased", counts)
        self._refresh_leads()
        self._refresh_mail()
        self._refresh_bookings()
