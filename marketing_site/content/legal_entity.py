"""The publisher's and the host's identity, shared by the three legal texts.

All of it is fictional, like the brand. Numbers are written with plain spaces, as they
are usually searched for. The telephone number is in the range the French regulator
(ARCEP) reserves for works of fiction. What each language writes its own way (the legal
form, the share capital, the host's country, the regulator's page) is in
`content/<lang>/legal_entity.yaml`.
"""

from marketing_site.brand import LEGAL_NAME

SIREN = "884 731 621"

# The same in every language.
FACTS = {
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
