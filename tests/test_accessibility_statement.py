"""The accessibility statement over HTTP, at the addresses the issue gives it, in the RGAA's form:
conformance status, standard, what was tested and how, the known non-conformities, the feedback
contact, the remedy (Défenseur des droits) and its date, each in its own section."""

from __future__ import annotations

import html
import re

import httpx2
import pytest

from marketing_site import routes
from marketing_site.settings import get_settings

SECTION = re.compile(r'<section class="legal-doc__section" id="([^"]+)">(.+?)</section>', re.DOTALL)
# Per language: the statement's address, then what each of its sections (by id) must say.
STATEMENTS = {
    "fr": (
        "/accessibilite",
        {
            "etat-de-conformite": ["partiellement conforme", "Référentiel RGAA 4.1.2"],
            "tests": [
                "axe-core",
                "HTML_CodeSniffer",
                "Nu Html Checker",
                "clavier",
                "lecteur d'écran virtuel",
                "aucun test avec un vrai lecteur d'écran",
            ],
            "contenus-non-accessibles": ["Contenus non accessibles", "non-conformité", "PDF"],
            "contact": ["Retour d'information et contact"],
            "voies-de-recours": ["Défenseur des droits", "https://formulaire.defenseurdesdroits.fr/"],
            "date": ["Établissement de cette déclaration"],
        },
    ),
    "en": (
        "/en/accessibilite",
        {
            "conformance-status": ["partially conformant", "Standard RGAA 4.1.2"],
            "tests": [
                "axe-core",
                "HTML_CodeSniffer",
                "Nu Html Checker",
                "keyboard",
                "virtual screen reader",
                "no test with a real screen reader",
            ],
            "non-accessible-content": ["Non-accessible content", "non-conformity", "PDF"],
            "contact": ["Feedback and contact"],
            "remedies": ["Défenseur des droits", "https://formulaire.defenseurdesdroits.fr/"],
            "date": ["Preparation of this statement"],
        },
    ),
}
DATE = {"fr": r"Date \d{1,2} [a-zéû]+ 20\d\d", "en": r"Date \d{1,2} [A-Z][a-z]+ 20\d\d"}


def _text(fragment: str) -> str:
    """What a reader sees of an HTML fragment (links show their address too), spaces collapsed."""
    fragment = re.sub(r'<a [^>]*href="([^"]+)"[^>]*>', r" \1 ", fragment)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


@pytest.mark.parametrize("lang", STATEMENTS)
def test_accessibility_statement_says_what_the_rgaa_asks_in_each_language(site, lang):
    path, expected = STATEMENTS[lang]
    assert routes.ACCESSIBILITY.path(lang) == path
    response = httpx2.get(site + path)
    assert response.status_code == 200
    assert f'<html lang="{lang}"' in response.text
    sections = {anchor: _text(body) for anchor, body in SECTION.findall(response.text)}
    for anchor, phrases in expected.items():
        assert anchor in sections, (anchor, list(sections))
        for phrase in phrases:
            assert phrase in sections[anchor], (anchor, phrase)
    assert f"mailto:{get_settings().contact_email}" in sections["contact"]
    assert re.search(DATE[lang], sections["date"]), sections["date"]
