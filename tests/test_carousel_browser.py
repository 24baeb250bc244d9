"""The testimonial carousel's autoplay in Chromium (issue 31, WCAG 2.2.2): the real
`assets/carousel.jsx` with the real React of the production build, mounted with props as
`components/carousel.py` passes them, so that the autoplay can be tried on without a build of its
own (the site's setting is off by default; tests/test_browser_pages.py checks the built pages).

The bundle is made once per session with Bun (Reflex's toolchain) from the build's node_modules.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from servers import ROOT

from marketing_site.components.carousel import carousel_props

BUN = ROOT / ".tools" / "node_modules" / ".bin" / "bun"
ENTRY = """
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { TestimonialCarousel } from "./carousel.jsx";
window.mountCarousel = (props) =>
  createRoot(document.getElementById("root")).render(createElement(TestimonialCarousel, props));
"""
# Quick, so the test is: a turn every 700 ms, a 100 ms slide.
AUTOPLAY_MS = 700


@pytest.fixture(scope="session")
def carousel_bundle(production_build, tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("carousel")
    shutil.copy2(ROOT / "assets" / "carousel.jsx", folder / "carousel.jsx")
    (folder / "entry.jsx").write_text(ENTRY)
    (folder / "node_modules").symlink_to(production_build / "node_modules")
    subprocess.run(
        [
            str(BUN),
            "build",
            "entry.jsx",
            "--outfile",
            "bundle.js",
            "--target",
            "browser",
            "--define",
            'process.env.NODE_ENV="production"',
        ],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    return (folder / "bundle.js").read_text()


def _mount(new_page, bundle: str, autoplay_ms: int, remembered_pause: bool | None = None, **context):
    page = new_page(**context)
    page.set_content('<!doctype html><html lang="fr"><body><div id="root"></div></body></html>')
    page.add_script_tag(content=bundle)
    props = carousel_props("fr")
    items = [props["items"][0], {**props["items"][0], "name": "Second Person", "quote": "Second quote."}]
    camel = {
        "items": items,
        "showControls": True,
        "slideMs": 100,
        "autoplayMs": autoplay_ms,
        "label": props["label"],
        "previousLabel": props["previous_label"],
        "nextLabel": props["next_label"],
        "pauseLabel": props["pause_label"],
        "playLabel": props["play_label"],
        "className": "carousel",
    }
    setter = ""
    if remembered_pause is not None:
        # As components/carousel.py passes them with autoplay on: the client variable and its setter.
        page.evaluate("() => { window.__pausedChanges = []; }")
        camel["rememberedPause"] = remembered_pause
        setter = ", onPausedChange: (v) => window.__pausedChanges.push(v)"
    page.evaluate(f"window.mountCarousel({{...{json.dumps(camel)}{setter}}})")
    carousel = page.locator("[data-moves]")
    carousel.wait_for()
    return page, carousel, props


def test_autoplay_advances_and_the_pause_control_stops_it(new_page, carousel_bundle, page_errors):
    page, carousel, props = _mount(new_page, carousel_bundle, AUTOPLAY_MS)
    page.mouse.move(0, 0)  # not over the carousel: hovering holds the rotation
    assert carousel.get_attribute("data-autoplay") == "rotating"
    page.wait_for_function("() => document.querySelector('[data-moves]').dataset.index === '1'", timeout=5000)
    page.wait_for_function("() => document.querySelector('[data-moves]').dataset.index === '0'", timeout=5000)
    pause = page.get_by_role("button", name=props["pause_label"])
    assert pause.is_visible()
    # Keyboard: the control is the first Tab stop; Enter pauses.
    page.keyboard.press("Tab")
    assert pause.evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")
    assert carousel.get_attribute("data-autoplay") == "paused"
    play = page.get_by_role("button", name=props["play_label"])
    moves = carousel.get_attribute("data-moves")
    page.wait_for_timeout(AUTOPLAY_MS * 2)
    assert carousel.get_attribute("data-moves") == moves  # paused: no turn
    # Enter again plays (focus on the control itself does not hold the rotation).
    assert play.evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")
    assert carousel.get_attribute("data-autoplay") == "rotating"
    page.wait_for_function(f"() => document.querySelector('[data-moves]').dataset.moves !== '{moves}'", timeout=5000)
    # With the pointer: a click pauses too.
    page.get_by_role("button", name=props["pause_label"]).click()
    page.mouse.move(0, 0)
    assert carousel.get_attribute("data-autoplay") == "paused"
    page.get_by_role("button", name=props["play_label"]).click()
    page.mouse.move(0, 0)
    assert carousel.get_attribute("data-autoplay") == "rotating"
    # Focus on previous/next holds it (the visitor is reading).
    page.keyboard.press("Tab")
    assert carousel.get_attribute("data-autoplay") == "paused"
    assert page_errors == []


def test_reduced_motion_starts_paused_with_play_offered(new_page, carousel_bundle):
    page, carousel, props = _mount(new_page, carousel_bundle, AUTOPLAY_MS, reduced_motion="reduce")
    page.mouse.move(0, 0)
    page.get_by_role("button", name=props["play_label"]).wait_for()
    page.wait_for_timeout(AUTOPLAY_MS * 2)
    assert carousel.get_attribute("data-autoplay") == "paused"
    assert carousel.get_attribute("data-moves") == "0"


def test_autoplay_off_has_no_pause_control(new_page, carousel_bundle):
    page, carousel, props = _mount(new_page, carousel_bundle, 0)
    assert carousel.get_attribute("data-autoplay") == "off"
    assert page.locator(".carousel__button--pause").count() == 0
    assert page.get_by_role("button", name=props["pause_label"]).count() == 0
    page.wait_for_timeout(AUTOPLAY_MS * 2)
    assert carousel.get_attribute("data-moves") == "0"


def test_a_pause_remembered_from_an_earlier_visit_holds_and_each_choice_is_told(new_page, carousel_bundle):
    """The visitor paused before (the client variable PAUSED, components/carousel.py): the
    carousel starts paused with Play offered; Play and Pause are told to the variable's setter."""
    page, carousel, props = _mount(new_page, carousel_bundle, AUTOPLAY_MS, remembered_pause=True)
    page.mouse.move(0, 0)
    play = page.get_by_role("button", name=props["play_label"])
    play.wait_for()
    page.wait_for_timeout(AUTOPLAY_MS * 2)
    assert carousel.get_attribute("data-autoplay") == "paused" and carousel.get_attribute("data-moves") == "0"
    play.click()
    page.mouse.move(0, 0)
    assert carousel.get_attribute("data-autoplay") == "rotating"
    page.get_by_role("button", name=props["pause_label"]).click()
    assert page.evaluate("window.__pausedChanges") == [False, True]
