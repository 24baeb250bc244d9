"""Words of the pricing page ("Nos offres & tarifs"), SPEC §1 and §9.

The facts of each offer (unit, amounts, included features, optional add-ons) are in
`content.offers`, shared with the compare table; the amounts reach the page through
`marketing_site.state.pricing` so the price switch updates them. French prices are shown
in euros, English prices in dollars.
"""

from marketing_site.brand import BRAND_NAME

B = BRAND_NAME

# Each offer's colour (a theme CSS variable), shared by the pricing cards and the compare guide.
OFFER_ACCENTS = {"engage": "premium", "manage": "relationclient", "interact": "blue-flash", "complete": "compliance"}

FR = {
    "hero": {
        "eyebrow": "Tarifs",
        "title": "Nos offres & tarifs",
        "lead": (
            "Portail client en marque blanche, CRM conseiller ou plateforme complète avec onboarding KYC : "
            "choisissez le périmètre adapté à votre établissement, avec des tarifs transparents et dégressifs "
            "à mesure que votre clientèle grandit."
        ),
        "trial_cta": "Démarrer l'essai gratuit",
        "demo_cta": "Réserver une démo",
    },
    "offers": {
        "title": "Quatre offres, une seule plateforme",
        "intro": (
            "Chaque offre repose sur la même plateforme : commencez par le portail ou par le CRM, "
            "puis passez à l'offre supérieure quand vos besoins évoluent, sans changer d'outil."
        ),
        "currency_prefix": "",
        "currency_suffix": " €",
        "currency_code": "EUR",
        "most_popular": "Le plus populaire",
        "on_quote": "Sur devis",
        "units": {
            "per_client": "par client / mois",
            "per_user": "par utilisateur / mois",
            "quote": "adapté à votre établissement",
        },
        "includes_title": "Ce qui est inclus",
        "addons_title": "Options disponibles",
        "tax_note": "Tarifs mensuels hors taxes. La dégressivité s'applique au-delà des seuils indiqués.",
        "compare_link": "Comparer toutes les fonctionnalités",
        # A card's "everything in offer X" line.
        "all_of": {
            "engage": "Tout Engage : le portail client premium en marque blanche",
            "manage": "Tout Manage : le CRM conseiller complet",
            "interact": "Tout Interact : portail client et CRM conseiller",
        },
        "items": [
            {
                "key": "engage",
                "contains": "Le portail client premium en marque blanche",
                "summary": (
                    "Offrez à vos clients un espace digital à vos couleurs pour suivre leur patrimoine, "
                    "consulter leurs documents et échanger avec leur conseiller."
                ),
                "degressive": "Dégressif à partir de 200 clients",
                "cta": "Essayer Engage",
            },
            {
                "key": "manage",
                "contains": "Le CRM du conseiller",
                "summary": (
                    "Centralisez la connaissance client, priorisez vos actions du jour "
                    "et pilotez votre activité commerciale depuis un seul outil."
                ),
                "degressive": "Dégressif à partir de 5 utilisateurs",
                "cta": "Essayer Manage",
            },
            {
                "key": "interact",
                "contains": "Engage + Manage",
                "summary": (
                    "Le portail client et le CRM réunis : chaque échange côté client "
                    "enrichit la fiche 360° du conseiller."
                ),
                "degressive": "Dégressif à partir de 5 utilisateurs et 200 clients",
                "cta": "Essayer Interact",
            },
            {
                "key": "complete",
                "contains": "Interact + onboarding KYC",
                "summary": (
                    "La plateforme complète : entrée en relation digitale, questionnaires KYC "
                    "et contrôles de conformité intégrés au parcours client."
                ),
                "degressive": "Selon vos volumes d'utilisateurs, de clients et vos options",
                "cta": "Demander un devis",
            },
        ],
    },
    "trial": {
        "title": "Essai gratuit de 30 jours",
        "intro": (
            f"Découvrez {B} dans un environnement prêt à l'emploi, avant tout engagement : "
            "vos équipes prennent en main le portail et le CRM sur des données fictives."
        ),
        "facts": [
            "30 jours d'essai gratuit",
            "Aucune carte bancaire demandée",
            "3 utilisateurs",
            "Données de démonstration préchargées",
            "5 Go de stockage",
            "Toutes les fonctionnalités",
        ],
        "trial_cta": "Démarrer l'essai gratuit",
        "compare_cta": "Comparer les offres",
    },
    "services": {
        "title": "Services additionnels",
        "intro": "Des accompagnements facturés en complément de l'abonnement, quelle que soit l'offre choisie.",
        "items": [
            {
                "title": "Support premium",
                "text": (
                    "Un interlocuteur dédié et une prise en charge prioritaire de vos demandes, "
                    "qu'il s'agisse d'un incident ou d'une question d'usage."
                ),
            },
            {
                "title": "Onboarding personnalisé",
                "text": (
                    "Paramétrage de vos champs, de vos modèles de documents et formation de vos conseillers, "
                    "pour une mise en service alignée sur vos processus."
                ),
            },
            {
                "title": "Gestion et nettoyage des données",
                "text": (
                    "Reprise de vos fichiers existants, dédoublonnage et normalisation des données clients "
                    "avant leur import dans la plateforme."
                ),
            },
        ],
    },
    "faq": {
        "title": "Questions fréquentes",
        "items": [
            {
                "question": "Quelle différence entre un utilisateur et un client ?",
                "answer": (
                    "Un utilisateur est un membre de vos équipes qui se connecte au CRM : conseiller, assistant "
                    "ou middle office. Un client est un investisseur qui dispose d'un accès au portail."
                ),
            },
            {
                "question": "Comment fonctionne la dégressivité ?",
                "answer": (
                    "Au-delà de 200 clients ou de 5 utilisateurs selon l'offre, le prix unitaire baisse par paliers. "
                    "Nous vous remettons la grille correspondant à vos volumes lors de la démo."
                ),
            },
            {
                "question": "Puis-je changer d'offre en cours d'abonnement ?",
                "answer": (
                    "Oui. Toutes les offres reposent sur la même plateforme : vous pouvez passer d'Engage "
                    "ou de Manage à Interact, puis à Complete, en conservant vos données et votre paramétrage."
                ),
            },
            {
                "question": "Comment les options sont-elles facturées ?",
                "answer": (
                    "Les options et les services additionnels s'ajoutent à l'abonnement. Leur prix dépend "
                    "de votre périmètre et figure dans la proposition commerciale que nous vous adressons."
                ),
            },
        ],
    },
    "unlimited": {
        "text": "30 jours d'essai gratuit, collaborateurs illimités, sans carte bancaire.",
        "cta": "Créer mon environnement d'essai",
    },
    "cta": {
        "title": "Besoin d'aide pour choisir votre offre ?",
        "text": "Un consultant vous présente la plateforme en 30 minutes, sur vos propres cas d'usage.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Pricing",
        "title": "Our offers & pricing",
        "lead": (
            "A white-label client portal, an advisor CRM or the complete platform with KYC onboarding: "
            "choose the scope that fits your firm, with transparent pricing that becomes degressive "
            "as your client base grows."
        ),
        "trial_cta": "Start your free trial",
        "demo_cta": "Book a demo",
    },
    "offers": {
        "title": "Four offers, one platform",
        "intro": (
            "Every offer runs on the same platform: start with the portal or the CRM, "
            "then move up when your needs change, without switching tools."
        ),
        "currency_prefix": "$",
        "currency_code": "USD",
        "currency_suffix": "",
        "most_popular": "Most popular",
        "on_quote": "On quote",
        "units": {
            "per_client": "per client / month",
            "per_user": "per user / month",
            "quote": "tailored to your firm",
        },
        "includes_title": "What's included",
        "addons_title": "Optional add-ons",
        "tax_note": "Monthly prices, excluding taxes. Degressive pricing applies beyond the thresholds shown.",
        "compare_link": "Compare every feature",
        # A card's "everything in offer X" line.
        "all_of": {
            "engage": "All of Engage: the premium white-label client portal",
            "manage": "All of Manage: the complete advisor CRM",
            "interact": "All of Interact: client portal and advisor CRM",
        },
        "items": [
            {
                "key": "engage",
                "contains": "The premium white-label client portal",
                "summary": (
                    "Give your clients a digital space in your colours to follow their wealth, "
                    "read their documents and talk to their advisor."
                ),
                "degressive": "Degressive from 200 clients",
                "cta": "Try Engage",
            },
            {
                "key": "manage",
                "contains": "The advisor CRM",
                "summary": (
                    "Bring client knowledge together, prioritise the day's actions "
                    "and steer your commercial activity from a single tool."
                ),
                "degressive": "Degressive from 5 users",
                "cta": "Try Manage",
            },
            {
                "key": "interact",
                "contains": "Engage + Manage",
                "summary": (
                    "The client portal and the CRM together: every client-side exchange "
                    "enriches the advisor's 360° file."
                ),
                "degressive": "Degressive from 5 users and 200 clients",
                "cta": "Try Interact",
            },
            {
                "key": "complete",
                "contains": "Interact + KYC onboarding",
                "summary": (
                    "The complete platform: digital client onboarding, KYC questionnaires "
                    "and compliance controls built into the client journey."
                ),
                "degressive": "Based on your numbers of users and clients, and your add-ons",
                "cta": "Request a quote",
            },
        ],
    },
    "trial": {
        "title": "30-day free trial",
        "intro": (
            f"Discover {B} in a ready-to-use environment before you commit: "
            "your teams get to grips with the portal and the CRM on fictitious data."
        ),
        "facts": [
            "30-day free trial",
            "No payment card required",
            "3 users",
            "Preloaded demo data",
            "5 GB of storage",
            "All features",
        ],
        "trial_cta": "Start your free trial",
        "compare_cta": "Compare the offers",
    },
    "services": {
        "title": "Add-on services",
        "intro": "Paid services on top of your subscription, whichever offer you choose.",
        "items": [
            {
                "title": "Premium support",
                "text": (
                    "A dedicated contact and priority handling of your requests, "
                    "whether it is an incident or a question about day-to-day use."
                ),
            },
            {
                "title": "Personalised onboarding",
                "text": (
                    "Set-up of your fields and document templates, and training for your advisors, "
                    "so that go-live matches the way you work."
                ),
            },
            {
                "title": "Data management and clean-up",
                "text": (
                    "Recovery of your existing files, de-duplication and standardisation of client data "
                    "before it is imported into the platform."
                ),
            },
        ],
    },
    "faq": {
        "title": "Frequently asked questions",
        "items": [
            {
                "question": "What is the difference between a user and a client?",
                "answer": (
                    "A user is a member of your team who logs in to the CRM: advisor, assistant "
                    "or middle office. A client is an investor with access to the portal."
                ),
            },
            {
                "question": "How does degressive pricing work?",
                "answer": (
                    "Beyond 200 clients or 5 users, depending on the offer, the unit price falls in steps. "
                    "We share the grid that matches your volumes during the demo."
                ),
            },
            {
                "question": "Can I change offer during my subscription?",
                "answer": (
                    "Yes. Every offer runs on the same platform: you can move from Engage or Manage "
                    "to Interact, then to Complete, keeping your data and your set-up."
                ),
            },
            {
                "question": "How are add-ons billed?",
                "answer": (
                    "Optional add-ons and add-on services come on top of the subscription. Their price depends "
                    "on your scope and is set out in the commercial proposal we send you."
                ),
            },
        ],
    },
    "unlimited": {
        "text": "30-day free trial, unlimited collaborators, no payment card.",
        "cta": "Create my trial environment",
    },
    "cta": {
        "title": "Need help choosing your offer?",
        "text": "A consultant walks you through the platform in 30 minutes, on your own use cases.",
        "label": "Book a demo",
    },
}
