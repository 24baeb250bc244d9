"""The facts of the four offers (SPEC §1 and §9), in one place and in no language.

The pricing page (cards: price, unit, what is included, optional add-ons) and the compare
table (one row per feature, one column per offer) are both derived from `OFFERS`, so the
two pages cannot disagree; structured data can use the same. The words naming the
features are `features` in `content/<lang>/offers.yaml`; each page's other words are in its
own file there.

- Engage: the white-label client portal. Manage: the advisor CRM.
- Interact: Engage plus Manage. Complete: Interact plus KYC onboarding.
- Optional add-ons, per offer, exactly as SPEC §9 lists them; the add-on services
  (support, onboarding, data clean-up) are optional on every offer.

What the pages say about the offers besides the matrix is data here too: the plan the pricing
page highlights (`HIGHLIGHTED`, its badge's words `highlight_badge` in the offers YAML) and the
footnotes (`FOOTNOTES`: a mark after what a note qualifies, the note's words `notes.<key>` in
the offers YAML). A wrong key fails here, at import, naming the footnote.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

OFFER_KEYS = ("engage", "manage", "interact", "complete")
OFFER_NAMES = {"engage": "Engage", "manage": "Manage", "interact": "Interact", "complete": "Complete"}
# Each offer's colour (a theme CSS variable), shared by the pricing cards and the compare guide.
OFFER_ACCENTS = {"engage": "premium", "manage": "relationclient", "interact": "blue-flash", "complete": "compliance"}

# A feature's status in an offer.
Status = Literal["yes", "option", "no"]
INCLUDED: Status = "yes"
OPTIONAL: Status = "option"
NOT_INCLUDED: Status = "no"

# Price sets of SPEC §9 (the `PRICING_PRICE_SET` setting picks one); amounts without currency.
DEFAULT_SET, ALTERNATE_SET = "default", "alternate"
PRICE_SETS = (DEFAULT_SET, ALTERNATE_SET)

# Every feature, grouped as the compare table shows them.
FEATURE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "portal",
        (
            "white_label_portal",
            "portfolio_reporting",
            "document_sharing",
            "targeted_content",
            "secure_chat",
            "mobile_app",
        ),
    ),
    (
        "crm",
        ("alerts", "tasks", "calendar_sync", "meeting_notes", "client_file", "contact_groups", "sales_pipeline"),
    ),
    ("wealth", ("aggregation", "optimisation")),
    ("compliance", ("kyc_onboarding", "document_checklists", "compliance_controls", "profile_updates", "kyc_lab")),
    ("security", ("two_factor",)),
    ("services", ("premium_support", "onboarding", "data_cleanup")),
)
FEATURES = tuple(feature for _, features in FEATURE_GROUPS for feature in features)
# Paid services offered on top of any offer.
ADDON_SERVICES = ("premium_support", "onboarding", "data_cleanup")

_PORTAL = (
    "white_label_portal",
    "portfolio_reporting",
    "document_sharing",
    "targeted_content",
    "secure_chat",
    "two_factor",
)
_CRM = (
    "alerts",
    "tasks",
    "calendar_sync",
    "meeting_notes",
    "client_file",
    "contact_groups",
    "sales_pipeline",
    "two_factor",
)
_KYC = ("kyc_onboarding", "document_checklists", "compliance_controls", "profile_updates")


@dataclasses.dataclass(frozen=True)
class Offer:
    key: str
    # Features included in the subscription.
    includes: frozenset[str]
    # Optional add-on features (SPEC §9), in the order the pricing card lists them.
    addons: tuple[str, ...]
    # What the pricing card lists under "included", in order: feature keys, or an offer
    # key meaning "everything in that offer".
    highlights: tuple[str, ...]
    unit: Literal["per_client", "per_user", "quote"]
    # Amount per price set; "" = on quote.
    prices: dict[str, str]
    # A per-client amount added to the per-user price (Interact), "" when none.
    client_price: str = ""

    def status(self, feature: str) -> Status:
        if feature in self.includes:
            return INCLUDED
        if feature in self.addons or feature in ADDON_SERVICES:
            return OPTIONAL
        return NOT_INCLUDED


OFFERS: dict[str, Offer] = {
    "engage": Offer(
        "engage",
        includes=frozenset(_PORTAL),
        addons=("mobile_app", "aggregation"),
        highlights=(
            "white_label_portal",
            "portfolio_reporting",
            "document_sharing",
            "targeted_content",
            "secure_chat",
            "two_factor",
        ),
        unit="per_client",
        prices={DEFAULT_SET: "8", ALTERNATE_SET: "120"},
    ),
    "manage": Offer(
        "manage",
        includes=frozenset(_CRM),
        addons=("portfolio_reporting", "optimisation"),
        highlights=("client_file", "alerts", "tasks", "calendar_sync", "contact_groups", "sales_pipeline"),
        unit="per_user",
        prices={DEFAULT_SET: "100", ALTERNATE_SET: "150"},
    ),
    "interact": Offer(
        "interact",
        includes=frozenset(_PORTAL + _CRM),
        addons=("aggregation", "optimisation"),
        highlights=("engage", "manage", "meeting_notes"),
        unit="per_user",
        prices={DEFAULT_SET: "150", ALTERNATE_SET: "200"},
        client_price="8",
    ),
    "complete": Offer(
        "complete",
        includes=frozenset(_PORTAL + _CRM + _KYC),
        addons=("aggregation", "optimisation", "kyc_lab"),
        highlights=("interact", "kyc_onboarding", "document_checklists", "compliance_controls", "profile_updates"),
        unit="quote",
        prices={DEFAULT_SET: "", ALTERNATE_SET: ""},
    ),
}


def status(offer: str, feature: str) -> Status:
    """Whether `feature` is included in, optional on, or absent from `offer`."""
    return OFFERS[offer].status(feature)


# The plan the pricing page puts forward (SPEC §9: Interact, "most popular"): its card stands out
# with the badge `highlight_badge` of content/<lang>/offers.yaml and the primary button, and the
# compare page's guide shows the same badge on its card. None: no plan is put forward.
HIGHLIGHTED: str | None = "interact"


@dataclasses.dataclass(frozen=True)
class Footnote:
    """A note qualifying some features or some offers' prices.

    Its mark follows what it qualifies: a feature's name on the pricing cards and in the compare
    table, an offer's price on its pricing card. The note itself (`notes.<key>` in each
    content/<lang>/offers.yaml) is listed, with its mark, below the cards and below the table,
    on the pages that show one of its marks.
    """

    key: str
    # Shown as written ("1", "*", "†"); one mark per footnote.
    mark: str
    features: tuple[str, ...] = ()
    # Offer keys whose price the note qualifies.
    prices: tuple[str, ...] = ()


FOOTNOTES: tuple[Footnote, ...] = (
    # The automated KYC-LAB checks are a partner's service.
    Footnote("kyc_lab_partner", "1", features=("kyc_lab",)),
)


def feature_notes(feature: str) -> tuple[Footnote, ...]:
    """The footnotes qualifying a feature, in the order of `FOOTNOTES`."""
    return tuple(note for note in FOOTNOTES if feature in note.features)


def price_notes(offer: str) -> tuple[Footnote, ...]:
    """The footnotes qualifying an offer's price, in the order of `FOOTNOTES`."""
    return tuple(note for note in FOOTNOTES if offer in note.prices)


def check(highlighted: str | None, footnotes: tuple[Footnote, ...]) -> None:
    """The highlighted plan and the footnotes name what exists, each footnote and each mark once."""
    if highlighted is not None and highlighted not in OFFERS:
        raise ValueError(f"HIGHLIGHTED names no offer: {highlighted!r} (one of {', '.join(OFFER_KEYS)}, or None)")
    for field in ("key", "mark"):
        values = [getattr(note, field) for note in footnotes]
        if repeated := sorted({v for v in values if values.count(v) > 1}):
            raise ValueError(f"FOOTNOTES: each footnote needs a {field} of its own, {repeated} are repeated")
    for note in footnotes:
        if not note.mark.strip():
            raise ValueError(f"footnote {note.key!r}: its mark is empty")
        if not note.features and not note.prices:
            raise ValueError(f"footnote {note.key!r} qualifies nothing: give it features or prices")
        if unknown := [f for f in note.features if f not in FEATURES]:
            raise ValueError(f"footnote {note.key!r}: unknown features {unknown} (see FEATURE_GROUPS)")
        if unknown := [o for o in note.prices if o not in OFFERS]:
            raise ValueError(f"footnote {note.key!r}: unknown offers {unknown} (one of {', '.join(OFFER_KEYS)})")


check(HIGHLIGHTED, FOOTNOTES)
