"""Words of the sales (prospecting) feature page (SPEC §1 claims, §2 contents)."""

from marketing_site.brand import BRAND_NAME

FR = {
    "hero": {
        "eyebrow": "Prospection et ventes",
        "title": "Pilotez votre développement commercial avec précision",
        "lead": (
            f"Avec {BRAND_NAME}, suivez chaque prospect de la première prise de contact à la "
            "signature, et mesurez l'activité commerciale de vos équipes dans des tableaux de bord clairs."
        ),
        "primary": "Demander une démo",
        "secondary": "Voir les offres",
        "art_alt": "Pipeline commercial en colonnes par étape, histogramme de la collecte et indicateur d'objectif",
    },
    "sections": [
        {
            "id": "pipeline",
            "title": "Un pipeline commercial lisible",
            "intro": (
                "Chaque opportunité avance d'étape en étape, avec la prochaine action à mener et le "
                "montant en jeu."
            ),
            "items": [
                {
                    "icon": "stages",
                    "title": "Étapes à votre image",
                    "text": (
                        "Premier contact, découverte, proposition, signature : adaptez les étapes à "
                        "votre processus commercial et visualisez où en est chaque prospect."
                    ),
                },
                {
                    "icon": "opportunity",
                    "title": "Opportunités chiffrées",
                    "text": (
                        "Associez à chaque opportunité un montant estimé et une date de conclusion "
                        "prévue pour anticiper la collecte."
                    ),
                },
                {
                    "icon": "follow-up",
                    "title": "Relances sans oubli",
                    "text": (
                        "Les prochaines actions de chaque prospect rejoignent la to-do list du "
                        "conseiller : aucune relance ne reste en suspens."
                    ),
                },
            ],
        },
        {
            "id": "tableaux-de-bord",
            "title": "Des tableaux de bord commerciaux pour décider",
            "intro": (
                "Direction, responsables d'équipe et conseillers disposent chacun de la vue adaptée à "
                "leur rôle."
            ),
            "items": [
                {
                    "icon": "activity",
                    "title": "Activité commerciale",
                    "text": (
                        "Rendez-vous réalisés, propositions envoyées et opportunités gagnées, par "
                        "conseiller, par équipe et par période."
                    ),
                },
                {
                    "icon": "collection",
                    "title": "Collecte et prévisions",
                    "text": (
                        "Rapprochez la collecte réalisée du potentiel du pipeline pour fixer des "
                        "objectifs réalistes et les suivre au fil des semaines."
                    ),
                },
                {
                    "icon": "conversion",
                    "title": "Taux de transformation",
                    "text": (
                        "Repérez les étapes où les prospects décrochent et ajustez vos actions "
                        "commerciales en conséquence."
                    ),
                },
            ],
        },
    ],
    "cta": {
        "title": "Mettez votre pipeline sous contrôle",
        "text": "Trente minutes avec un consultant pour voir le pipeline et les tableaux de bord sur vos propres indicateurs.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Prospecting and sales",
        "title": "Steer your business development with precision",
        "lead": (
            f"With {BRAND_NAME}, follow every prospect from first contact to signature, and measure "
            "your teams' sales activity in clear dashboards."
        ),
        "primary": "Book a demo",
        "secondary": "See our offers",
        "art_alt": "Sales pipeline in columns by stage, bar chart of new assets and a target gauge",
    },
    "sections": [
        {
            "id": "pipeline",
            "title": "A sales pipeline you can read at a glance",
            "intro": (
                "Each opportunity moves from stage to stage, with the next action to take and the "
                "amount at stake."
            ),
            "items": [
                {
                    "icon": "stages",
                    "title": "Stages that fit your process",
                    "text": (
                        "First contact, discovery, proposal, signature: adapt the stages to your sales "
                        "process and see where each prospect stands."
                    ),
                },
                {
                    "icon": "opportunity",
                    "title": "Quantified opportunities",
                    "text": (
                        "Give each opportunity an estimated amount and an expected closing date to "
                        "anticipate new assets."
                    ),
                },
                {
                    "icon": "follow-up",
                    "title": "No forgotten follow-ups",
                    "text": (
                        "Each prospect's next actions go straight to the adviser's to-do list: no "
                        "follow-up is left hanging."
                    ),
                },
            ],
        },
        {
            "id": "tableaux-de-bord",
            "title": "Sales dashboards to make decisions",
            "intro": (
                "Management, team leaders and advisers each get the view that fits their role."
            ),
            "items": [
                {
                    "icon": "activity",
                    "title": "Sales activity",
                    "text": (
                        "Meetings held, proposals sent and opportunities won, by adviser, by team and "
                        "by period."
                    ),
                },
                {
                    "icon": "collection",
                    "title": "New assets and forecasts",
                    "text": (
                        "Compare the assets raised with the potential of the pipeline to set realistic "
                        "targets and track them week after week."
                    ),
                },
                {
                    "icon": "conversion",
                    "title": "Conversion rates",
                    "text": (
                        "Spot the stages where prospects drop out and adjust your sales actions "
                        "accordingly."
                    ),
                },
            ],
        },
    ],
    "cta": {
        "title": "Take control of your pipeline",
        "text": "Thirty minutes with a consultant to see the pipeline and dashboards on your own indicators.",
        "label": "Book a demo",
    },
}
