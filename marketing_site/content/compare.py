"""Words of the plan comparison page ("Comparez tout nos plans") and its feature matrix.

The matrix (which offer includes what) does not depend on the language: `GROUPS` lists
each group's rows with one availability per offer, in `OFFER_KEYS` order; the dicts below
only name the groups and rows. It follows SPEC §1 (Engage = portal, Manage = CRM,
Interact = both, Complete = Interact + KYC onboarding) and the add-ons of SPEC §9.
"""

from marketing_site.brand import BRAND_NAME

B = BRAND_NAME

YES, NO, OPTION = "yes", "no", "option"

# (group key, [(row key, (Engage, Manage, Interact, Complete)), ...])
GROUPS = [
    (
        "portal",
        [
            ("white_label_portal", (YES, NO, YES, YES)),
            ("portfolio_reporting", (YES, OPTION, YES, YES)),
            ("document_sharing", (YES, NO, YES, YES)),
            ("targeted_content", (YES, NO, YES, YES)),
            ("secure_chat", (YES, NO, YES, YES)),
            ("mobile_app", (OPTION, NO, OPTION, OPTION)),
        ],
    ),
    (
        "crm",
        [
            ("alerts", (NO, YES, YES, YES)),
            ("tasks", (NO, YES, YES, YES)),
            ("calendar_sync", (NO, YES, YES, YES)),
            ("meeting_notes", (NO, YES, YES, YES)),
            ("client_file", (NO, YES, YES, YES)),
            ("contact_groups", (NO, YES, YES, YES)),
            ("sales_pipeline", (NO, YES, YES, YES)),
        ],
    ),
    (
        "wealth",
        [
            ("aggregation", (OPTION, NO, OPTION, OPTION)),
            ("optimisation", (NO, OPTION, OPTION, OPTION)),
        ],
    ),
    (
        "compliance",
        [
            ("kyc_onboarding", (NO, NO, NO, YES)),
            ("document_checklists", (NO, NO, NO, YES)),
            ("compliance_controls", (NO, NO, NO, YES)),
            ("profile_updates", (NO, NO, NO, YES)),
            ("kyc_lab", (NO, NO, NO, OPTION)),
            ("e_signature", (NO, NO, NO, OPTION)),
        ],
    ),
    (
        "security",
        [
            ("two_factor", (YES, YES, YES, YES)),
        ],
    ),
    (
        "services",
        [
            ("premium_support", (OPTION, OPTION, OPTION, OPTION)),
            ("onboarding", (OPTION, OPTION, OPTION, OPTION)),
            ("data_cleanup", (OPTION, OPTION, OPTION, OPTION)),
        ],
    ),
]

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
        "rows": {
            "white_label_portal": "Portail client en marque blanche",
            "portfolio_reporting": "Reporting de portefeuille et génération de rapports clients",
            "document_sharing": "Partage de documents avec le client",
            "targeted_content": "Publication de contenus ciblés avec score de pertinence",
            "secure_chat": "Messagerie sécurisée avec proposition de rendez-vous",
            "mobile_app": "Application mobile",
            "alerts": "Alertes priorisées : comportement, contenus, portefeuilles, conformité",
            "tasks": "Gestionnaire de tâches et to-do list intelligente",
            "calendar_sync": "Synchronisation bidirectionnelle de l'agenda avec deux messageries",
            "meeting_notes": "Notes de réunion et reporting intelligent",
            "client_file": "Fiche client 360° aux champs paramétrables",
            "contact_groups": "Groupes : familles, personnes physiques et morales, indivisions",
            "sales_pipeline": "Pipeline commercial et tableaux de bord",
            "aggregation": "Agrégation de comptes externes",
            "optimisation": "Optimisation de portefeuille",
            "kyc_onboarding": "Onboarding KYC digital et personnalisation des questionnaires",
            "document_checklists": "Check-lists documentaires paramétrables envoyées par e-mail",
            "compliance_controls": "Contrôles de conformité",
            "profile_updates": "Mise à jour des profils clients",
            "kyc_lab": "Contrôles automatisés KYC-LAB (lutte anti-blanchiment, via partenaire)",
            "e_signature": "Signature électronique (via partenaire)",
            "two_factor": "Double authentification et détection d'intrusion",
            "premium_support": "Support premium",
            "onboarding": "Onboarding personnalisé",
            "data_cleanup": "Gestion et nettoyage des données",
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
        "rows": {
            "white_label_portal": "White-label client portal",
            "portfolio_reporting": "Portfolio reporting and client report generation",
            "document_sharing": "Document sharing with the client",
            "targeted_content": "Targeted content publishing with a matching score",
            "secure_chat": "Secure chat with appointment proposals",
            "mobile_app": "Mobile app",
            "alerts": "Prioritised alerts: behaviour, content, portfolios, compliance",
            "tasks": "Task manager and smart to-do list",
            "calendar_sync": "Two-way calendar sync with two mail providers",
            "meeting_notes": "Meeting notes and intelligent reporting",
            "client_file": "360° client file with configurable fields",
            "contact_groups": "Groups: families, natural and legal persons, joint ownership",
            "sales_pipeline": "Sales pipeline and commercial dashboards",
            "aggregation": "External account aggregation",
            "optimisation": "Portfolio optimisation",
            "kyc_onboarding": "Digital KYC onboarding and questionnaire customisation",
            "document_checklists": "Configurable document checklists sent by email",
            "compliance_controls": "Compliance controls",
            "profile_updates": "Client profile updates",
            "kyc_lab": "Automated KYC-LAB checks (anti-money-laundering, through a partner)",
            "e_signature": "Electronic signature (through a partner)",
            "two_factor": "Two-factor authentication and intrusion detection",
            "premium_support": "Premium support",
            "onboarding": "Personalised onboarding",
            "data_cleanup": "Data management and clean-up",
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
