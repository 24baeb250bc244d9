"""Words of the webinars page: hero, two on-demand webinars, closing call to action.

Each webinar's `path` is appended to `settings.webinar_url` (the external platform);
`art` is its card illustration.
"""

from marketing_site.brand import BRAND_NAME as B

_PORTAL = {"path": "/replay/portail-client-marque-blanche", "art": "/illustrations/legal/webinar-portal.svg"}
_KYC = {"path": "/replay/entree-en-relation-kyc-digitale", "art": "/illustrations/legal/webinar-kyc.svg"}

FR = {
    "hero": {
        "eyebrow": "Webinars",
        "title": "Webinars wealth management",
        "lead": (
            "En moins d'une heure, découvrez comment les banques privées, les sociétés de gestion et les "
            "conseillers en gestion de patrimoine digitalisent la relation client, sans perdre ce qui fait "
            "la valeur du conseil."
        ),
        "cta": "Voir les replays",
    },
    "replays": {
        "id": "replays",
        "title": "Nos webinars à la demande",
        "intro": (
            "Des démonstrations en situation réelle et des retours de terrain, animés par nos équipes "
            "produit et conformité. Les replays sont accessibles gratuitement sur notre plateforme de "
            "webinars."
        ),
        "speaker_label": "Intervenant",
        "duration_label": "Durée",
        "language_label": "Langue",
        "watch": "Voir le replay",
    },
    "webinars": [
        {
            **_PORTAL,
            "date": "Replay disponible à la demande",
            "title": "Portail client en marque blanche : ce que vos clients attendent vraiment",
            "speaker": f"Hélène Marchal, directrice produit, {B}",
            "duration": "45 minutes",
            "language": "Français",
            "abstract": (
                "Reporting consolidé, partage de documents, contenus ciblés et messagerie sécurisée avec "
                "prise de rendez-vous : comment un portail à vos couleurs renforce le lien entre le "
                "conseiller et ses clients, et allège le travail du middle office. Démonstration commentée "
                "et questions-réponses."
            ),
        },
        {
            **_KYC,
            "date": "Replay disponible à la demande",
            "title": "Entrée en relation et KYC : digitaliser sans alourdir le parcours client",
            "speaker": f"Marc Lefebvre, responsable conformité produit, {B}",
            "duration": "40 minutes",
            "language": "Français",
            "abstract": (
                "Checklists documentaires envoyées par email, questionnaires KYC personnalisables, "
                "contrôles de conformité, filtrage anti-blanchiment et signature électronique : les étapes "
                "d'une entrée en relation digitale, puis la mise à jour des profils tout au long de la "
                "relation."
            ),
        },
    ],
    "cta": {
        "title": "Vous préférez voir la plateforme sur vos propres cas ?",
        "text": "Un consultant vous la présente en 30 minutes, à l'heure qui vous convient.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Webinars",
        "title": "Wealth management webinars",
        "lead": (
            "In under an hour, see how private banks, asset managers and independent wealth advisers are "
            "taking their client relationships digital, without losing what makes their advice valuable."
        ),
        "cta": "Watch the replays",
    },
    "replays": {
        "id": "replays",
        "title": "Our on-demand webinars",
        "intro": (
            "Live product walkthroughs and lessons from the field, presented by our product and compliance "
            "teams. The replays are free to watch on our webinar platform."
        ),
        "speaker_label": "Speaker",
        "duration_label": "Duration",
        "language_label": "Language",
        "watch": "Watch the replay",
    },
    "webinars": [
        {
            **_PORTAL,
            "date": "On demand",
            "title": "White-label client portal: what your clients really expect",
            "speaker": f"Hélène Marchal, Head of Product, {B}",
            "duration": "45 minutes",
            "language": "French",
            "abstract": (
                "Consolidated reporting, document sharing, targeted content and secure chat with "
                "appointment booking: how a portal in your own colours strengthens the bond between "
                "advisers and their clients while easing the middle office's workload. A guided "
                "demonstration followed by questions and answers."
            ),
        },
        {
            **_KYC,
            "date": "On demand",
            "title": "Onboarding and KYC: going digital without a heavier client journey",
            "speaker": f"Marc Lefebvre, Product Compliance Lead, {B}",
            "duration": "40 minutes",
            "language": "French",
            "abstract": (
                "Document checklists sent by email, customisable KYC questionnaires, compliance controls, "
                "anti-money-laundering screening and e-signature: the steps of a digital onboarding "
                "journey, then keeping client profiles up to date throughout the relationship."
            ),
        },
    ],
    "cta": {
        "title": "Would you rather see the platform on your own use cases?",
        "text": "A consultant will walk you through it in 30 minutes, at a time that suits you.",
        "label": "Book a demo",
    },
}
