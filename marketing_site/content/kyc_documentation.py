"""Words of the KYC documentation landing page (French only; `EN` kept for parity)."""

from marketing_site.brand import BRAND_NAME
from marketing_site.content import documents

FR = {
    "hero": {
        "eyebrow": "Documentation KYC",
        "title": "KYC en ligne : la documentation de notre solution de conformité",
        "lead": (
            "Découvrez comment digitaliser la connaissance client, de la collecte des pièces aux "
            "contrôles de conformité, sans alourdir l'expérience de vos clients."
        ),
        "primary": "Recevoir la documentation",
        "secondary": "Découvrir le module conformité",
        "art_alt": "Checklist documentaire en cours de validation, bouclier de conformité et signature électronique",
    },
    "covers": {
        "title": "Ce que contient la documentation",
        "intro": (
            f"Un panorama complet du module de conformité {BRAND_NAME}, illustré par les écrans "
            "du client, du conseiller et de l'équipe conformité."
        ),
    },
    "audience": {
        "id": "pour-qui",
        "title": "À qui s'adresse ce document ?",
        "intro": "Il a été rédigé pour celles et ceux qui conduisent ou contrôlent l'entrée en relation.",
        "items": [
            "Directions de la conformité et RCCI",
            "Responsables middle office et back office",
            "Banquiers privés et conseillers en gestion de patrimoine",
            "Dirigeants de family offices et de sociétés de gestion",
        ],
    },
    "documentation": {
        "id": "documentation",
        "title": "Recevoir la documentation",
        "intro": "Indiquez-nous vos coordonnées : la documentation vous est remise aussitôt.",
        "document": documents.FR["kyc"],
    },
}

EN = {
    "hero": {
        "eyebrow": "KYC documentation",
        "title": "Online KYC: the documentation of our compliance solution",
        "lead": (
            "Discover how to take know-your-client processes digital, from document collection to "
            "compliance controls, without weighing on your clients' experience."
        ),
        "primary": "Receive the documentation",
        "secondary": "Discover the compliance module",
        "art_alt": "Document checklist being validated, compliance shield and electronic signature",
    },
    "covers": {
        "title": "What the documentation covers",
        "intro": (
            f"A complete overview of the {BRAND_NAME} compliance module, illustrated with the screens "
            "seen by the client, the adviser and the compliance team."
        ),
    },
    "audience": {
        "id": "pour-qui",
        "title": "Who is this document for?",
        "intro": "It was written for the people who run or control client onboarding.",
        "items": [
            "Compliance departments and compliance officers",
            "Middle-office and back-office managers",
            "Private bankers and wealth advisers",
            "Heads of family offices and management companies",
        ],
    },
    "documentation": {
        "id": "documentation",
        "title": "Receive the documentation",
        "intro": "Leave us your details: the documentation is yours straight away.",
        "document": documents.EN["kyc"],
    },
}
