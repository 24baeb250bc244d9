"""Partial hydration (reflex_internals/hydration.py) and the trimmed frontend build (frontend_build.py).

The parts of a page that need no JavaScript keep their prerendered DOM through hydration,
everything interactive still hydrates, links inside kept parts still navigate client-side,
and a page reached by client-side navigation reads the same as its prerendered HTML. The build ships no runtime CSS.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
import reflex as rx

from marketing_site import routes
from marketing_site.components.links import link
from marketing_site.reflex_internals.frontend_build import add_site_plugin, runtime_css_props
from marketing_site.reflex_internals.hydration import MIN_REGION_NODES, StaticHtml, keep_static_regions
from marketing_site.state.pricing import PricingState

HYDRATED = "() => window.__reactRouterDataRouter !== undefined"


def _static_section(**props) -> rx.Component:
    items = [rx.el.li(link(f"Page {i}", f"/page-{i}")) for i in range(MIN_REGION_NODES)]
    return rx.el.section(rx.el.h2("Title"), rx.el.ul(*items), **props)


# -- the tree transformation --------------------------------------------------------------


def test_a_static_section_becomes_a_region_with_the_same_tag_and_props():
    region = keep_static_regions(_static_section(id="offres", class_name="section", aria_label="Offres"))
    assert isinstance(region, StaticHtml)
    rendered = str(region)
    assert 'element:"section"' in rendered
    for prop in ('["id"] : "offres"', '["className"] : "section"', '["aria-label"] : "Offres"'):
        assert prop in rendered
    assert "ref:" not in rendered.split("},", 1)[0]  # the element's React ref is not kept
    assert 'jsx(ReactRouterLink,{to:"/page-0"}' in rendered  # children still compiled


@pytest.mark.parametrize(
    "interactive",
    [
        rx.el.p(PricingState.priceEngage),  # reads state
        rx.el.button("Go", on_click=PricingState.use_alternate_prices),  # an event handler
        rx.el.input(name="email"),  # a form control
        rx.el.p("styled", style={"color": "red"}),  # runtime CSS
        rx.fragment(StaticHtml.create(rx.el.p("x"))),  # a client component
    ],
    ids=["state", "event", "form-control", "style", "client-component"],
)
def test_interactive_content_stays_hydrated_and_its_static_siblings_become_regions(interactive):
    page = rx.el.div(_static_section(), rx.el.div(interactive, class_name="widget"), class_name="page")
    result = keep_static_regions(page)
    assert not isinstance(result, StaticHtml)
    first, second = result.children
    assert isinstance(first, StaticHtml)
    assert not isinstance(second, StaticHtml)


def test_small_static_parts_and_document_links_are_left_alone():
    small = rx.el.p("A short line", class_name="note")
    assert keep_static_regions(small) is small
    backend = rx.el.section(
        rx.el.h2("Login"),
        *[rx.el.p(f"Line {i}") for i in range(MIN_REGION_NODES)],
        rx.el.a("Log in", href="/auth/login", reload_document=True),
    )
    assert not isinstance(keep_static_regions(backend), StaticHtml)


# -- the build ----------------------------------------------------------------------------


def test_the_site_plugin_is_added_once_to_reflex_vite_config():
    config = 'import { defineConfig } from "vite";\nexport default defineConfig(() => ({\n  plugins: [\n    reactRouter(),\n  ],\n}));\n'
    once = add_site_plugin(config)
    assert once.count("    siteFrontend({") == 1 and once.startswith("import siteFrontend from ")
    assert add_site_plugin(once) == once
    with pytest.raises(RuntimeError):
        add_site_plugin("export default {};")


def test_a_css_prop_in_compiled_code_is_found(tmp_path):
    (tmp_path / "app" / "routes").mkdir(parents=True)
    (tmp_path / "app" / "routes" / "ok.jsx").write_text('jsx("div",{className:"card"})')
    (tmp_path / "app" / "routes" / "styled.jsx").write_text('jsx("div",{css:({ ["color"] : "red" })})')
    assert runtime_css_props(tmp_path) == ["app/routes/styled.jsx"]


def test_the_built_site_ships_no_runtime_css(site):
    from marketing_site.reflex_internals.exact_paths import static_dir_of_build

    web_dir = static_dir_of_build().parent.parent
    assert runtime_css_props(web_dir) == []
    scripts = "".join(p.read_text(errors="replace") for p in (static_dir_of_build() / "assets").glob("*.js"))
    # Emotion's runtime (its <style data-emotion> sheets, its css-prop marker) is not shipped.
    assert "data-emotion" not in scripts and "EMOTION_TYPE" not in scripts


# -- in Chromium ----------------------------------------------------------------------------


def _hold_hydration(page) -> list:
    """Hold the React DOM module back: the page stays as prerendered until released."""
    held: list = []
    page.route(re.compile(r".*/assets/entry\.client-[^/]*\.js$"), lambda route: held.append(route))  # noqa: PLW0108 - Playwright tags the handler with an attribute: a bound builtin cannot carry one
    return held


@pytest.mark.browser
@pytest.mark.parametrize("path", [routes.HOME.fr, routes.PRICING.en, routes.FEATURE_PORTAL.fr])
def test_hydration_keeps_the_prerendered_nodes_of_static_regions(new_page, page_errors, site, path):
    page = new_page(width=390, height=844)
    held = _hold_hydration(page)
    page.goto(site + quote(path, safe="/"), wait_until="domcontentloaded")
    page.wait_for_function("() => document.readyState === 'complete'")
    page.wait_for_timeout(200)
    assert held, "the React DOM module was requested"
    # Tag every node of the prerendered page, then let React hydrate it.
    before = page.evaluate(
        """() => { const all = document.querySelectorAll('main *, footer *');
                   all.forEach((n) => { n.__prerendered = true; }); return all.length; }"""
    )
    for route in held:
        route.continue_()
    page.wait_for_function(HYDRATED)
    page.wait_for_timeout(300)
    kept = page.evaluate(
        """() => { const all = [...document.querySelectorAll('main *, footer *')];
                   return { count: all.length, kept: all.filter((n) => n.__prerendered).length }; }"""
    )
    assert kept["count"] == before and kept["kept"] == before, kept
    assert page_errors == []
    # What is interactive did hydrate: the mobile menu opens.
    page.locator(".site-header__toggle").click()
    assert page.locator(".site-header").get_attribute("data-menu-open") == "true"


@pytest.mark.browser
def test_links_in_kept_regions_navigate_client_side_and_render_the_prerendered_content(new_page, page_errors, site):
    page = new_page()
    page.goto(site + routes.HOME.fr)
    page.wait_for_function(HYDRATED)
    page.evaluate("window.__sameDocument = true")
    near_top = "(id) => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 200"
    # The hero's second button scrolls to the solutions (SPEC §2).
    page.locator("main .hero a[href='/#solutions']").click()
    page.wait_for_function(near_top, arg="solutions")
    target = routes.PRICING.fr
    page.locator(f"main .card a[href='{target}#interact']").click()
    page.wait_for_url(site + quote(target, safe="/") + "#interact")
    page.locator("#interact").wait_for()
    # At the offer asked for, below the sticky header.
    page.wait_for_function(near_top, arg="interact")
    assert page.evaluate("window.__sameDocument === true"), "a client-side navigation, not a page load"
    # React rendered the destination itself: it reads as the prerendered page does.
    prerendered = new_page(java_script_enabled=False)
    prerendered.goto(site + quote(target, safe="/"))
    assert page.locator("main").inner_text() == prerendered.locator("main").inner_text()
    # Back to the home page, still the same document.
    page.go_back()
    page.wait_for_url(site + "/#solutions")
    page.locator("#solutions").wait_for()
    assert page.evaluate("window.__sameDocument === true")
    assert page_errors == []
