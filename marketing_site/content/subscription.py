"""Words of the digital financial-product subscription page (SPEC §1, §2).

The page is French only; `EN` is its faithful translation, kept for parity.
"""

from marketing_site.brand import BRAND_NAME
from marketing_site.content import documents

FR = {
    "hero": {
        "eyebrow": "Souscription digitale",
        "title": "La souscription de produits financiers, entièrement digitale",
        "lead": (
            f"{BRAND_NAME} accompagne les distributeurs de produits financiers : questionnaire KYC en "
            "ligne, parcours de souscription sans papier et suivi de conformité, de la proposition à "
            "la validation du dossier."
        ),
        "primary": "Recevoir la documentation",
        "secondary": "Demander une démo",
        "art_alt": (
            "Formulaire de souscription en ligne, tableau de bord des souscriptions et parcours en "
            "quatre étapes dont trois validées"
        ),
    },
    "sections": [
        {
            "id": "fonctionnalites",
            "title": "Six briques pour digitaliser vos souscriptions",
            "intro": (
                "Chaque brique répond à une étape du parcours ; ensemble, elles suppriment les "
                "ressaisies, les dossiers incomplets et les relances par courrier."
            ),
            "items": [
                {
                    "icon": "questionnaire",
                    "title": "Questionnaire KYC en ligne",
                    "text": (
                        "L'investisseur complète sa connaissance client et son profil en ligne, avec des "
                        "questions adaptées au produit souscrit."
                    ),
                },
                {
                    "icon": "journey",
                    "title": "Parcours de souscription digital",
                    "text": (
                        "Du choix du produit à la signature, un parcours guidé sur ordinateur, tablette "
                        "ou mobile, sans impression ni envoi postal."
                    ),
                },
                {
                    "icon": "workflow",
                    "title": "Workflow de suivi de conformité",
                    "text": (
                        "Chaque dossier suit un circuit de validation défini, du conseiller à la "
                        "conformité, avec un statut visible à chaque étape."
                    ),
                },
                {
                    "icon": "incomplete",
                    "title": "Alertes d'incomplétude et d'incohérence",
                    "text": (
                        "Pièce manquante, réponse contradictoire ou montant hors profil : le dossier "
                        "est signalé avant sa transmission, pas après."
                    ),
                },
                {
                    "icon": "activity",
                    "title": "Tableaux de bord commerciaux",
                    "text": (
                        "Suivez les souscriptions en cours, les montants collectés et les dossiers en "
                        "attente, par réseau, par produit et par conseiller."
                    ),
                },
                {
                    "icon": "distributor-portal",
                    "title": "Portail distributeur",
                    "text": (
                        "Vos distributeurs partenaires disposent d'un espace dédié pour lancer les "
                        "souscriptions, suivre leurs dossiers et consulter la documentation produit."
                    ),
                },
            ],
        },
    ],
    "audience": {
        "id": "pour-qui",
        "title": "Conçu pour les distributeurs de produits financiers",
        "intro": "La solution s'adapte à votre réseau de distribution et à vos produits.",
        "items": [
            "Conseillers en gestion de patrimoine indépendants",
            "Banques",
            "Banques privées",
            "Sociétés de gestion",
        ],
    },
    "documentation": {
        "id": "documentation",
        "title": "Recevoir la documentation",
        "intro": (
            "Découvrez dans le détail le parcours de souscription digitale et la manière dont il "
            "s'intègre à votre distribution."
        ),
        "document": documents.FR["subscription"],
    },
    "cta": {
        "title": "Voyez une souscription de bout en bout",
        "text": "Trente minutes avec un consultant pour dérouler un parcours, du questionnaire KYC à la validation du dossier.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Digital subscription",
        "title": "Financial-product subscription, fully digital",
        "lead": (
            f"{BRAND_NAME} supports distributors of financial products: an online KYC questionnaire, "
            "a paperless subscription journey and compliance follow-up, from the proposal to the "
            "approval of the file."
        ),
        "primary": "Receive the documentation",
        "secondary": "Book a demo",
        "art_alt": (
            "Online subscription form, subscriptions dashboard and a four-step journey with three "
            "steps completed"
        ),
    },
    "sections": [
        {
            "id": "fonctionnalites",
            "title": "Six building blocks to take your subscriptions digital",
            "intro": (
                "Each block covers one step of the journey; together they remove re-keying, incomplete "
                "files and follow-ups by post."
            ),
            "items": [
                {
                    "icon": "questionnaire",
                    "title": "Online KYC questionnaire",
                    "text": (
                        "The investor completes their know-your-client information and profile online, "
                        "with questions suited to the product subscribed."
                    ),
                },
                {
                    "icon": "journey",
                    "title": "Digital subscription journey",
                    "text": (
                        "From product choice to signature, a guided journey on desktop, tablet or mobile, "
                        "with no printing and no post."
                    ),
                },
                {
                    "icon": "workflow",
                    "title": "Compliance follow-up workflow",
                    "text": (
                        "Every file follows a defined approval circuit, from the adviser to compliance, "
                        "with a status visible at each step."
                    ),
                },
                {
                    "icon": "incomplete",
                    "title": "Incompleteness and inconsistency alerts",
                    "text": (
                        "A missing document, a contradictory answer or an amount outside the profile: the "
                        "file is flagged before it is sent on, not after."
                    ),
                },
                {
                    "icon": "activity",
                    "title": "Sales dashboards",
                    "text": (
                        "Track subscriptions in progress, amounts raised and pending files, by network, "
                        "by product and by adviser."
                    ),
                },
                {
                    "icon": "distributor-portal",
                    "title": "Distributor portal",
                    "text": (
                        "Your partner distributors get a dedicated space to start subscriptions, follow "
                        "their files and consult product documentation."
                    ),
                },
            ],
        },
    ],
    "audience": {
        "id": "pour-qui",
        "title": "Designed for distributors of financial products",
        "intro": "The solution adapts to your distribution network and your products.",
        "items": [
            "Independent wealth advisers",
            "Banks",
            "Private banks",
            "Management companies",
        ],
    },
    "documentation": {
        "id": "documentation",
        "title": "Receive the documentation",
        "intro": (
            "Discover the digital subscription journey in detail and how it fits into your "
            "distribution."
        ),
        "document": documents.EN["subscription"],
    },
    "cta": {
        "title": "See a subscription from end to end",
        "text": "Thirty minutes with a consultant to run through a journey, from the KYC questionnaire to the approval of the file.",
        "label": "Book a demo",
    },
}
