"""Hydrate what is interactive, keep the rest of the prerendered page as it is.

Every page is prerendered; React then hydrates the whole document: it renders every
component again in the browser and walks every DOM node to attach itself. On a marketing
page most of that work buys nothing: the text, cards, images and links of a section do not
change after the first paint. On a mid-range phone it is most of the page's main-thread time
(Lighthouse's "total blocking time").

`keep_static_regions` walks a page's component tree before it is compiled and replaces each
largest subtree that needs no JavaScript by a `StaticHtml` element of the same tag and props
(assets/site_ui.jsx): during hydration React keeps that element's prerendered content without
building a fiber for any node inside it; after a client-side navigation the region renders
normally. A subtree needs no JavaScript when it is made of plain HTML elements, text and
react-router links only, with no event handler, no state or hook, no runtime style and no
form control. Anything else (the navbar's widgets, forms, the pricing switch, the carousel,
state-dependent parts) stays hydrated, and so do the elements around it.

Links inside a kept region are plain anchors to React; `StaticHtml` gives them react-router's
client-side navigation with one click handler, so the site behaves the same.
"""

from __future__ import annotations

import reflex as rx
from reflex_base.components.component import Component
from reflex_base.vars.base import LiteralVar, Var
from reflex_components_core.base.bare import Bare
from reflex_components_core.base.fragment import Fragment
from reflex_components_core.el.element import Element
from reflex_components_core.react_router.dom import ReactRouterLink

# The site's own JavaScript (assets/site_ui.jsx), as Reflex imports an asset.
SITE_UI = "$/public/site_ui.jsx"


class StaticHtml(rx.Component):
    """An element whose prerendered content hydration keeps as is (`keep_static_regions`)."""

    library = SITE_UI
    tag = "StaticHtml"
    # The HTML element ("section", "div" …) and its props, as React takes them.
    element: rx.Var[str]
    attrs: rx.Var[dict]


# Elements whose behaviour depends on React or that a browser submits: always hydrated.
FORM_CONTROLS = frozenset({"form", "input", "textarea", "select", "option", "button", "label"})
# A region must hold at least this many nodes (elements and texts) to be worth its wrapper
# component: below it, hydrating the few nodes costs less than the wrapper does.
MIN_REGION_NODES = 8


def _own_vars_are_plain(component: Component) -> bool:
    """No prop of the component itself reads state or needs a hook or a component."""
    for var in component._get_vars(include_children=False):
        data = var._get_all_var_data()
        if data is not None and (data.hooks or data.field_dependencies or data.components or data.deps):
            return False
    return True


def _is_plain_node(component: Component) -> bool:
    """Plain HTML (or text, or a react-router link) with nothing to run in the browser."""
    if isinstance(component, Bare | Fragment):
        kind_ok = True
    elif isinstance(component, ReactRouterLink):
        # A document navigation (`reload_document`) is not a client-side link.
        kind_ok = component.reload_document is None
    elif isinstance(component, Element):
        kind_ok = component.tag not in FORM_CONTROLS
    else:
        return False
    return (
        kind_ok
        and not component.event_triggers
        and not component.style
        and not component.special_props
        and _own_vars_are_plain(component)
    )


def _size(component: Component) -> int | None:
    """The number of nodes of a subtree that needs no JavaScript, or None if it needs some."""
    if not _is_plain_node(component):
        return None
    total = 1
    for child in component.children:
        size = _size(child)
        if size is None:
            return None
        total += size
    return total


def static_html(element: Element) -> rx.Component:
    """The same element as a `StaticHtml`: its tag, its props (less the ref) and children."""
    tag = element._render()
    attrs = {name: value for name, value in tag.props.items() if name != "ref"}
    return StaticHtml.create(
        *element.children,
        element=element.tag,
        attrs=LiteralVar.create(attrs) if attrs else Var.create({}),
    )


def keep_static_regions(component: Component) -> Component:
    """`component` with each largest subtree that needs no JavaScript made a `StaticHtml`."""
    size = _size(component)
    # A region is an HTML element (React keeps the content of a host element only); a link
    # stays a link, and a plain fragment's elements may still be regions.
    is_region = isinstance(component, Element) and not isinstance(component, ReactRouterLink)
    if size is not None and is_region:
        return static_html(component) if size >= MIN_REGION_NODES else component
    component.children = [keep_static_regions(child) for child in component.children]
    return component
