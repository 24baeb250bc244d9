"""The consent banner's rules for any list of purposes (issue 31), in Bun without a build or a
browser: tests/js/consent_store.mjs mounts `assets/consent.jsx`'s ConsentManager with the props
Python gives it (`components.consent.consent_props`) and a stored cookie, then reports which
scripts it injected, what it grants and whether it asks. tests/test_consent.py checks the same
in Chromium on the built site; this covers every combination of stored answers cheaply.
"""

from __future__ import annotations

import json
import subprocess
from urllib.parse import parse_qs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from servers import ROOT

from marketing_site.components import consent
from marketing_site.content.consent import PURPOSES

BUN = ROOT / ".tools" / "node_modules" / ".bin" / "bun"
SCRIPTS = {"analytics": "https://stats.example/a.js", "marketing": "https://tags.example/m.js"}


def banner(
    props: dict,
    cookie: str = "",
    calls: list | None = None,
    consent_jsx=ROOT / "assets" / "consent.jsx",
    protocol: str = "http:",
) -> dict:
    """What the banner did with these props, this cookie and these `nereoConsent` calls, on a
    page served over `protocol`."""
    if not BUN.exists():
        pytest.fail(f"{BUN} is missing: `make install` installs bun")
    scenario = {"props": props, "cookie": cookie, "calls": calls or [], "protocol": protocol}
    done = subprocess.run(
        [str(BUN), str(ROOT / "tests" / "js" / "consent_store.mjs"), str(consent_jsx), json.dumps(scenario)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def as_jsx_props(props: dict) -> dict:
    """Props as the JSX receives them: Reflex writes `cookie_name` as `cookieName`."""
    camel = lambda name: name.split("_")[0] + "".join(part.title() for part in name.split("_")[1:])
    return {camel(key): value for key, value in props.items()}


def site_props() -> dict:
    """The English banner's props, each purpose with a script of its own."""
    props = as_jsx_props(dict(consent.consent_props("en")))
    props["purposes"] = [{**p, "scripts": [SCRIPTS[p["key"]]]} for p in props["purposes"]]
    return props


def stored(**answers: str) -> str:
    return f"{consent.COOKIE_NAME}=" + "&".join(["v=1", *(f"{k}={v}" for k, v in answers.items()), "ts=1700000000"])


def test_nothing_loads_and_the_banner_asks_without_a_choice():
    assert banner(site_props()) == {
        "scripts": [],
        "has": {"analytics": False, "marketing": False},
        "cookie": None,
        "set_cookie": None,
        "visible": True,
    }


def test_the_earlier_analytics_only_cookie_keeps_audience_and_asks_for_marketing():
    """Before issue 31 one box, "audience and conversion measurement", was stored as `analytics`:
    it stays consent to audience measurement only, and the banner asks again."""
    done = banner(site_props(), stored(analytics="1"))
    assert done["scripts"] == [SCRIPTS["analytics"]]
    assert done["has"] == {"analytics": True, "marketing": False}
    assert done["visible"] is True


def test_a_grant_answers_its_purpose_only():
    done = banner(site_props(), calls=[["grant", "marketing"]])
    assert done["scripts"] == [SCRIPTS["marketing"]]
    written = parse_qs(done["cookie"].partition("=")[2])
    assert written["marketing"] == ["1"] and "analytics" not in written  # still to be asked


ANSWER = st.sampled_from(["absent", "0", "1", "yes", ""])


@settings(max_examples=25)
@given(answers=st.fixed_dictionaries({p.key: ANSWER for p in PURPOSES}), version=st.sampled_from(["1", "1", "0", "2"]))
def test_each_purpose_loads_its_scripts_only_when_its_stored_answer_grants_it(answers, version):
    cookie = f"{consent.COOKIE_NAME}=" + "&".join(
        [f"v={version}", *(f"{k}={v}" for k, v in answers.items() if v != "absent")]
    )
    done = banner(site_props(), cookie)
    valid = version == "1"
    # Injected in the order of PURPOSES, whatever the order of the cookie's pairs.
    granted = [p.key for p in PURPOSES if valid and answers[p.key] == "1"]
    assert done["scripts"] == [SCRIPTS[key] for key in granted]
    assert done["has"] == {key: key in granted for key in answers}
    # Asked again unless every purpose has a valid stored answer.
    assert done["visible"] is (not valid or any(value not in ("0", "1") for value in answers.values()))
    assert done["cookie"] is None  # reading writes nothing
