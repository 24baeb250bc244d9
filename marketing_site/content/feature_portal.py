"""Words of the premium client-portal feature page (SPEC §1 claims, §2 contents)."""

from marketing_site.brand import BRAND_NAME
from marketing_site.content import documents

FR = {
    "hero": {
        "eyebrow": "Portail client premium",
        "title": "Un portail client à vos couleurs, à la hauteur de la gestion privée",
        "lead": (
            "Offrez à vos clients un espace sécurisé en marque blanche pour suivre leur patrimoine, "
            "retrouver leurs documents et échanger avec leur conseiller, sur ordinateur comme sur mobile."
        ),
        "primary": "Recevoir la documentation",
        "secondary": "Demander une démo",
        "art_alt": (
            "Portail client sur ordinateur et sur mobile : évolution d'un portefeuille, documents "
            "partagés, messagerie et proposition de rendez-vous"
        ),
    },
    "sections": [
        {
            "id": "patrimoine",
            "title": "Tout le patrimoine de vos clients, dans un seul espace",
            "intro": (
                "Vos clients retrouvent à tout moment une information à jour, présentée avec "
                "l'exigence de votre maison."
            ),
            "items": [
                {
                    "icon": "reporting",
                    "title": "Reporting digital",
                    "text": (
                        "Valorisation, performance, répartition par classe d'actifs et mouvements : vos "
                        "clients suivent leurs portefeuilles en ligne, sans attendre le relevé trimestriel."
                    ),
                },
                {
                    "icon": "documents",
                    "title": "Partage de documents",
                    "text": (
                        "Relevés, rapports, contrats et justificatifs sont déposés et classés dans un "
                        "espace documentaire commun au client et à son conseiller."
                    ),
                },
                {
                    "icon": "matching",
                    "title": "Contenus ciblés",
                    "text": (
                        "Publiez analyses de marché, lettres d'information et offres. Un score de "
                        "correspondance rapproche chaque contenu des clients dont le profil et les "
                        "projets s'y prêtent le mieux."
                    ),
                },
            ],
        },
        {
            "id": "echanges",
            "title": "Une relation suivie, même entre deux rendez-vous",
            "intro": (
                "Le portail devient le canal naturel entre vos clients et leur conseiller, à la place "
                "des e-mails dispersés."
            ),
            "items": [
                {
                    "icon": "chat",
                    "title": "Messagerie sécurisée",
                    "text": (
                        "Vos clients écrivent à leur conseiller dans un canal protégé ; chaque échange "
                        "est conservé et rattaché à la fiche client."
                    ),
                },
                {
                    "icon": "appointment",
                    "title": "Propositions de rendez-vous",
                    "text": (
                        "Depuis la conversation, le conseiller propose plusieurs créneaux ; le client "
                        "choisit celui qui lui convient, sans aller-retour."
                    ),
                },
            ],
        },
        {
            "id": "securite",
            "title": "La sécurité au cœur du portail",
            "intro": (
                "Des données patrimoniales exigent une protection sans compromis, sans compliquer la "
                "vie de vos clients."
            ),
            "items": [
                {
                    "icon": "two-factor",
                    "title": "Authentification à deux facteurs",
                    "text": (
                        "Chaque connexion est confirmée par un second facteur : un mot de passe dérobé "
                        "ne suffit pas pour accéder au compte d'un client."
                    ),
                },
                {
                    "icon": "intrusion",
                    "title": "Détection des intrusions",
                    "text": (
                        "Les tentatives d'accès anormales sont repérées et signalées, pour réagir avant "
                        "qu'elles ne deviennent un incident."
                    ),
                },
            ],
        },
    ],
    "documentation": {
        "id": "documentation",
        "title": "Recevoir la documentation",
        "intro": (
            f"Pour présenter le portail {BRAND_NAME} à votre comité de direction ou à vos équipes, "
            "téléchargez sa documentation complète."
        ),
        "document": documents.FR["portal"],
    },
    "cta": {
        "title": "Découvrez le portail comme vos clients le verront",
        "text": "Trente minutes avec un consultant pour parcourir le portail, du reporting à la messagerie.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Premium client portal",
        "title": "A client portal in your colours, worthy of private wealth management",
        "lead": (
            "Give your clients a secure white-label space to follow their wealth, find their "
            "documents and talk to their adviser, on desktop and on mobile."
        ),
        "primary": "Receive the documentation",
        "secondary": "Book a demo",
        "art_alt": (
            "Client portal on desktop and mobile: portfolio performance, shared documents, chat and "
            "an appointment proposal"
        ),
    },
    "sections": [
        {
            "id": "patrimoine",
            "title": "All your clients' wealth, in one place",
            "intro": (
                "Your clients find up-to-date information at any time, presented to the standards of "
                "your firm."
            ),
            "items": [
                {
                    "icon": "reporting",
                    "title": "Digital reporting",
                    "text": (
                        "Valuation, performance, asset allocation and transactions: your clients follow "
                        "their portfolios online instead of waiting for the quarterly statement."
                    ),
                },
                {
                    "icon": "documents",
                    "title": "Document sharing",
                    "text": (
                        "Statements, reports, contracts and supporting documents are filed in a document "
                        "space shared by the client and their adviser."
                    ),
                },
                {
                    "icon": "matching",
                    "title": "Targeted content",
                    "text": (
                        "Publish market analyses, newsletters and offers. A matching score pairs each "
                        "piece of content with the clients whose profile and plans suit it best."
                    ),
                },
            ],
        },
        {
            "id": "echanges",
            "title": "A continuous relationship, even between meetings",
            "intro": (
                "The portal becomes the natural channel between your clients and their adviser, "
                "instead of scattered emails."
            ),
            "items": [
                {
                    "icon": "chat",
                    "title": "Secure chat",
                    "text": (
                        "Your clients write to their adviser in a protected channel; every exchange is "
                        "kept and linked to the client file."
                    ),
                },
                {
                    "icon": "appointment",
                    "title": "Appointment proposals",
                    "text": (
                        "From the conversation, the adviser proposes several time slots; the client "
                        "picks the one that suits them, with no back-and-forth."
                    ),
                },
            ],
        },
        {
            "id": "securite",
            "title": "Security at the heart of the portal",
            "intro": (
                "Wealth data calls for uncompromising protection, without making your clients' lives "
                "harder."
            ),
            "items": [
                {
                    "icon": "two-factor",
                    "title": "Two-factor authentication",
                    "text": (
                        "Every login is confirmed with a second factor: a stolen password is not enough "
                        "to access a client's account."
                    ),
                },
                {
                    "icon": "intrusion",
                    "title": "Intrusion detection",
                    "text": (
                        "Unusual access attempts are spotted and reported, so you can react before they "
                        "become an incident."
                    ),
                },
            ],
        },
    ],
    "documentation": {
        "id": "documentation",
        "title": "Receive the documentation",
        "intro": (
            f"To present the {BRAND_NAME} portal to your executive committee or your teams, download "
            "its complete documentation."
        ),
        "document": documents.EN["portal"],
    },
    "cta": {
        "title": "See the portal as your clients will",
        "text": "Thirty minutes with a consultant to walk through the portal, from reporting to chat.",
        "label": "Book a demo",
    },
}
