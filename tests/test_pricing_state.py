"""Unit tests of the pricing state (SPEC §3/§4/§9), without a server or a browser."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from marketing_site.settings import get_settings
from marketing_site.state.pricing import PRICE_SETS, PricingState, price_set

PRICE_SET_VARIABLE = "PRICING_PRICE_SET"
ROOT = Path(__file__).resolve().parent.parent

DEFAULT = {"priceEngage": "8", "priceManage": "100", "priceInteract": "150", "priceComplete": ""}
ALTERNATE = {"priceEngage": "120", "priceManage": "150", "priceInteract": "200", "priceComplete": ""}


def _prices(state: PricingState) -> dict[str, str]:
    return {name: getattr(state, name) for name in DEFAULT}


def _new_state() -> PricingState:
    # The framework's own way to build a state outside an event; no server is involved.
    return PricingState(_reflex_internal_init=True)


def test_price_sets_follow_the_spec():
    assert price_set("default") == DEFAULT
    assert price_set("alternate") == ALTERNATE


def test_unknown_set_falls_back_to_default():
    assert price_set("promotion") == DEFAULT


def test_price_set_returns_a_copy():
    price_set("default")["priceEngage"] = "0"
    assert PRICE_SETS["default"]["priceEngage"] == "8"


@pytest.fixture(autouse=True)
def _fresh_settings():
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_setting_rejects_an_unknown_set(monkeypatch):
    monkeypatch.setenv(PRICE_SET_VARIABLE, "cheaper")
    with pytest.raises(ValueError, match="PRICING_PRICE_SET"):
        get_settings()


def test_state_starts_with_the_default_set():
    assert _prices(_new_state()) == DEFAULT


def test_switching_between_sets():
    state = _new_state()
    PricingState.use_alternate_prices.fn(state)
    assert _prices(state) == ALTERNATE
    PricingState.use_default_prices.fn(state)
    assert _prices(state) == DEFAULT


@pytest.mark.parametrize(("setting", "expected"), [("alternate", ALTERNATE), ("default", DEFAULT), ("", DEFAULT)])
def test_the_setting_gives_the_state_its_defaults(setting, expected):
    """PRICING_PRICE_SET is read when the state is defined (the build prerenders its defaults)."""
    code = (
        "import json; from marketing_site.state.pricing import PricingState as S; "
        f"print(json.dumps({{n: S.get_fields()[n].default for n in {list(DEFAULT)!r}}}))"
    )
    env = {**os.environ, PRICE_SET_VARIABLE: setting}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == expected


def test_offer_facts_follow_the_spec():
    """SPEC §1 (what each offer contains) and §9 (optional add-ons) in the one source."""
    from marketing_site.content.offers import FEATURES, INCLUDED, OFFERS, OPTIONAL

    assert OFFERS["interact"].includes == OFFERS["engage"].includes | OFFERS["manage"].includes
    assert OFFERS["complete"].includes > OFFERS["interact"].includes
    assert {"kyc_onboarding", "document_checklists"} <= OFFERS["complete"].includes
    assert {k: o.addons for k, o in OFFERS.items()} == {
        "engage": ("mobile_app", "aggregation"),
        "manage": ("portfolio_reporting", "optimisation"),
        "interact": ("aggregation", "optimisation"),
        "complete": ("aggregation", "optimisation", "kyc_lab"),
    }
    for offer in OFFERS.values():
        assert not offer.includes & set(offer.addons)
        assert set(offer.includes) <= set(FEATURES) and set(offer.addons) <= set(FEATURES)
        for item in offer.highlights:
            assert item in OFFERS or offer.status(item) == INCLUDED
        assert all(offer.status(service) == OPTIONAL for service in ("premium_support", "onboarding", "data_cleanup"))
