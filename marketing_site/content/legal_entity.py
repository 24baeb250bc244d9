"""The publisher's and the host's identity, shared by the three legal texts.

All of it is fictional, like the brand. Numbers are written with plain spaces, as they
are usually searched for. The telephone number is in the range the French regulator
(ARCEP) reserves for works of fiction.
"""

from marketing_site.brand import LEGAL_NAME

SIREN = "884 731 621"

_SAME = {
    "company": LEGAL_NAME,
    "siren": SIREN,
    "rcs": f"RCS Paris {SIREN}",
    "vat_number": f"FR 74 {SIREN}",
    "ape_code": "5829C",
    "head_office": "41, rue de Châteaudun, 75009 Paris, France",
    "phone": "+33 1 99 00 27 45",
    "director": "Antoine Delorme",
    "host": "Nimbus Cloud S.A.",
    "host_registration": "RCS Luxembourg B 231 487",
    "cnil_address": "3, place de Fontenoy, TSA 80715, 75334 Paris Cedex 07",
}

FR = {
    **_SAME,
    "legal_form": "Société par actions simplifiée (SAS)",
    "share_capital": "2 147 001,10 €",
    "host_address": "5, rue des Nuages, L-1450 Luxembourg, Grand-Duché de Luxembourg",
    "cnil_url": "https://www.cnil.fr/fr/plaintes",
}

EN = {
    **_SAME,
    "legal_form": "French simplified joint-stock company (société par actions simplifiée, SAS)",
    "share_capital": "EUR 2,147,001.10",
    "host_address": "5, rue des Nuages, L-1450 Luxembourg, Grand Duchy of Luxembourg",
    "cnil_url": "https://www.cnil.fr/en/home",
}
