"""Plausible values a prospect types (or autofill enters) in the lead form, per field.

ACCEPTED: what real people at banks, asset managers and family offices write; every one must
be accepted by the browser's check and by the server. REFUSED: what the form refuses before
sending, with the field's message in the page language (the server refuses them too, with the
same message). Used by tests/test_leads.py (service), test_lead_api.py (HTTP) and
test_browser_leads.py (Chromium); scripts/lead_corpus_report.py prints the counts.
"""

from __future__ import annotations

NBSP = "\u00a0"

ACCEPTED: dict[str, list[str]] = {
    "name": [
        "Lefèvre", "O'Brien", "O’Connor", "D'Artagnan", "Saint-Exupéry", "de La Tour d'Auvergne",
        "Müller", "Núñez", "Ødegaard", "Łukasiewicz", "Dvořák", "García-Márquez", "Nguyễn", "王",
        "Van der Berg", "N'Diaye", "Le Goff", "Smith Jr.", "Al-Hassan", "Ferreira da Silva",
        "Öztürk", "Çelik", "Schäfer-Brandt", "  Dupont  ", "Dupont\tMartin",
    ],
    "firstname": [
        "Hélène", "Jean-Baptiste", "Zoë", "Anaïs", "Ève", "Marie-José", "François-Xavier", "J.-P.",
        "Maëlle", "Björn", "Søren", "José", "Ana María", "Chloé", "Noémie", "Łucja", "Ægir",
        "Renée", "Aurélien", "Joël",
    ],
    "company": [
        "Banque Exemple", "Rothschild & Co", "Lazard Frères Gestion", "Crédit Agricole Indosuez Wealth (France)",
        "Société Générale Private Banking", "AXA IM – Real Assets", "Oddo BHF", "Family Office D'Aubigné",
        "Banque Populaire Auvergne-Rhône-Alpes", "Edmond de Rothschild (Suisse) S.A.", "Pictet & Cie (Europe) S.A.",
        "Müller & Söhne GmbH", "L'Étoile Patrimoine", "Amundi / CPR AM", "123 Invest", "M&G Investments",
        "ACME, Inc.", "Boucher+Associés", "Cabinet « Les Tilleuls »", "Gestion Privée n°1",
        "Wealth@Home", "UBS Switzerland AG", "x" * 200,
    ],
    "phone": [
        "+33 1 23 45 67 89", "01 23 45 67 89", "01.23.45.67.89", "0123456789", "01-23-45-67-89",
        "+33 (0)1 23 45 67 89", "+33 6 12 34 56 78", "06 12 34 56 78 poste 2", "06 12 34 56 78 poste 204",
        "+33 1 44 55 66 77 ext. 12", "+1 (212) 555-0100", "+1 212-555-0100 x123", "+44 20 7946 0000",
        "+44 (0)20 7946 0000 ext 4", "+41 22 123 45 67", "+352 26 12 34 56", "+49 89 1234 5678 Durchwahl 12",
        "0033 1 23 45 67 89", "+33 1 23 45 67 89 #12", "01 23 45 67 89 (poste 12)", "+33 6 12 34 56 78 ; poste 3",
        "(+33) 1 23 45 67 89", f"+33{NBSP}1{NBSP}23{NBSP}45{NBSP}67{NBSP}89", "+33-1-23-45-67-89",
        "+33.1.23.45.67.89", "01 23 45 67 89 / 06 12 34 56 78", "+33 1 23 45 67 89 extension 12",
        "06 12 34 56 78 p. 12", " +33 6 12 34 56 78 ", "+65 6123 4567",
    ],
    "email": [
        "helene.lefevre@example.com", "ada+tag@example.com", "ada+newsletter@mail.example.co.uk",
        "jean-luc.o'neil@bank.ie", "j.doe@sub.domain.example.fr", "jose@exämple.fr", "user@müller-bank.de",
        "contact@société.fr", "ivan@пример.рф", "taro@例え.jp", "firstname_lastname@example.com",
        "Upper.Case@Example.COM", "a@b.co", "name@bank.lu", "info@123invest.fr",
        "hello@my-family-office.paris", "x@xn--exmple-cua.fr", "a.b.c.d@e-f.example.org",
        "ops=desk@example.com", "first.last@corp.local",
    ],
}

REFUSED: dict[str, list[str]] = {
    "name": ["   "],
    "company": ["\u3000"],
    "phone": ["12", "call me", "06 12", "n/a", "+33 6 12 34 56 78 90 12 34 56 78 90 12", "+33 6 12 34 56 78 +1"],
    "email": [
        "ada@intranet", "ada@", "ada.example.com", "josé@exemple.fr", "ada@@example.com", "ada@example.",
        "ada..lovelace@example.com", ".ada@example.com", "ada@-example.com", "ada@example.c",
    ],
}

BASE = {
    "name": "Martin",
    "firstname": "Camille",
    "phone": "+33 6 12 34 56 78",
    "company": "Family Office Martin",
    "email": "camille.martin@example.com",
}


def variants(table: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(field, value) for field, values in table.items() for value in values]
