"""The downloadable documents described on the solution pages (SPEC §3), per language.

The client-portal and KYC documents appear both on a feature page and on a landing page,
the digital-subscription journey document on the subscription page: their description
lives here once.
"""

from marketing_site.brand import BRAND_NAME

FR = {
    "portal": {
        "name": "Documentation du portail client",
        "summary": (
            f"Une présentation complète du portail client {BRAND_NAME} en marque blanche, pour "
            "l'étudier avec vos équipes métier, digitales et sécurité."
        ),
        "contents": [
            "Le parcours de vos clients, de la première connexion au suivi quotidien de leur patrimoine",
            "Le reporting digital des portefeuilles et le partage de documents",
            "La publication de contenus ciblés et le fonctionnement du score de correspondance",
            "La messagerie sécurisée et la proposition de rendez-vous",
            "La sécurité : authentification à deux facteurs et détection des intrusions",
            "La personnalisation à vos couleurs et les options : application mobile, agrégation de comptes externes",
        ],
        "format": "Téléchargement immédiat au format PDF.",
    },
    "kyc": {
        "name": "Documentation KYC",
        "summary": (
            f"Le fonctionnement détaillé du module de conformité {BRAND_NAME}, de l'entrée en "
            "relation à la mise à jour des profils."
        ),
        "contents": [
            "Les checklists documentaires configurables, envoyées par e-mail à vos clients",
            "La personnalisation des questionnaires KYC selon vos typologies de clientèle",
            "Les contrôles de conformité et le traitement des anomalies",
            "La mise à jour périodique des profils clients",
            "Les options proposées avec nos partenaires : signature électronique et filtrage anti-blanchiment automatisé",
            "La place du module dans nos offres et son déploiement",
        ],
        "format": "Téléchargement immédiat au format PDF.",
    },
    "subscription": {
        "name": "Le parcours de souscription digitale",
        "summary": (
            "Le parcours de souscription de produits financiers pas à pas, tel que le vivent "
            "l'investisseur, le conseiller et l'équipe conformité."
        ),
        "contents": [
            "Le questionnaire KYC en ligne et le profil investisseur",
            "Les étapes du parcours de souscription, de la sélection du produit à la signature",
            "Le workflow de suivi de conformité et les alertes d'incomplétude ou d'incohérence",
            "Les tableaux de bord commerciaux et le portail distributeur",
        ],
        "format": "Téléchargement immédiat au format PDF.",
    },
}

EN = {
    "portal": {
        "name": "Client portal documentation",
        "summary": (
            f"A complete presentation of the {BRAND_NAME} white-label client portal, to review "
            "with your business, digital and security teams."
        ),
        "contents": [
            "Your clients' journey, from their first login to the day-to-day follow-up of their wealth",
            "Digital portfolio reporting and document sharing",
            "Targeted content publishing and how the matching score works",
            "Secure chat and appointment proposals",
            "Security: two-factor authentication and intrusion detection",
            "Branding in your colours and the options: mobile app, external account aggregation",
        ],
        "format": "Instant download in PDF format.",
    },
    "kyc": {
        "name": "KYC documentation",
        "summary": (
            f"How the {BRAND_NAME} compliance module works in detail, from client onboarding "
            "to profile updates."
        ),
        "contents": [
            "Configurable document checklists, emailed to your clients",
            "Customising KYC questionnaires for each client type",
            "Compliance controls and how exceptions are handled",
            "Periodic client profile updates",
            "The options offered with our partners: electronic signature and automated anti-money-laundering screening",
            "Where the module fits in our offers, and how it is rolled out",
        ],
        "format": "Instant download in PDF format.",
    },
    "subscription": {
        "name": "The digital subscription journey",
        "summary": (
            "The financial-product subscription journey step by step, as experienced by the "
            "investor, the adviser and the compliance team."
        ),
        "contents": [
            "The online KYC questionnaire and the investor profile",
            "The steps of the subscription journey, from product selection to signature",
            "The compliance follow-up workflow and the incompleteness and inconsistency alerts",
            "The sales dashboards and the distributor portal",
        ],
        "format": "Instant download in PDF format.",
    },
}
