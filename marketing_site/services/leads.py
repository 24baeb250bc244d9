"""Lead capture: validate, throttle, de-duplicate, then store the lead and its mail.

Every door (the JSON API today, any other tomorrow) goes through `submit_lead`. A lead and
its outbox row are written in one transaction; the outbox worker (services.mail) sends it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import time
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import lru_cache
from typing import Annotated, Any

import idna
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from marketing_site import metrics, routes
from marketing_site.content.downloads import document_for
from marketing_site.content.lead_forms import FORMS
from marketing_site.content.words import words
from marketing_site.db import new_session
from marketing_site.db.leads import Lead, OutboxMessage, utcnow
from marketing_site.services import mail
from marketing_site.services.audience import clean_attribution
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, address_key, make_rate_limiter
from marketing_site.settings import get_settings

MAX_FIELD_LENGTH = 200
MAX_TEXT_LENGTH = 5000
# The same submission again within this window is the same lead (double click, retry).
IDEMPOTENCY_WINDOW = timedelta(minutes=10)
MAX_CLIENT_KEY_LENGTH = 200  # of an Idempotency-Key header (the OpenAPI schema's maxLength)
HONEYPOT_FIELD = "website"
FORM_BY_SUBJECT = {definition["subject"]: key for key, definition in FORMS.items()}

# ----------------------------------------------------------------------------- contact-field rules
# One definition for both sides: the server matches these patterns with `re.fullmatch`, and the
# lead form puts them in the page as HTML `pattern` attributes (which browsers compile as
# JavaScript regular expressions with the `v` flag, anchored). So they use only syntax that both
# engines read the same way: explicit classes (no \d \w \s \p, whose meaning differs), four-digit \u
# escapes, every `( ) [ ] { } / - |` escaped inside a class, and no `\-` outside one.

_SPACE = r"[ \u00A0\u202F]"  # space, no-break space, narrow no-break space (pasted numbers)
# Anything but control characters, line breaks included (tab is allowed: pasted from a sheet),
# and the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): a
# name holding them is shown reversed or shuffled in the mail and the console.
_NOT_CONTROL = r"[^\x00-\x08\x0A-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069]"
# A character that is neither a control character nor a space of any kind.
_VISIBLE = r"[^\x00-\x20\x7F-\xA0\u1680\u2000-\u200B\u2028-\u202F\u205F\u2066-\u2069\u3000\uFEFF]"
TEXT_PATTERN = f"{_NOT_CONTROL}*{_VISIBLE}{_NOT_CONTROL}*"

_PHONE_CHAR = r"[0-9 \u00A0\u202F.\-\(\)\/]"
# An extension in words ("poste 12", "ext. 12", "x12", "(int. 12)") or "#12".
_EXTENSION = (
    r"(?:[ \u00A0\u202F,;]*\(?(?:[A-Za-z\u00C0-\u024F]+\.?[ \u00A0\u202F]*){1,3}[:#]?[ \u00A0\u202F]*[0-9]{1,6}\)?"
    r"|[ \u00A0\u202F]*#[0-9]{1,6})"
)
MIN_PHONE_DIGITS, MAX_PHONE_DIGITS = 6, 20
PHONE_PATTERN = (
    # 6 to 20 digits before any extension, counted by look-aheads on the number itself.
    rf"(?=[^0-9]*(?:[0-9][^0-9A-Za-z\u00C0-\u024F#]*){{{MIN_PHONE_DIGITS}}})"
    rf"(?![^0-9]*(?:[0-9][^0-9A-Za-z\u00C0-\u024F#]*){{{MAX_PHONE_DIGITS + 1}}})"
    rf"{_SPACE}*\(?\+?{_PHONE_CHAR}*[0-9]{_PHONE_CHAR}*{_EXTENSION}?{_SPACE}*"
)

_ATOM = r"[A-Za-z0-9!#$%&'*+\/=?^_`\{\|\}~\-]+"
_LABEL_CHAR = r"A-Za-z0-9\u00A1-\uFFFF"  # letters of any script: internationalised domains
_LABEL = rf"[{_LABEL_CHAR}](?:[{_LABEL_CHAR}\-]{{0,61}}[{_LABEL_CHAR}])?"
_TOP_LEVEL = r"(?:[A-Za-z\u00A1-\uFFFF]{2,63}|[Xx][Nn]--[A-Za-z0-9\-]{1,59})"
# local@domain.tld: a dot-atom local part of at most 64 characters (browsers refuse non-ASCII
# there), a domain with at least one dot (`ada@intranet` cannot be answered from outside).
EMAIL_PATTERN = rf"{_SPACE}*(?=[^@]{{1,64}}@){_ATOM}(?:\.{_ATOM})*@(?:{_LABEL}\.)+{_TOP_LEVEL}{_SPACE}*"


@dataclasses.dataclass(frozen=True)
class FieldRule:
    """How one contact field is typed in the browser and explained when refused."""

    input_type: str  # the HTML input type
    autocomplete: str
    pattern: str  # matched whole (`re.fullmatch`, the HTML `pattern` attribute)
    message: str  # key of the format message in the content's `field_errors`

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        # JSON Schema patterns are searched, not matched whole: anchor it for API clients.
        return {**handler(schema), "pattern": f"^(?:{self.pattern})$"}


def _contact(description: str | None = None, **schema: str) -> Any:
    """A required string of 1 to MAX_FIELD_LENGTH characters (strict: a number is refused)."""
    return Field(
        strict=True,
        min_length=1,
        max_length=MAX_FIELD_LENGTH,
        description=description,
        json_schema_extra=dict[str, JsonValue](schema) or None,
    )


class ContactFields(BaseModel):
    """The lead form's contact fields: the one definition of what is asked and accepted.

    The server validates with it (`validate_contact`), the API documents it
    (`contact_json_schema`, in the OpenAPI schema) and the browser form gets its field list,
    input attributes and messages from it (`contact_field_specs`). To add a field: a line
    here, its label in each `content/<lang>/lead_forms.yaml` and its line in the sales
    summary (`content/fr/lead_sales.yaml`), a column in `db/leads.py` and a migration.
    Other payload keys are ignored here (the API checks its own).
    """

    model_config = ConfigDict(extra="ignore")

    name: Annotated[str, FieldRule("text", "family-name", TEXT_PATTERN, "text"), _contact()]
    firstname: Annotated[str, FieldRule("text", "given-name", TEXT_PATTERN, "text"), _contact()]
    phone: Annotated[
        str,
        FieldRule("tel", "tel", PHONE_PATTERN, "phone"),
        _contact(
            "6 to 20 digits; spaces, dots, dashes, brackets, a leading + and an extension "
            '("poste 12", "ext. 12", "#12") are accepted.',
        ),
    ]
    company: Annotated[str, FieldRule("text", "organization", TEXT_PATTERN, "text"), _contact()]
    email: Annotated[
        str,
        FieldRule("email", "email", EMAIL_PATTERN, "email"),
        _contact(
            "local@domain.tld; internationalised domains are accepted, a domain without a dot is not.",
            format="email",
        ),
    ]

    @field_validator("*", mode="after")
    @classmethod
    def _matches_rule(cls, value: str, info: ValidationInfo) -> str:
        """The field's pattern, matched whole; the value cleaned: stripped, tabs as spaces, NFC."""
        pattern = _COMPILED.get(info.field_name or "")
        if pattern is None:  # a field of a subclass (LeadInput's form, lang)
            return value
        if not pattern.fullmatch(value):
            raise PydanticCustomError("mismatch", "does not match the field's pattern")
        return unicodedata.normalize("NFC", value.replace("\t", " ").strip(" \u00a0\u202f"))


CONTACT_FIELDS: dict[str, FieldRule] = {
    name: next(rule for rule in info.metadata if isinstance(rule, FieldRule))
    for name, info in ContactFields.model_fields.items()
}
FIELDS = tuple(CONTACT_FIELDS)
_COMPILED = {name: re.compile(rule.pattern) for name, rule in CONTACT_FIELDS.items()}


def contact_json_schema() -> dict[str, Any]:
    """The contact fields as JSON Schema (for the OpenAPI document)."""
    return ContactFields.model_json_schema()


def contact_field_specs(lang: str) -> list[dict[str, Any]]:
    """The contact fields as the browser form needs them: input attributes and the messages
    to show next to each field, in `lang` (the same rules `validate_contact` applies)."""
    text = words(lang, "lead_forms")
    messages = text["field_errors"]
    return [
        {
            "name": name,
            "type": rule.input_type,
            "autoComplete": rule.autocomplete,
            "pattern": rule.pattern,
            "maxLength": MAX_FIELD_LENGTH,
            "label": text["labels"][name],
            "messages": {
                "required": messages["required"],
                "tooLong": messages["too_long"],
                "mismatch": messages[rule.message],
            },
        }
        for name, rule in CONTACT_FIELDS.items()
    ]


@dataclasses.dataclass(frozen=True)
class ContactCheck:
    """The five contact fields, cleaned, or per-field messages in the visitor's language."""

    values: dict[str, str]
    errors: dict[str, str]
    # The email with an ASCII (IDNA) domain, for mail headers such as Reply-To.
    email_ascii: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors


def _ascii_domain(domain: str) -> str | None:
    """The IDNA (punycode) form of a domain, None if it cannot be encoded."""
    if domain.isascii():
        return domain.lower()
    try:
        return idna.encode(domain, uts46=True).decode("ascii")
    except idna.IDNAError:
        return None


def email_for_headers(email: str) -> str:
    """A stored (readable) email with its domain in ASCII (IDNA), for To, Reply-To and mailto."""
    local, _, domain = email.rpartition("@")
    return f"{local}@{_ascii_domain(domain) or domain}"


def _display_domain(ascii_domain: str) -> str:
    """The readable (Unicode) form of an ASCII domain, as stored with the lead."""
    if "xn--" not in ascii_domain:
        return ascii_domain
    try:
        return idna.decode(ascii_domain)
    except idna.IDNAError:
        return ascii_domain


def _message_key(error: Any) -> str:
    """Which of the content's `field_errors` explains a refusal of the model."""
    kind, value = error["type"], error["input"]
    if kind in ("missing", "string_too_short") or value is None:
        return "required"
    if kind == "string_too_long":
        return "too_long"
    if kind == "mismatch" and not value.strip():
        return "required"  # only spaces
    return CONTACT_FIELDS[error["loc"][0]].message


def validate_contact(values: Mapping[str, Any], lang: str = "fr") -> ContactCheck:
    """Check name, firstname, phone, company and email with the lead form's rules.

    The browser applies the same rules before sending (`contact_field_specs`); the server is
    the authority. Values are returned stripped and NFC-normalised (tabs become spaces), the
    email's domain lower-case and readable (IDN), and errors carry the messages shown next to
    the fields in `lang` (one of `routes.LANGS`).
    """
    messages = words(lang, "lead_forms.field_errors")
    try:
        cleaned = ContactFields.model_validate(values).model_dump()
    except ValidationError as refused:
        return ContactCheck(
            values={}, errors={str(error["loc"][0]): messages[_message_key(error)] for error in refused.errors()}
        )
    errors: dict[str, str] = {}
    email_ascii = ""
    if "email" in cleaned:
        local, _, domain = cleaned["email"].rpartition("@")
        ascii_domain = _ascii_domain(domain)
        if ascii_domain is None:
            errors["email"] = messages["email"]
        else:
            email_ascii = f"{local}@{ascii_domain}"
            cleaned["email"] = f"{local}@{_display_domain(ascii_domain)}"
    return ContactCheck(values=cleaned, errors=errors, email_ascii=email_ascii)


class LeadInput(ContactFields):
    """A lead ready to store: its contact fields (already checked by `validate_contact`: build it
    with `model_construct`), the form, the page's language and anti-bot flags."""

    model_config = ConfigDict(frozen=True)

    form: str
    lang: str
    email_ascii: str = ""
    # Anti-bot signals that cannot tell a person from a robot: the lead is kept and marked.
    flags: tuple[str, ...] = ()
    # Where the visit came from (db.leads.ATTRIBUTION, cleaned by services.audience).
    attribution: dict[str, str] = {}


@dataclasses.dataclass(frozen=True)
class SubmitResult:
    status: str  # accepted | invalid | rate_limited
    errors: dict[str, str] = dataclasses.field(default_factory=dict)
    retry_after: int = 0
    lead_id: int | None = None
    duplicate: bool = False


def validate(payload: Mapping[str, Any]) -> tuple[LeadInput | None, dict[str, str]]:
    """The lead described by an API payload (SPEC §7), or the per-field errors.

    Errors on the five contact fields are in the payload's language (the page's); the others
    (subject, lang, flags of the form) are for developers and in English.
    """
    errors: dict[str, str] = {}
    subject = payload.get("subject")
    form = FORM_BY_SUBJECT.get(subject) if isinstance(subject, str) else None
    if form is None:
        errors["subject"] = "Unknown subject: it must name one of the site's documents."
    lang = payload.get("lang", "fr")
    if lang not in routes.LANGS:
        errors["lang"] = f"Must be one of {', '.join(routes.LANGS)}."
    # The generic form of the original calls the first name `nom`.
    values = dict(payload)
    if values.get("firstname") in (None, "") and values.get("nom") not in (None, ""):
        values["firstname"] = values["nom"]
    contact = validate_contact(values, lang if lang in routes.LANGS else "fr")
    errors.update(contact.errors)
    text = payload.get("text")
    if text is not None and (not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH):
        errors["text"] = f"At most {MAX_TEXT_LENGTH} characters."
    for flag in ("mailSent", "error"):
        if payload.get(flag) not in (None, True, False):
            errors[flag] = "Must be a boolean."
    flags = []
    elapsed = payload.get("elapsedMs")
    if elapsed is not None and (not isinstance(elapsed, int | float) or isinstance(elapsed, bool)):
        errors["elapsedMs"] = "Must be a number of milliseconds."
    elif (
        elapsed is None
        or (isinstance(elapsed, float) and not math.isfinite(elapsed))  # ints are finite, floats not always
        or elapsed < get_settings().lead_min_fill_seconds * 1000
    ):
        # Autofill and a quick click look like this too. The form always sends its fill time:
        # none, NaN or an infinity is a robot skipping the check, so it counts as fast.
        flags.append("fast")
    if payload.get(HONEYPOT_FIELD):
        flags.append("honeypot")  # some autofill tools fill hidden fields
    if errors:
        return None, errors
    return (
        LeadInput.model_construct(
            None,  # every field is set
            form=form or "",
            lang=lang,
            email_ascii=contact.email_ascii,
            flags=tuple(flags),
            attribution=clean_attribution(payload.get("attribution")),
            **contact.values,
        ),
        {},
    )


@lru_cache(maxsize=1)
def _limiters() -> tuple[RateLimiter | RedisRateLimiter, RateLimiter | RedisRateLimiter]:
    settings = get_settings()
    window = settings.rate_limit_window_seconds
    return (
        make_rate_limiter(settings.rate_limit_per_ip, window),
        make_rate_limiter(settings.rate_limit_per_email, window),
    )


def scoped_idempotency_key(client_ip: str, client_key: str, parts: Iterable[Any]) -> str:
    """The stored key of a request sent with an `Idempotency-Key` header.

    Scoped to the client (its address) and to the payload (`parts`): a retry of the same
    request finds its first result, while someone else's key, or the same key with other
    details, is a request of its own (it never returns, nor swallows, another's lead).
    """
    texts = (part if isinstance(part, str) else "" for part in parts)
    material = "\x1f".join(("client", client_ip, client_key[:MAX_CLIENT_KEY_LENGTH], *texts))
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


def _idempotency_key(lead: LeadInput, client_ip: str, client_key: str | None) -> str:
    content = (lead.form, lead.lang, *(getattr(lead, name) for name in FIELDS))
    if client_key:
        return scoped_idempotency_key(client_ip, client_key, content)
    bucket = int(time.time() // IDEMPOTENCY_WINDOW.total_seconds())
    material = f"content:{bucket}:" + "\x1f".join(content).lower()
    return hashlib.sha256(material.encode()).hexdigest()


def summary_text(lead: LeadInput) -> str:
    """The multi-line summary of SPEC §3 (first name, name, phone, email, company), then the
    document and its language, and any anti-bot flag for the sales team to weigh."""
    sales = words("fr", "lead_sales")
    text = sales["summary"].format(**{name: getattr(lead, name) for name in FIELDS})
    if lead.form in FORMS:  # a download (a demo booking's lead has no document)
        document = document_for(FORMS[lead.form]["document"], lead.lang)
        language = sales["document_languages"].get(lead.lang, lead.lang)
        text += sales["document"].format(display_name=document["display_name"], language=language) + "\n"
    for flag in lead.flags:
        text += sales["flag"].format(reason=sales["flags"][flag]) + "\n"
    return text + attribution_text(lead.attribution)


def attribution_text(attribution: Mapping[str, str]) -> str:
    """Where the visit came from, one line per known value, for the sales mail."""
    labels = words("fr", "lead_sales.attribution")
    return "".join(
        labels["line"].format(label=labels[key], value=value) + "\n"
        for key, value in attribution.items()
        if value and key in labels
    )


def submit_lead(payload: Mapping[str, Any], client_ip: str, client_key: str | None = None) -> SubmitResult:
    """Validate, rate-limit, store the lead and its outbox mail in one transaction."""
    per_ip, per_email = _limiters()
    wait = per_ip.hit(f"ip:{client_ip}")
    if wait is not None:
        metrics.LEADS_REFUSED.labels(reason="rate_limited_ip").inc()
        return SubmitResult("rate_limited", retry_after=math.ceil(wait))
    lead, errors = validate(payload)
    if lead is None:
        metrics.LEADS_REFUSED.labels(reason="invalid").inc()
        return SubmitResult("invalid", errors=errors)
    key = _idempotency_key(lead, client_ip, client_key or None)
    existing = _find_recent(key)
    if existing is not None:
        metrics.LEADS_DUPLICATE.inc()
        return SubmitResult("accepted", lead_id=existing, duplicate=True)
    wait = per_email.hit(f"email:{address_key(lead.email)}", token=key)
    if wait is not None:
        metrics.LEADS_REFUSED.labels(reason="rate_limited_email").inc()
        return SubmitResult("rate_limited", retry_after=math.ceil(wait))
    try:
        lead_id = _store(lead, key)
    except IntegrityError:  # a concurrent twin of this submission won the race
        existing = _find_recent(key)
        metrics.LEADS_DUPLICATE.inc()
        return SubmitResult("accepted", lead_id=existing, duplicate=True)
    metrics.LEADS_ACCEPTED.inc()
    mail.wake_worker()
    return SubmitResult("accepted", lead_id=lead_id)


def _find_recent(key: str) -> int | None:
    with new_session() as session:
        row = session.exec(select(Lead).where(Lead.idempotency_key == key)).first()
        return row.id if row is not None else None


def _store(lead: LeadInput, key: str) -> int:
    settings = get_settings()
    with new_session() as session, session.begin():
        row = Lead(
            idempotency_key=key,
            flags=",".join(lead.flags),
            form=lead.form,
            lang=lead.lang,
            **{name: getattr(lead, name) for name in FIELDS},
            **dict[str, Any](lead.attribution),
        )
        session.add(row)
        session.flush()
        assert row.id is not None  # the flush gave the row its id
        session.add(
            OutboxMessage(
                lead_id=row.id,
                message_id=mail.new_message_id(),
                mail_from=settings.mail_from,
                mail_to=settings.lead_mail_to,
                reply_to=lead.email_ascii or lead.email,
                subject=FORMS[lead.form]["subject"],
                body=summary_text(lead),
                next_attempt_at=utcnow(),
            )
        )
        return row.id
