"""Global Privacy Control, Do Not Track and the privacy policy's opt-out mean no page-view
beacon and no attribution sent with a form (docs/audience.md), checked on the page's own code
(assets/site_ui.jsx) in Bun without a build or a browser: tests/js/page_view.mjs renders the
page frame with stand-ins for React and the browser's globals. The same journeys in Chromium
are in tests/test_browser_audience.py."""

from __future__ import annotations

import json
import subprocess

import pytest
from servers import ROOT

BUN = ROOT / ".tools" / "node_modules" / ".bin" / "bun"
OPT_OUT = {"nereo_audience_opt_out": "1"}


def visit(**scenario) -> dict:
    """What the page frame did for one page view in a browser described by `scenario`."""
    if not BUN.exists():
        pytest.fail(f"{BUN} is missing: `make install` installs bun")
    scenario.setdefault("navigator", {})
    done = subprocess.run(
        [
            str(BUN),
            str(ROOT / "tests" / "js" / "page_view.mjs"),
            str(ROOT / "assets" / "site_ui.jsx"),
            json.dumps(scenario),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "scenario",
    [
        {},
        {"navigator": {"globalPrivacyControl": False}},
        {"navigator": {"doNotTrack": "0"}},
        {"navigator": {"doNotTrack": "unspecified"}},
        {"navigator": {"doNotTrack": None}},
        {"windowDoNotTrack": "0"},
        {"storage": {"nereo_audience_opt_out": "0"}},
        {"storageBlocked": True},
    ],
)
def test_without_a_signal_the_view_is_counted_with_its_attribution(scenario):
    done = visit(**scenario)
    assert done["refused"] == ""
    assert done["beacons"] == [
        {
            "url": "/api/v1/audience",
            "body": {
                "path": "/fr/page",
                "lang": "fr",
                "device": "desktop",
                "referrer": "search.example",
                "utm_source": "news",
                "utm_medium": "",
                "utm_campaign": "kyc",
                "utm_content": "",
                "utm_term": "",
            },
        }
    ]
    assert done["attribution"]["landing_page"] == "/fr/page"
    assert done["attribution"]["referrer"] == "search.example"


@pytest.mark.parametrize(
    ("scenario", "reason"),
    [
        ({"navigator": {"globalPrivacyControl": True}}, "gpc"),
        ({"navigator": {"globalPrivacyControl": True, "doNotTrack": "0"}}, "gpc"),
        ({"navigator": {"doNotTrack": "1"}}, "dnt"),
        ({"windowDoNotTrack": "1"}, "dnt"),  # older Safari and Internet Explorer
        ({"navigator": {"doNotTrack": "1"}, "storage": OPT_OUT}, "dnt"),
        ({"storage": OPT_OUT}, "opt-out"),
    ],
)
def test_a_signal_or_the_opt_out_sends_nothing(scenario, reason):
    done = visit(**scenario)
    assert done["refused"] == reason
    assert done["beacons"] == []
    assert done["attribution"] == {}  # the lead and booking forms send no attribution either
