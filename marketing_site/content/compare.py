"""Words of the plan comparison page ("Comparez tout nos plans").

The matrix itself (which offer includes what, which add-ons are optional) and the names of
its rows come from `content.offers`, the source the pricing page uses too.
"""

from marketing_site.brand import BRAND_NAME

B = BRAND_NAME

FR = {
    "hero": {
        "eyebrow": "Comparatif des offres",
        "title": "Comparez tout nos plans",
        "lead": (
            "Portail client, CRM conseiller, conformité : voyez en un coup d'œil ce que contient chaque offre, "
            "ce qui est disponible en option et ce qui ne l'est pas."
        ),
        "pricing_cta": "Voir les tarifs",
        "demo_cta": "Réserver une démo",
    },
    "table": {
        "title": "Le détail des fonctionnalités",
        "caption": f"Fonctionnalités incluses dans les offres {B} Engage, Manage, Interact et Complete",
        "feature_header": "Fonctionnalités",
        "scroll_hint": "Faites glisser le tableau pour afficher toutes les offres.",
        "status": {"yes": "Inclus", "no": "Non inclus", "option": "En option"},
        "legend": "✓ inclus dans l'offre · + disponible en option, facturé en supplément · — non inclus",
        "groups": {
            "portal": "Portail client premium",
            "crm": "CRM conseiller",
            "wealth": "Agrégation et optimisation",
            "compliance": "Conformité et KYC",
            "security": "Sécurité",
            "services": "Services additionnels",
        },
    },
    "guide": {
        "title": "Quelle offre pour votre organisation ?",
        "link": "Voir le tarif {name}",
        "items": [
            {
                "key": "engage",
                "text": (
                    "Vous disposez déjà d'un CRM et souhaitez offrir à vos clients un portail digital "
                    "à votre image : reporting, documents et échanges sécurisés."
                ),
            },
            {
                "key": "manage",
                "text": (
                    "Vos conseillers ont besoin d'un CRM pensé pour la gestion de patrimoine : "
                    "fiche 360°, alertes priorisées, agenda et pipeline commercial."
                ),
            },
            {
                "key": "interact",
                "text": (
                    "Vous voulez relier le portail client et le CRM pour que chaque échange "
                    "alimente directement le suivi de vos conseillers."
                ),
            },
            {
                "key": "complete",
                "text": (
                    "Vous digitalisez aussi l'entrée en relation : questionnaires KYC, check-lists "
                    "documentaires et contrôles de conformité dans un même parcours."
                ),
            },
        ],
    },
    "cta": {
        "title": "Un doute sur l'offre adaptée ?",
        "text": "Nous comparons avec vous les offres sur vos propres cas d'usage, en 30 minutes.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Offer comparison",
        "title": "Compare all our plans",
        "lead": (
            "Client portal, advisor CRM, compliance: see at a glance what each offer includes, "
            "what is available as an add-on and what is not."
        ),
        "pricing_cta": "See pricing",
        "demo_cta": "Book a demo",
    },
    "table": {
        "title": "Feature by feature",
        "caption": f"Features included in the {B} Engage, Manage, Interact and Complete offers",
        "feature_header": "Features",
        "scroll_hint": "Swipe the table to see every offer.",
        "status": {"yes": "Included", "no": "Not included", "option": "Optional add-on"},
        "legend": "✓ included in the offer · + available as a paid add-on · — not included",
        "groups": {
            "portal": "Premium client portal",
            "crm": "Advisor CRM",
            "wealth": "Aggregation and optimisation",
            "compliance": "Compliance and KYC",
            "security": "Security",
            "services": "Add-on services",
        },
    },
    "guide": {
        "title": "Which offer suits your firm?",
        "link": "See {name} pricing",
        "items": [
            {
                "key": "engage",
                "text": (
                    "You already have a CRM and want to give your clients a digital portal "
                    "in your brand: reporting, documents and secure exchanges."
                ),
            },
            {
                "key": "manage",
                "text": (
                    "Your advisors need a CRM built for wealth management: "
                    "360° file, prioritised alerts, calendar and sales pipeline."
                ),
            },
            {
                "key": "interact",
                "text": (
                    "You want to connect the client portal and the CRM so that every exchange "
                    "feeds straight into your advisors' follow-up."
                ),
            },
            {
                "key": "complete",
                "text": (
                    "You are also digitising client onboarding: KYC questionnaires, document "
                    "checklists and compliance controls in a single journey."
                ),
            },
        ],
    },
    "cta": {
        "title": "Not sure which offer is right?",
        "text": "We compare the offers with you on your own use cases, in 30 minutes.",
        "label": "Book a demo",
    },
}
