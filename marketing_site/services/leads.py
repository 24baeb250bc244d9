"""Lead capture: validate, throttle, de-duplicate, then store the lead and its mail.

Every door (the JSON API today, any other tomorrow) goes through `submit_lead`. A lead and
its outbox row are written in one transaction; the outbox worker (services.mail) sends it.

The fields a person fills in are declared here once (`FormFields`) for every form that takes
them: the download forms and the demo booking (`services.booking` stores its person as a lead
of form `demo`). A field asks on every form unless its rule names the forms that ask it.
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
from functools import cache, lru_cache
from typing import Annotated, Any, Literal, TypedDict

import idna
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    ValidationInfo,
    create_model,
    field_validator,
)
from pydantic_core import PydanticCustomError
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from marketing_site import metrics, routes
from marketing_site.content.downloads import document_for
from marketing_site.content.lead_forms import DOWNLOAD_FORMS, FORM_KEYS
from marketing_site.content.words import words
from marketing_site.db import new_session
from marketing_site.db.leads import Lead, OutboxMessage, utcnow
from marketing_site.services import contact_patterns, mail, mail_headers
from marketing_site.services.audience import clean_attribution
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, address_key, make_rate_limiter
from marketing_site.settings import get_settings

MAX_FIELD_LENGTH = 200
MAX_TEXT_LENGTH = 5000
# The same submission again within this window is the same lead (double click, retry).
IDEMPOTENCY_WINDOW = timedelta(minutes=10)
MAX_CLIENT_KEY_LENGTH = 200  # of an Idempotency-Key header (the OpenAPI schema's maxLength)
HONEYPOT_FIELD = "website"
FORM_BY_SUBJECT = {definition["subject"]: key for key, definition in DOWNLOAD_FORMS.items()}

# ----------------------------------------------------------------------------- form-field rules
# The character rules are `services.contact_patterns`'; a field is declared here with one of them.
TEXT_PATTERN = contact_patterns.TEXT_PATTERN
MULTILINE_PATTERN = contact_patterns.MULTILINE_PATTERN
EMAIL_PATTERN = contact_patterns.EMAIL_PATTERN
PHONE_PATTERN = contact_patterns.PHONE_PATTERN

FieldKind = Literal["text", "email", "tel", "textarea", "select"]


@dataclasses.dataclass(frozen=True)
class FieldRule:
    """What one form field is: its kind, whether it is required, its rule and its message, and
    the forms that ask it.

    The words (label, a select's option labels, messages) are in `content/<lang>/lead_forms.yaml`:
    `labels.<field>`, `options.<field>.<value>`, `field_errors.<message>`.
    """

    kind: FieldKind  # text, email and tel are <input type>; textarea; select (one of `options`)
    autocomplete: str
    pattern: str  # matched whole (`re.fullmatch`, the HTML `pattern` attribute); a select's is its options
    message: str  # key of the format message in the content's `field_errors`
    required: bool = True  # optional: an empty value is accepted and stored empty
    options: tuple[str, ...] = ()  # a select's values, in the order shown
    # The forms that ask it (keys of content.lead_forms.FORM_KEYS: a download form, or `demo` for the
    # demo booking); empty: every form. Another form neither shows nor accepts it: stored empty.
    forms: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.kind == "select") != bool(self.options):
            raise ValueError("a select field lists its options, and only a select does")
        unknown = [form for form in self.forms if form not in FORM_KEYS]
        if unknown:  # a misspelt form would make the field ask on none, silently
            raise ValueError(f"unknown form(s) {unknown}: a field asks on some of {', '.join(FORM_KEYS)}")

    def asked_on(self, form: str | None) -> bool:
        """Whether `form` asks this field (None: a form not known, which every-form fields only fit)."""
        return not self.forms or form in self.forms

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        # JSON Schema patterns are searched, not matched whole: anchor it for API clients. An
        # optional field also takes the empty string.
        if self.options:
            return {**handler(schema), "enum": [*([""] if not self.required else []), *self.options]}
        pattern = f"^(?:{self.pattern})$" if self.required else f"^(?:{self.pattern})?$"
        return {**handler(schema), "pattern": pattern}


def select_rule(
    *options: str, required: bool = True, autocomplete: str = "off", forms: tuple[str, ...] = ()
) -> FieldRule:
    """A select of `options` (values; their labels are words): nothing else is accepted."""
    return FieldRule("select", autocomplete, "|".join(map(re.escape, options)), "choice", required, options, forms)


def _required(description: str | None = None, **schema: str) -> Any:
    """A required string of 1 to MAX_FIELD_LENGTH characters (strict: a number is refused)."""
    return Field(
        strict=True,
        min_length=1,
        max_length=MAX_FIELD_LENGTH,
        description=description,
        json_schema_extra=dict[str, JsonValue](schema) or None,
    )


def _optional(description: str | None = None, max_length: int = MAX_FIELD_LENGTH) -> Any:
    """An optional string: absent, null or empty is stored empty (strict: a number is refused)."""
    return Field(default="", strict=True, max_length=max_length, description=description)


class _FieldChecks(BaseModel):
    """What every form's model checks, field by field, with the field's rule (the fields are
    `FormFields`'; each form's model, `form_model`, holds those its form asks)."""

    model_config = ConfigDict(extra="ignore")

    @field_validator("*", mode="before")
    @classmethod
    def _optional_null_is_empty(cls, value: Any, info: ValidationInfo) -> Any:
        """An optional field sent as null is an empty one."""
        rule = FIELD_RULES.get(info.field_name or "")
        return "" if value is None and rule is not None and not rule.required else value

    @field_validator("*", mode="after")
    @classmethod
    def _matches_rule(cls, value: str, info: ValidationInfo) -> str:
        """The field's pattern, matched whole; the value cleaned: stripped, tabs as spaces, NFC.
        An optional field left empty (or only spaces) is stored empty."""
        pattern = _COMPILED.get(info.field_name or "")
        if pattern is None:  # a field of a subclass (LeadInput's form, lang)
            return value
        if not FIELD_RULES[info.field_name or ""].required and not value.strip(" \u00a0\u202f\t"):
            return ""
        if not pattern.fullmatch(value) or not contact_patterns.is_text(value):
            raise PydanticCustomError("mismatch", "does not match the field's pattern")
        return unicodedata.normalize("NFC", value.replace("\t", " ").strip(" \u00a0\u202f"))


class FormFields(_FieldChecks):
    """The fields a person fills in on the site's forms (the download forms and the demo booking):
    the one definition of what is asked and accepted, and where.

    The server validates with it (`validate_fields(form, values, lang)`, through the form's own
    model: the fields that form asks), the API documents it (`fields_json_schema`, in the
    OpenAPI schema) and the browser forms get their field list, kinds, input attributes and
    messages from it (`field_specs(form, lang)`); the store, the sales mail, the CSV exports
    and the console take every field listed here. To add a field (docs/recipes.md, recipes c
    and g): a line here (`Annotated[str, FieldRule(...), _required()]`, or `_optional()` for an
    optional one; `select_rule(...)` for a select; `forms=(...)` in the rule for some forms
    only), its label (and a select's option labels) in each `content/<lang>/lead_forms.yaml`, a
    column in `db/leads.py` and a migration. Other payload keys are ignored here (the API
    checks its own).
    """

    name: Annotated[str, FieldRule("text", "family-name", TEXT_PATTERN, "text"), _required()]
    firstname: Annotated[str, FieldRule("text", "given-name", TEXT_PATTERN, "text"), _required()]
    phone: Annotated[
        str,
        FieldRule("tel", "tel", PHONE_PATTERN, "phone"),
        _required(
            "6 to 20 digits; spaces, dots, dashes, brackets, a leading + and an extension "
            '("poste 12", "ext. 12", "#12") are accepted.',
        ),
    ]
    company: Annotated[str, FieldRule("text", "organization", TEXT_PATTERN, "text"), _required()]
    email: Annotated[
        str,
        FieldRule("email", "email", EMAIL_PATTERN, "email"),
        _required(
            "local@domain.tld; internationalised domains are accepted, a domain without a dot is not.",
            format="email",
        ),
    ]


FIELD_RULES: dict[str, FieldRule] = {
    name: next(rule for rule in info.metadata if isinstance(rule, FieldRule))
    for name, info in FormFields.model_fields.items()
}
# Every form field, in the declared order: the lead's columns (a form that does not ask one stores it empty).
FIELD_NAMES = tuple(FIELD_RULES)
_COMPILED = {name: re.compile(rule.pattern) for name, rule in FIELD_RULES.items()}
_FREE_TEXT = re.compile(contact_patterns.MULTILINE_CHARACTERS)


def fields_of(form: str | None) -> tuple[str, ...]:
    """The fields `form` asks, in the declared order (None: those every form asks)."""
    return tuple(name for name, rule in FIELD_RULES.items() if rule.asked_on(form))


@cache
def form_model(form: str | None) -> type[_FieldChecks]:
    """The model that checks what `form` sends: `FormFields`' fields that this form asks."""
    declared = FormFields.model_fields
    fields: dict[str, Any] = {name: (declared[name].annotation, declared[name]) for name in fields_of(form)}
    return create_model(f"FormFields_{form or 'any'}", __base__=_FieldChecks, **fields)


def fields_json_schema(forms: Iterable[str]) -> dict[str, Any]:
    """The fields of `forms` as JSON Schema (for the OpenAPI document): a field some of them
    ask only is listed with the forms that ask it, and is required by none."""
    forms = tuple(forms)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for form in forms:
        schema = form_model(form).model_json_schema()
        properties.update(schema["properties"])
        required += [name for name in schema.get("required", []) if name not in required]
    for name, rule in FIELD_RULES.items():
        if name in properties and not all(rule.asked_on(form) for form in forms):
            asked = f"Asked by the form(s) {', '.join(rule.forms)} only."
            described = properties[name].get("description")
            properties[name] = {**properties[name], "description": f"{described} {asked}" if described else asked}
            required = [field for field in required if field != name]
    return {"type": "object", "properties": properties, "required": required}


class FieldMessages(TypedDict):
    required: str
    tooLong: str
    mismatch: str


class FieldOption(TypedDict):
    value: str
    label: str


class FieldSpec(TypedDict):
    """One field as `FormFields` in `assets/lead_form.jsx` renders it (keys as the JSX reads them)."""

    name: str
    kind: str  # text | email | tel | textarea | select
    required: bool
    autoComplete: str
    pattern: str  # an <input>'s; empty for a textarea or a select (the server checks those)
    maxLength: int
    label: str
    options: list[FieldOption]  # a select's, with the empty choice first; else empty
    messages: FieldMessages


def field_label(name: str, lang: str) -> str:
    """A field's label without the form's required mark (for the mail, the console)."""
    return words(lang, "lead_forms.labels")[name].rstrip("* ")


def option_label(name: str, value: str, lang: str) -> str:
    """The words of a select's value (the value itself when it has none)."""
    return words(lang, "lead_forms").get("options", {}).get(name, {}).get(value, value)


def field_specs(form: str, lang: str) -> list[FieldSpec]:
    """The fields `form` asks, as the browser form needs them: kind, whether required, input
    attributes, a select's options and the messages to show next to each field, in `lang` (the
    same rules `validate_fields` applies)."""
    text = words(lang, "lead_forms")
    messages = text["field_errors"]
    return [
        FieldSpec(
            name=name,
            kind=rule.kind,
            required=rule.required,
            autoComplete=rule.autocomplete,
            pattern=rule.pattern if rule.kind in ("text", "email", "tel") else "",
            maxLength=MAX_FIELD_LENGTH,
            label=text["labels"][name],
            options=[
                FieldOption(value="", label=text.get("choose", "")),
                *(FieldOption(value=value, label=option_label(name, value, lang)) for value in rule.options),
            ]
            if rule.options
            else [],
            messages=FieldMessages(
                required=messages["required"],
                tooLong=messages["too_long"],
                mismatch=messages[rule.message],
            ),
        )
        for name, rule in FIELD_RULES.items()
        if rule.asked_on(form)
    ]


@dataclasses.dataclass(frozen=True)
class FieldsCheck:
    """A form's fields, cleaned (every field: those the form does not ask are empty), or
    per-field messages in the visitor's language."""

    values: dict[str, str]
    errors: dict[str, str]
    # The email with an ASCII (IDNA) domain, for mail headers such as Reply-To.
    email_ascii: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors


def _ascii_domain(domain: str) -> str | None:
    """The IDNA (punycode) form of a domain as mail headers write it, None if they cannot."""
    try:
        return mail_headers.ascii_domain(domain)
    except mail_headers.HeaderRefused:
        return None


def email_for_headers(email: str) -> str:
    """A stored (readable) email with its domain in ASCII (IDNA), for To, Reply-To and mailto."""
    local, _, domain = email.rpartition("@")
    return f"{local}@{_ascii_domain(domain) or domain}"


def _display_domain(ascii_domain: str) -> str:
    """The readable (Unicode) form of an ASCII domain, as stored with the lead: the ASCII form
    itself unless the readable one is written back to exactly it."""
    if "xn--" not in ascii_domain:
        return ascii_domain
    try:
        readable = idna.decode(ascii_domain)
    except idna.IDNAError:
        return ascii_domain
    return readable if _ascii_domain(readable) == ascii_domain else ascii_domain


def _message_key(error: Any) -> str:
    """Which of the content's `field_errors` explains a refusal of the model."""
    kind, value = error["type"], error["input"]
    if kind in ("missing", "string_too_short") or value is None:
        return "required"
    if kind == "string_too_long":
        return "too_long"
    if kind == "mismatch" and not value.strip():
        return "required"  # only spaces
    return FIELD_RULES[error["loc"][0]].message


def validate_fields(form: str | None, values: Mapping[str, Any], lang: str = "fr") -> FieldsCheck:
    """Check the fields `form` asks (a key of `FORM_KEYS`; None: only those every form asks)
    with their rules; a field the form does not ask is ignored and comes back empty.

    The browser applies the same rules before sending (`field_specs`); the server is the
    authority. Values are returned stripped and NFC-normalised (tabs become spaces), the
    email's domain lower-case and readable (IDN), and errors carry the messages shown next to
    the fields in `lang` (one of `routes.LANGS`).
    """
    messages = words(lang, "lead_forms.field_errors")
    try:
        cleaned = {**dict.fromkeys(FIELD_NAMES, ""), **form_model(form).model_validate(values).model_dump()}
    except ValidationError as refused:
        return FieldsCheck(
            values={}, errors={str(error["loc"][0]): messages[_message_key(error)] for error in refused.errors()}
        )
    errors: dict[str, str] = {}
    email_ascii = ""
    if "email" in cleaned:
        forms = _email_forms(cleaned["email"])
        if forms is None:
            errors["email"] = messages["email"]
        else:
            cleaned["email"], email_ascii = forms
    return FieldsCheck(values=cleaned, errors=errors, email_ascii=email_ascii)


def _email_forms(email: str) -> tuple[str, str] | None:
    """(stored, ASCII) forms of a cleaned email: the domain readable (Unicode, lower-case) as the
    lead keeps it, and in IDNA for headers; None when mail cannot carry the address.

    One rule for intake and sending: an address is accepted only when `mail_headers.mailbox`,
    which writes every address header the outbox sends, writes it (`x@y.xn--a-` matches the
    form's pattern, and no header can carry it)."""
    try:
        box = mail_headers.mailbox(email)
    except mail_headers.HeaderRefused:
        return None
    return f"{box.local}@{_display_domain(box.domain)}", box.addr_spec


def email_lookup_forms(email: str) -> frozenset[str]:
    """Every lower-case form under which this site may hold an address, from any way of writing it.

    Intake (`validate_fields`) stores an email stripped, NFC, its domain readable and lower-case;
    mail headers carry the domain in IDNA. So an address typed with another case, in NFD, or with
    its domain in punycode or Unicode gives the same forms here, and a data-subject lookup or
    erasure finds what intake stored. The domain's IDNA 2003 mapping is one more form: IDNA 2008
    (what intake writes) keeps ß and ς, IDNA 2003 maps them to ss and σ, so `faß.example` and
    `fass.example` are one address to a mail program of either age (two writings are one address
    when their forms meet). The local part is ASCII (the pattern's dot-atom): lower-case compares it as
    SQL's lower() does. An address the form would refuse (a provider's claim such as
    `user@localhost`) still gives its stripped, NFC, lower-case self."""
    value = unicodedata.normalize("NFC", (email or "").replace("\t", " ").strip(" \u00a0\u202f\n\r"))
    forms = {value.lower()}
    if "@" in value:
        converted = _email_forms(value)
        if converted is not None:
            forms.update(form.lower() for form in converted)
        forms |= {
            f"{local}@{mapped}"
            for local, _, domain in (form.rpartition("@") for form in forms)
            for mapped in _idna2003_forms(domain)
        }
    return frozenset(form for form in forms if form)


def _idna2003_forms(domain: str) -> set[str]:
    """A domain as IDNA 2003 writes it (Python's `idna` codec, nameprep: ß → ss, ς → σ), in ASCII
    and readable; none when it has no such form."""
    try:
        readable = idna.decode(domain) if "xn--" in domain else domain
    except idna.IDNAError:
        readable = domain
    try:
        ascii_form = readable.encode("idna").decode("ascii").lower()
        return {ascii_form, ascii_form.encode("ascii").decode("idna").lower()}
    except UnicodeError:
        return set()


class LeadInput(FormFields):
    """A lead ready to store: its form's fields (already checked by `validate_fields`: build it
    with `model_construct`, every field given), the form, the page's language and anti-bot flags."""

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

    Errors on the form's fields are in the payload's language (the page's); the others
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
    contact = validate_fields(form, values, lang if lang in routes.LANGS else "fr")
    errors.update(contact.errors)
    text = payload.get("text")
    if text is not None and (not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH):
        errors["text"] = f"At most {MAX_TEXT_LENGTH} characters."
    elif isinstance(text, str) and not (_FREE_TEXT.fullmatch(text) and contact_patterns.is_text(text)):
        errors["text"] = "No control, text-direction or non-text characters (line breaks are fine)."
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
    content = (lead.form, lead.lang, *(getattr(lead, name) for name in FIELD_NAMES))
    if client_key:
        return scoped_idempotency_key(client_ip, client_key, content)
    bucket = int(time.time() // IDEMPOTENCY_WINDOW.total_seconds())
    material = f"content:{bucket}:" + "\x1f".join(content).lower()
    return hashlib.sha256(material.encode()).hexdigest()


def summary_text(lead: LeadInput) -> str:
    """The multi-line summary of SPEC §3 (first name, name, phone, email, company), then the
    other fields the lead's form asks, the document and its language, and any anti-bot flag for
    the sales team to weigh."""
    sales = words("fr", "lead_sales")
    text = sales["summary"].format(**{name: getattr(lead, name) for name in FIELD_NAMES})
    # A field the summary does not name (added since) gets a line of its own, empty or not, on
    # the forms that ask it.
    for name in fields_of(lead.form):
        if "{" + name + "}" not in sales["summary"]:
            value = getattr(lead, name, "")
            shown = option_label(name, value, "fr") if value else sales["empty"]
            text += sales["other_field"].format(label=field_label(name, "fr"), value=shown) + "\n"
    if lead.form in DOWNLOAD_FORMS:  # a download (a demo booking's lead has no document)
        document = document_for(DOWNLOAD_FORMS[lead.form]["document"], lead.lang)
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
            **{name: getattr(lead, name) for name in FIELD_NAMES},
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
                subject=DOWNLOAD_FORMS[lead.form]["subject"],
                body=summary_text(lead),
                next_attempt_at=utcnow(),
            )
        )
        return row.id
