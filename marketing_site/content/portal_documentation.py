"""Words of the client-portal documentation landing page (French only; `EN` kept for parity)."""

from marketing_site.brand import BRAND_NAME
from marketing_site.content import documents

FR = {
    "hero": {
        "eyebrow": "Documentation portail client",
        "title": "Portail client pour la banque privée : recevez la documentation",
        "lead": (
            "Un portail en marque blanche pour offrir à vos clients un accès sécurisé à leur "
            "patrimoine, à leurs documents et à leur banquier privé, sur ordinateur comme sur mobile."
        ),
        "primary": "Recevoir la documentation",
        "secondary": "Découvrir le portail client",
        "art_alt": (
            "Portail client sur ordinateur et sur mobile : évolution d'un portefeuille, documents "
            "partagés, messagerie et proposition de rendez-vous"
        ),
    },
    "covers": {
        "title": "Ce que contient la documentation",
        "intro": (
            f"Tout ce qu'il faut pour évaluer le portail {BRAND_NAME} et préparer son déploiement "
            "auprès de votre clientèle."
        ),
    },
    "audience": {
        "id": "pour-qui",
        "title": "À qui s'adresse ce document ?",
        "intro": "Il a été rédigé pour les équipes qui portent l'expérience client de la banque privée.",
        "items": [
            "Directions de la banque privée",
            "Directions digitales et de l'innovation",
            "Responsables de la sécurité des systèmes d'information",
            "Sociétés de gestion et family offices",
        ],
    },
    "documentation": {
        "id": "documentation",
        "title": "Recevoir la documentation",
        "intro": "Indiquez-nous vos coordonnées : la documentation vous est remise aussitôt.",
        "document": documents.FR["portal"],
    },
}

EN = {
    "hero": {
        "eyebrow": "Client portal documentation",
        "title": "A client portal for private banks: receive the documentation",
        "lead": (
            "A white-label portal giving your clients secure access to their wealth, their documents "
            "and their private banker, on desktop and on mobile."
        ),
        "primary": "Receive the documentation",
        "secondary": "Discover the client portal",
        "art_alt": (
            "Client portal on desktop and mobile: portfolio performance, shared documents, chat and "
            "an appointment proposal"
        ),
    },
    "covers": {
        "title": "What the documentation covers",
        "intro": (
            f"Everything you need to assess the {BRAND_NAME} portal and prepare its roll-out to your "
            "clients."
        ),
    },
    "audience": {
        "id": "pour-qui",
        "title": "Who is this document for?",
        "intro": "It was written for the teams who shape the private-banking client experience.",
        "items": [
            "Private-banking management",
            "Digital and innovation departments",
            "Information security officers",
            "Management companies and family offices",
        ],
    },
    "documentation": {
        "id": "documentation",
        "title": "Receive the documentation",
        "intro": "Leave us your details: the documentation is yours straight away.",
        "document": documents.EN["portal"],
    },
}
