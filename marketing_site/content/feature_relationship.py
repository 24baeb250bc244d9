"""Words of the relationship-management feature page (SPEC §1 claims, §2 contents)."""

from marketing_site.brand import BRAND_NAME

FR = {
    "hero": {
        "eyebrow": "Gestion de la relation client",
        "title": "Consacrez votre temps à vos clients, pas à l'administratif",
        "lead": (
            f"Le CRM {BRAND_NAME} réunit vos tâches, vos rendez-vous, vos comptes rendus et la "
            "connaissance de chaque client dans un même espace, pensé pour les conseillers en "
            "gestion de patrimoine et les banquiers privés."
        ),
        "primary": "Demander une démo",
        "secondary": "Voir les offres",
        "art_alt": "Écran du CRM : to-do list priorisée, agenda de la semaine, fiche client et alerte à traiter",
    },
    "sections": [
        {
            "id": "organisation",
            "title": "Organisez vos journées",
            "intro": (
                "Chaque matin, vous savez par où commencer : tâches, rendez-vous et relances sont "
                "rassemblés et classés par priorité."
            ),
            "items": [
                {
                    "icon": "day-list",
                    "title": "To-do list intelligente",
                    "text": (
                        "Vos actions du jour sont regroupées et ordonnées : relances, pièces à "
                        "collecter, rendez-vous à préparer et alertes à traiter, les plus urgentes en tête."
                    ),
                },
                {
                    "icon": "tasks",
                    "title": "Gestionnaire de tâches",
                    "text": (
                        "Créez, assignez et suivez les tâches de l'équipe, avec échéances et rappels, "
                        "rattachées à un client ou à un groupe : rien ne se perd entre le front et le "
                        "middle office."
                    ),
                },
                {
                    "icon": "calendar",
                    "title": "Agenda synchronisé",
                    "text": (
                        "Synchronisation bidirectionnelle avec Google Agenda et Outlook : un rendez-vous "
                        "créé d'un côté apparaît de l'autre, sans double saisie."
                    ),
                },
                {
                    "icon": "notes",
                    "title": "Comptes rendus et reporting intelligent",
                    "text": (
                        "Prenez vos notes de rendez-vous directement dans la fiche client, transformez-les "
                        "en tâches et produisez des comptes rendus et des reportings clairs en quelques clics."
                    ),
                },
            ],
        },
        {
            "id": "connaissance-client",
            "title": "Connaissez chaque client dans le détail",
            "intro": (
                "Toutes les informations utiles au conseil sont au même endroit, structurées selon "
                "vos méthodes de travail."
            ),
            "items": [
                {
                    "icon": "client-file",
                    "title": "Fiche client 360°",
                    "text": (
                        "Patrimoine, contrats, documents, historique des échanges et des rendez-vous, "
                        "objectifs et profil de risque : une vue complète de la relation, sur un seul écran."
                    ),
                },
                {
                    "icon": "fields",
                    "title": "Champs configurables",
                    "text": (
                        "Ajoutez vos propres champs, listes de valeurs et rubriques pour refléter votre "
                        "segmentation de clientèle et vos exigences internes."
                    ),
                },
                {
                    "icon": "groups",
                    "title": "Groupes de contacts",
                    "text": (
                        "Modélisez les liens réels de votre clientèle : familles, personnes physiques, "
                        "personnes morales et indivisions, pour suivre un patrimoine dans sa globalité."
                    ),
                },
            ],
        },
    ],
    "alerts": {
        "id": "alertes",
        "title": "Des alertes priorisées pour agir au bon moment",
        "intro": (
            "Les signaux qui comptent vous parviennent classés par priorité et répartis en quatre "
            "catégories : vous appelez le bon client, au bon moment, avec le bon sujet."
        ),
        "items": [
            {
                "icon": "behaviour",
                "title": "Comportementales",
                "text": (
                    "Un client qui ne s'est pas connecté depuis longtemps, consulte plusieurs fois la "
                    "même offre ou n'a pas été contacté depuis des mois."
                ),
            },
            {
                "icon": "article",
                "title": "Articles et contenus",
                "text": (
                    "Un client lit une analyse ou une publication en lien avec ses projets : c'est le "
                    "moment d'en parler avec lui."
                ),
            },
            {
                "icon": "portfolio-alert",
                "title": "Portefeuilles d'investissement",
                "text": (
                    "Variation de performance, franchissement de seuil ou écart avec l'allocation cible "
                    "d'un portefeuille."
                ),
            },
            {
                "icon": "shield-alert",
                "title": "Conformité",
                "text": (
                    "Pièce justificative expirée, questionnaire KYC à renouveler ou profil de risque à "
                    "mettre à jour."
                ),
            },
        ],
        "example": {
            "label": "Exemple d'alerte",
            "priority": "Priorité haute",
            "category": "Portefeuilles d'investissement",
            "title": "Mandat de gestion discrétionnaire en baisse de plus de 10 %",
            "text": (
                "Le portefeuille sous mandat d'un client franchit le seuil de −10 %. L'alerte remonte en "
                "tête de votre to-do list, avec la fiche client et l'historique des échanges, pour que "
                "vous l'appeliez avant qu'il ne s'inquiète."
            ),
        },
    },
    "cta": {
        "title": "Voyez le CRM sur vos propres cas d'usage",
        "text": "Trente minutes avec un consultant pour parcourir la to-do list, l'agenda, les alertes et la fiche client 360°.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Client relationship management",
        "title": "Spend your time with clients, not on paperwork",
        "lead": (
            f"The {BRAND_NAME} CRM brings your tasks, meetings, meeting notes and everything you know "
            "about each client into one workspace, designed for wealth managers and private bankers."
        ),
        "primary": "Book a demo",
        "secondary": "See our offers",
        "art_alt": "CRM screen: prioritised to-do list, weekly calendar, client file and an alert to handle",
    },
    "sections": [
        {
            "id": "organisation",
            "title": "Organise your days",
            "intro": (
                "Every morning you know where to start: tasks, meetings and follow-ups are gathered "
                "in one place and ranked by priority."
            ),
            "items": [
                {
                    "icon": "day-list",
                    "title": "Smart to-do list",
                    "text": (
                        "Your actions for the day are grouped and ordered: follow-ups, documents to "
                        "collect, meetings to prepare and alerts to handle, the most urgent first."
                    ),
                },
                {
                    "icon": "tasks",
                    "title": "Task manager",
                    "text": (
                        "Create, assign and track team tasks with due dates and reminders, linked to a "
                        "client or a group: nothing gets lost between front and middle office."
                    ),
                },
                {
                    "icon": "calendar",
                    "title": "Synchronised calendar",
                    "text": (
                        "Two-way sync with Google Calendar and Outlook: a meeting created on one side "
                        "appears on the other, with no double entry."
                    ),
                },
                {
                    "icon": "notes",
                    "title": "Meeting notes and intelligent reporting",
                    "text": (
                        "Take meeting notes straight into the client file, turn them into tasks and "
                        "produce clear minutes and reports in a few clicks."
                    ),
                },
            ],
        },
        {
            "id": "connaissance-client",
            "title": "Know every client in depth",
            "intro": (
                "Everything that matters for your advice sits in one place, organised the way you work."
            ),
            "items": [
                {
                    "icon": "client-file",
                    "title": "360° client file",
                    "text": (
                        "Assets, contracts, documents, history of exchanges and meetings, objectives and "
                        "risk profile: the whole relationship on a single screen."
                    ),
                },
                {
                    "icon": "fields",
                    "title": "Configurable fields",
                    "text": (
                        "Add your own fields, value lists and sections to match your client segmentation "
                        "and your internal requirements."
                    ),
                },
                {
                    "icon": "groups",
                    "title": "Contact groups",
                    "text": (
                        "Model the real ties between your clients: families, natural persons, legal "
                        "persons and joint ownership, to follow wealth as a whole."
                    ),
                },
            ],
        },
    ],
    "alerts": {
        "id": "alertes",
        "title": "Prioritised alerts to act at the right time",
        "intro": (
            "The signals that matter reach you ranked by priority and sorted into four categories: "
            "you call the right client, at the right time, about the right subject."
        ),
        "items": [
            {
                "icon": "behaviour",
                "title": "Behavioural",
                "text": (
                    "A client who has not logged in for a long time, keeps viewing the same offer or "
                    "has not been contacted for months."
                ),
            },
            {
                "icon": "article",
                "title": "Articles and content",
                "text": (
                    "A client reads an analysis or a publication related to their plans: the right "
                    "moment to discuss it with them."
                ),
            },
            {
                "icon": "portfolio-alert",
                "title": "Investment portfolios",
                "text": (
                    "A change in performance, a threshold crossed or a portfolio drifting from its "
                    "target allocation."
                ),
            },
            {
                "icon": "shield-alert",
                "title": "Compliance",
                "text": (
                    "An expired supporting document, a KYC questionnaire due for renewal or a risk "
                    "profile to update."
                ),
            },
        ],
        "example": {
            "label": "Example alert",
            "priority": "High priority",
            "category": "Investment portfolios",
            "title": "Discretionary mandate down by more than 10%",
            "text": (
                "A client's discretionary-mandate portfolio crosses the −10% threshold. The alert moves "
                "to the top of your to-do list, with the client file and the history of exchanges, so "
                "you can call before the client starts to worry."
            ),
        },
    },
    "cta": {
        "title": "See the CRM on your own use cases",
        "text": "Thirty minutes with a consultant to walk through the to-do list, calendar, alerts and 360° client file.",
        "label": "Book a demo",
    },
}
