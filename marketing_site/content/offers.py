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
