"""Every page the app registers: the route table's pages in each of their languages, and the
not-found page in each language, each with its layout, head and start-up events.

The app (`marketing_site.py`) adds these pages; the development loop (`devloop/`) builds the
same definitions again after a change, one page key at a time (a *group*: the page in all its
languages), and compiles only the groups the change feeds.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import reflex as rx

from marketing_site import routes, seo, structured_data
from marketing_site.components.layout import site_layout
from marketing_site.pages import not_found
from marketing_site.reflex_internals import exact_paths
from marketing_site.state.auth import AuthState

PageBody = Callable[[str], rx.Component]
# The group of the not-found pages (they are no page of the route table).
NOT_FOUND_GROUP = routes.NOT_FOUND_KEY


@dataclasses.dataclass(frozen=True)
class PageDefinition:
    """One route of the app: what `app.add_page` takes, and the group it belongs to."""

    group: str
    route: str
    render: Callable[[], rx.Component]
    title: str
    description: str
    image: str
    meta: Sequence[Any]
    on_load: list

    def add_page_arguments(self) -> dict[str, Any]:
        return {
            "component": self.render,
            "route": self.route,
            "title": self.title,
            "description": self.description,
            "image": self.image,
            "meta": list(self.meta),
            "on_load": self.on_load,
        }


def page_module(key: str) -> ModuleType:
    """The package of a page key: `page(lang)` and, when the page has state to initialise, `ON_LOAD`."""
    return importlib.import_module(f"marketing_site.pages.{key}")


# Every page's package, imported with the app (their states exist before the app is created).
for _page in routes.PAGES:
    page_module(_page.key)


def on_load_events(key: str) -> list:
    """Every page first initialises the authentication state (SPEC §4), then its own events."""
    own = getattr(page_module(key), "ON_LOAD", None)
    return [AuthState.initialise, *(own if isinstance(own, list | tuple) else [own] if own else [])]


def groups() -> list[str]:
    """Every group, in the order the app adds them."""
    return routes.page_keys()


def group_definitions(group: str, memo_module_per_group: bool = False) -> list[PageDefinition]:
    """The routes of one group. With `memo_module_per_group`, the components Reflex memoises on
    these pages go to a JS module of the group's own (the development loop compiles one group
    without the others); otherwise to the shared one (fewer bytes for a visitor who moves between
    public pages), but for pages with their own bundle."""
    if group == NOT_FOUND_GROUP:
        return [_not_found_definition(lang, memo_module_per_group) for lang in routes.LANGS]
    page = next(p for p in routes.PAGES if p.key == group)
    module = page_module(page.key)
    own_module = memo_module_per_group or getattr(module, "OWN_BUNDLE", False)
    definitions = []
    for lang, path in page.paths():
        text = seo.page_text(page.key, lang)
        definitions.append(
            PageDefinition(
                group=page.key,
                route=path,
                render=_render(path, module.page, module.__name__ if own_module else None),
                title=text["title"],
                description=text["description"],
                image=seo.og_image_url(page, lang),
                meta=[*seo.head_tags(page, lang), *structured_data.script_tags(page, lang)],
                on_load=on_load_events(page.key),
            )
        )
    return definitions


def definitions(memo_module_per_group: bool = False) -> list[PageDefinition]:
    """Every route of the app."""
    return [d for group in groups() for d in group_definitions(group, memo_module_per_group)]


def _render(path: str, body: PageBody, memo_module: str | None) -> Callable[[], rx.Component]:
    def render() -> rx.Component:
        return site_layout(path, body(routes.page_lang(path)))

    if memo_module:
        # Reflex writes a page's memoised components into a JS module named after the module
        # of its render function.
        render.__module__ = memo_module
    return render


def _not_found_definition(lang: str, memo_module_per_group: bool) -> PageDefinition:
    # Paths at the root keep the browser-language messages of single-language pages (SPEC §1);
    # under a language's prefix the page is in that language.
    fixed_lang = lang if routes.LANGUAGES[lang] else None
    text = seo.page_text("not_found", lang)

    def render() -> rx.Component:
        return site_layout(exact_paths.NOT_FOUND_PROBES[lang], not_found.page(fixed_lang))

    if memo_module_per_group:
        render.__module__ = f"marketing_site.pages.{NOT_FOUND_GROUP}"
    return PageDefinition(
        group=NOT_FOUND_GROUP,
        route=exact_paths.not_found_route(lang),
        render=render,
        title=text["title"],
        description=text["description"],
        image=seo.og_image_url(None, lang),
        meta=seo.head_tags(None, lang),
        on_load=[AuthState.initialise],  # a logged-in visitor's navbar, as on every page
    )


def add_pages(app: rx.App) -> None:
    """Register every route of the app."""
    for definition in definitions():
        app.add_page(**definition.add_page_arguments())
