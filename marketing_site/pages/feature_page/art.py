"""Where the feature illustrations live (assets/illustrations/features/)."""

from __future__ import annotations

import reflex as rx

from marketing_site.components import sections

ART_DIR = "/illustrations/features"


def hero_art(name: str, alt: str) -> rx.Component:
    """A hero illustration: drawn at 560 × 420, loaded at once (it is above the fold)."""
    return sections.image(f"{ART_DIR}/{name}.svg", alt, 560, 420, loading="eager")


def icon_src(name: str) -> str:
    return f"{ART_DIR}/icons/{name}.svg"


def document_cover(width: int, height: int) -> rx.Component:
    """The cover of a downloadable document (decorative: the document is named beside it)."""
    return sections.image(f"{ART_DIR}/document.svg", "", width, height, class_name="documentation__cover")
