"""The pricing state of SPEC §3/§4/§9: a default and an alternate price set.

Prices are amounts without currency (the page adds € or $). `priceComplete` is an empty
string: Complete is sold on quote, and the page shows its "on quote" label whenever the
value is empty (a future published price would simply be a non-empty amount).

Which set the pages show is the `PRICING_PRICE_SET` setting ("default" or "alternate",
`marketing_site.settings`), read when the site is built: it gives the state's defaults, which
the prerendered pages carry, so the configured prices are on the first paint and need no
websocket (an anonymous reader of the pricing page opens none: `frontend_build.py`). The
backend, started with the same setting, holds the same defaults.
"""

from __future__ import annotations

import reflex as rx

from marketing_site.content.offers import ALTERNATE_SET, DEFAULT_SET, OFFERS
from marketing_site.content.offers import PRICE_SETS as SET_NAMES
from marketing_site.settings import get_settings

# The state's var names, mapped to each set's amounts (from the offers' facts).
PRICE_SETS: dict[str, dict[str, str]] = {
    name: {f"price{offer.key.capitalize()}": offer.prices[name] for offer in OFFERS.values()} for name in SET_NAMES
}


def price_set(name: str) -> dict[str, str]:
    """The amounts of the named set; an unknown name gives the default set."""
    return dict(PRICE_SETS.get(name, PRICE_SETS[DEFAULT_SET]))


# The set of the `PRICING_PRICE_SET` setting: the state's defaults.
CONFIGURED = price_set(get_settings().pricing_price_set)


class PricingState(rx.State):
    """The four displayed prices; event handlers switch between the two sets."""

    priceEngage: str = CONFIGURED["priceEngage"]
    priceManage: str = CONFIGURED["priceManage"]
    priceInteract: str = CONFIGURED["priceInteract"]
    priceComplete: str = CONFIGURED["priceComplete"]

    def _apply_price_set(self, name: str) -> None:
        for var_name, amount in price_set(name).items():
            setattr(self, var_name, amount)

    @rx.event
    def use_default_prices(self) -> None:
        self._apply_price_set(DEFAULT_SET)

    @rx.event
    def use_alternate_prices(self) -> None:
        self._apply_price_set(ALTERNATE_SET)
