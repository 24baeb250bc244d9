"""The console's audit log, and the indexes its lead table needs at 100,000 leads.

The audit log records who did what to whose data and how many rows it touched; never
the data itself. The subject is a keyed hash of the email (services.console.subject_key):
the team can check whether an address was looked up or erased by hashing it again, and
the log does not keep the address.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, func
from sqlmodel import Field, SQLModel

from marketing_site.db.leads import NEVER_REUSED_IDS, Lead, _timestamp, utcnow


class ConsoleAudit(SQLModel, table=True):
    """One action of an operator on personal data (lookup, download, erase, export)."""

    __tablename__ = "console_audit"
    __table_args__ = (NEVER_REUSED_IDS,)  # the console shows its ids

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(nullable=False, index=True))
    # The operator: the identity provider's subject and email (from the server-side session).
    actor_sub: str = Field(max_length=255)
    actor_email: str = Field(max_length=320)
    action: str = Field(max_length=20)  # lookup | download | erase | export
    # HMAC of the subject's email for data-subject actions; the filter (no names) for exports.
    subject: str = Field(max_length=500)
    # {"lead": 2, "outbox_message": 2, ...}: rows found or erased per holder.
    counts_json: str = Field(sa_column=Column(Text, nullable=False))


# Leads table indexes for the console's filters and sorts (declared here so the leads model
# stays as it is; they attach to the `lead` table). Case-insensitive email lookups for
# data-subject requests use the lower(email) expression index.
_lead = Lead.__table__.c  # type: ignore[attr-defined]  # SQLModel adds __table__ at run time, undeclared
LEAD_INDEXES = (
    Index("ix_lead_email_lower", func.lower(_lead.email)),
    Index("ix_lead_form_created_at", _lead.form, _lead.created_at),
    Index("ix_lead_lang_created_at", _lead.lang, _lead.created_at),
    # Covers the chart and funnel's one pass (date, form, language since six months ago).
    Index("ix_lead_created_at_form_lang", _lead.created_at, _lead.form, _lead.lang),
    Index("ix_lead_name", _lead.name),
    Index("ix_lead_company", _lead.company),
    # The campaign filter, and the traffic view's leads per campaign over a period.
    Index("ix_lead_utm_campaign_created_at", _lead.utm_campaign, _lead.created_at),
)
