"""Words of the compliance/KYC feature page (SPEC §1 claims, §2 contents)."""

from marketing_site.brand import BRAND_NAME
from marketing_site.content import documents

FR = {
    "hero": {
        "eyebrow": "Conformité et KYC",
        "title": "Une conformité maîtrisée, sans alourdir la relation client",
        "lead": (
            "Collectez les pièces, personnalisez vos questionnaires KYC et tenez les profils à jour "
            "dans un parcours digital, tracé de bout en bout."
        ),
        "primary": "Recevoir la documentation",
        "secondary": "Demander une démo",
        "art_alt": "Checklist documentaire en cours de validation, bouclier de conformité et signature électronique",
    },
    "sections": [
        {
            "id": "entree-en-relation",
            "title": "Une entrée en relation digitale",
            "intro": (
                "Le dossier réglementaire se constitue au fil de l'eau, sans allers-retours de papier "
                "entre le client, le conseiller et le middle office."
            ),
            "items": [
                {
                    "icon": "checklist",
                    "title": "Checklists documentaires",
                    "text": (
                        "Définissez les pièces attendues pour chaque type de client ; la checklist est "
                        "envoyée par e-mail au client, qui dépose ses justificatifs en ligne."
                    ),
                },
                {
                    "icon": "questionnaire",
                    "title": "Questionnaires KYC personnalisables",
                    "text": (
                        "Adaptez les questions, les réponses attendues et leur enchaînement à votre "
                        "politique de connaissance client et à vos typologies de clientèle."
                    ),
                },
                {
                    "icon": "profile-update",
                    "title": "Mises à jour de profil",
                    "text": (
                        "Invitez les clients dont le profil arrive à échéance à confirmer ou modifier "
                        "leurs informations ; l'historique des versions est conservé."
                    ),
                },
            ],
        },
        {
            "id": "controles",
            "title": "Des contrôles fiables, des partenaires spécialisés",
            "intro": (
                "Vos équipes conformité vérifient en un coup d'œil la complétude et la cohérence de "
                "chaque dossier."
            ),
            "items": [
                {
                    "icon": "controls",
                    "title": "Contrôles de conformité",
                    "text": (
                        "Pièces manquantes ou expirées, réponses incohérentes, profils à revoir : chaque "
                        "anomalie est signalée et remonte en alerte au bon interlocuteur."
                    ),
                },
                {
                    "icon": "signature",
                    "title": "Signature électronique (en option)",
                    "text": (
                        "Faites signer à distance conventions et documents réglementaires, grâce à "
                        "l'intégration de nos partenaires de signature électronique."
                    ),
                },
                {
                    "icon": "screening",
                    "title": "Filtrage anti-blanchiment automatisé (en option)",
                    "text": (
                        "Le criblage de vos clients sur les listes de sanctions et de personnes "
                        "politiquement exposées est automatisé avec nos partenaires spécialisés."
                    ),
                },
            ],
        },
    ],
    "documentation": {
        "id": "documentation",
        "title": "Recevoir la documentation",
        "intro": (
            f"Pour étudier le module de conformité {BRAND_NAME} avec votre RCCI ou votre direction "
            "de la conformité, téléchargez sa documentation."
        ),
        "document": documents.FR["kyc"],
    },
    "cta": {
        "title": "Voyez un parcours KYC de bout en bout",
        "text": "Trente minutes avec un consultant pour dérouler une entrée en relation, de la checklist aux contrôles.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Compliance and KYC",
        "title": "Compliance under control, without weighing on the client relationship",
        "lead": (
            "Collect documents, customise your KYC questionnaires and keep profiles up to date in a "
            "digital journey, traced from end to end."
        ),
        "primary": "Receive the documentation",
        "secondary": "Book a demo",
        "art_alt": "Document checklist being validated, compliance shield and electronic signature",
    },
    "sections": [
        {
            "id": "entree-en-relation",
            "title": "Digital client onboarding",
            "intro": (
                "The regulatory file builds up as you go, with no paper shuttling between the client, "
                "the adviser and the middle office."
            ),
            "items": [
                {
                    "icon": "checklist",
                    "title": "Document checklists",
                    "text": (
                        "Define the documents required for each client type; the checklist is emailed to "
                        "the client, who uploads the supporting documents online."
                    ),
                },
                {
                    "icon": "questionnaire",
                    "title": "Customisable KYC questionnaires",
                    "text": (
                        "Adapt the questions, expected answers and their sequence to your know-your-client "
                        "policy and your client types."
                    ),
                },
                {
                    "icon": "profile-update",
                    "title": "Profile updates",
                    "text": (
                        "Invite clients whose profile is due for review to confirm or change their "
                        "information; the history of versions is kept."
                    ),
                },
            ],
        },
        {
            "id": "controles",
            "title": "Reliable controls, specialist partners",
            "intro": (
                "Your compliance teams check the completeness and consistency of every file at a glance."
            ),
            "items": [
                {
                    "icon": "controls",
                    "title": "Compliance controls",
                    "text": (
                        "Missing or expired documents, inconsistent answers, profiles to review: every "
                        "exception is flagged and raised as an alert to the right person."
                    ),
                },
                {
                    "icon": "signature",
                    "title": "Electronic signature (optional)",
                    "text": (
                        "Have agreements and regulatory documents signed remotely, through our integrated "
                        "electronic-signature partners."
                    ),
                },
                {
                    "icon": "screening",
                    "title": "Automated anti-money-laundering screening (optional)",
                    "text": (
                        "Screening your clients against sanctions and politically exposed persons lists "
                        "is automated with our specialist partners."
                    ),
                },
            ],
        },
    ],
    "documentation": {
        "id": "documentation",
        "title": "Receive the documentation",
        "intro": (
            f"To review the {BRAND_NAME} compliance module with your compliance officer or compliance "
            "department, download its documentation."
        ),
        "document": documents.EN["kyc"],
    },
    "cta": {
        "title": "See a KYC journey from end to end",
        "text": "Thirty minutes with a consultant to run through a client onboarding, from checklist to controls.",
        "label": "Book a demo",
    },
}
