"""Lead capture: validate, throttle, de-duplicate, then store the lead and its mail.

Every door (the JSON API today, any other tomorrow) goes through `submit_lead`. A lead and
its outbox row are written in one transaction; the outbox worker (services.mail) sends it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
import unicodedata
from collections.abc import Mapping
from datetime import timedelta
from functools import lru_cache
from typing import Any

from email_validator import EmailNotValidError, validate_email
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from marketing_site.content.lead_forms import FORMS
from marketing_site.db import new_session
from marketing_site.db.leads import Lead, OutboxMessage, utcnow
from marketing_site.services import mail
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, make_rate_limiter
from marketing_site.settings import get_settings

MAX_FIELD_LENGTH = 200
MAX_TEXT_LENGTH = 5000
# The same submission again within this window is the same lead (double click, retry).
IDEMPOTENCY_WINDOW = timedelta(minutes=10)
HONEYPOT_FIELD = "website"
FIELDS = ("name", "firstname", "phone", "company", "email")
FORM_BY_SUBJECT = {definition["subject"]: key for key, definition in FORMS.items()}


@dataclasses.dataclass(frozen=True)
class LeadInput:
    form: str
    lang: str
    name: str
    firstname: str
    phone: str
    company: str
    email: str


@dataclasses.dataclass(frozen=True)
class SubmitResult:
    status: str  # accepted | invalid | rate_limited
    errors: dict[str, str] = dataclasses.field(default_factory=dict)
    retry_after: int = 0
    lead_id: int | None = None
    duplicate: bool = False


def _clean(value: Any, field: str, errors: dict[str, str]) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        errors[field] = "This field is required."
        return ""
    if not isinstance(value, str):
        errors[field] = "Must be a string."
        return ""
    if len(value) > MAX_FIELD_LENGTH:
        errors[field] = f"At most {MAX_FIELD_LENGTH} characters."
        return ""
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        errors[field] = "Control characters (including line breaks) are not allowed."
        return ""
    return unicodedata.normalize("NFC", value.strip())


def _check_phone(phone: str, errors: dict[str, str]) -> None:
    digits = sum(ch.isdigit() for ch in phone)
    allowed = set("0123456789+-.() /")
    if not set(phone) <= allowed or not 6 <= digits <= 20 or "+" in phone[1:]:
        errors["phone"] = "Enter a phone number (6 to 20 digits)."


def _check_email(email: str, errors: dict[str, str]) -> str:
    try:
        return validate_email(email, check_deliverability=False).normalized
    except EmailNotValidError as error:
        errors["email"] = str(error)
        return email


def validate(payload: Mapping[str, Any]) -> tuple[LeadInput | None, dict[str, str]]:
    """The lead described by an API payload (SPEC §7), or the per-field errors."""
    errors: dict[str, str] = {}
    if payload.get(HONEYPOT_FIELD):
        errors[HONEYPOT_FIELD] = "Must be empty."
    subject = payload.get("subject")
    form = FORM_BY_SUBJECT.get(subject) if isinstance(subject, str) else None
    if form is None:
        errors["subject"] = "Unknown subject: it must name one of the site's documents."
    lang = payload.get("lang", "fr")
    if lang not in ("fr", "en"):
        errors["lang"] = "Must be fr or en."
    # The generic form of the original calls the first name `nom`.
    values = dict(payload)
    if values.get("firstname") in (None, "") and values.get("nom") not in (None, ""):
        values["firstname"] = values["nom"]
    cleaned = {field: _clean(values.get(field), field, errors) for field in FIELDS}
    if cleaned["phone"] and "phone" not in errors:
        _check_phone(cleaned["phone"], errors)
    if cleaned["email"] and "email" not in errors:
        cleaned["email"] = _check_email(cleaned["email"], errors)
    text = payload.get("text")
    if text is not None and (not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH):
        errors["text"] = f"At most {MAX_TEXT_LENGTH} characters."
    for flag in ("mailSent", "error"):
        if payload.get(flag) not in (None, True, False):
            errors[flag] = "Must be a boolean."
    elapsed = payload.get("elapsedMs")
    if elapsed is not None:
        min_ms = get_settings().lead_min_fill_seconds * 1000
        if not isinstance(elapsed, int | float) or elapsed < min_ms:
            errors["elapsedMs"] = "The form was submitted too fast."
    if errors:
        return None, errors
    return LeadInput(form=form or "", lang=lang, **cleaned), {}


@lru_cache(maxsize=1)
def _limiters() -> tuple[RateLimiter | RedisRateLimiter, RateLimiter | RedisRateLimiter]:
    settings = get_settings()
    window = settings.rate_limit_window_seconds
    return (
        make_rate_limiter(settings.rate_limit_per_ip, window),
        make_rate_limiter(settings.rate_limit_per_email, window),
    )


def _idempotency_key(lead: LeadInput, client_key: str | None) -> str:
    if client_key:
        material = f"client:{client_key}"
    else:
        bucket = int(time.time() // IDEMPOTENCY_WINDOW.total_seconds())
        fields = "\x1f".join(dataclasses.astuple(lead)).lower()
        material = f"content:{bucket}:{fields}"
    return hashlib.sha256(material.encode()).hexdigest()


def summary_text(lead: LeadInput) -> str:
    """The multi-line summary of SPEC §3: first name, name, phone, email, company."""
    return (
        f"Prénom : {lead.firstname}\n"
        f"Nom : {lead.name}\n"
        f"Téléphone : {lead.phone}\n"
        f"Email : {lead.email}\n"
        f"Société : {lead.company}\n"
    )


def submit_lead(
    payload: Mapping[str, Any], client_ip: str, client_key: str | None = None
) -> SubmitResult:
    """Validate, rate-limit, store the lead and its outbox mail in one transaction."""
    per_ip, per_email = _limiters()
    wait = per_ip.hit(f"ip:{client_ip}")
    if wait is not None:
        return SubmitResult("rate_limited", retry_after=math.ceil(wait))
    lead, errors = validate(payload)
    if lead is None:
        return SubmitResult("invalid", errors=errors)
    key = _idempotency_key(lead, (client_key or "")[:200] or None)
    existing = _find_recent(key)
    if existing is not None:
        return SubmitResult("accepted", lead_id=existing, duplicate=True)
    wait = per_email.hit(f"email:{lead.email.lower()}", token=key)
    if wait is not None:
        return SubmitResult("rate_limited", retry_after=math.ceil(wait))
    try:
        lead_id = _store(lead, key)
    except IntegrityError:  # a concurrent twin of this submission won the race
        existing = _find_recent(key)
        return SubmitResult("accepted", lead_id=existing, duplicate=True)
    mail.wake_worker()
    return SubmitResult("accepted", lead_id=lead_id)


def _find_recent(key: str) -> int | None:
    with new_session() as session:
        row = session.exec(select(Lead).where(Lead.idempotency_key == key)).first()
        return row.id if row is not None else None


def _store(lead: LeadInput, key: str) -> int:
    settings = get_settings()
    with new_session() as session, session.begin():
        row = Lead(idempotency_key=key, **dataclasses.asdict(lead))
        session.add(row)
        session.flush()
        session.add(
            OutboxMessage(
                lead_id=row.id,
                message_id=mail.make_message_id(row.id),
                mail_from=settings.mail_from,
                mail_to=settings.lead_mail_to,
                reply_to=lead.email,
                subject=FORMS[lead.form]["subject"],
                body=summary_text(lead),
                next_attempt_at=utcnow(),
            )
        )
        return row.id  # type: ignore[return-value]
