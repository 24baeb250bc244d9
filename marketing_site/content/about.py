"""Words of the about page: who we are, then the features overview ("Nos fonctionnalités").

The page exists in French only; `EN` is a faithful translation kept for parity. The anchor ids
of the five features are fixed by the spec (SPEC §2) and must not change.
"""

from marketing_site.brand import BRAND_NAME, FOUNDED_YEAR

B = BRAND_NAME
ART = "/illustrations/home"

FR = {
    "hero": {
        "eyebrow": f"À propos de {B}",
        "title": "Nos fonctionnalités",
        "lead": (
            f"{B} réunit le CRM du conseiller et le portail de ses clients sur une même plateforme. "
            "Découvrez qui nous sommes, puis les cinq fonctionnalités qui rythment la journée des "
            "équipes que nous équipons."
        ),
        "demo_label": "Demander une démo",
        "nav_label": "Sur cette page",
    },
    "who": {
        "title": "Qui sommes-nous ?",
        "paragraphs": [
            (
                f"{B} est un éditeur français de logiciels dédié à la gestion de patrimoine, fondé en "
                f"{FOUNDED_YEAR}. Notre équipe réunit d'anciens banquiers privés, des conseillers en "
                "gestion de patrimoine et des ingénieurs partis d'un même constat : les professionnels "
                "du patrimoine jonglent entre trop d'outils, et leurs clients attendent une expérience "
                "digitale à la hauteur de la relation qu'ils entretiennent avec eux."
            ),
            (
                "Nous avons donc construit une plateforme unique : un CRM qui aide le conseiller à "
                "savoir quoi faire et quand, et un portail client en marque blanche qui prolonge la "
                "relation entre deux rendez-vous. Banques privées, sociétés de gestion, cabinets de "
                "CGP et family offices l'adaptent à leur organisation, à leur marque et à leurs "
                "exigences de conformité."
            ),
        ],
        "values": [
            {
                "title": "Conçu avec des praticiens",
                "text": (
                    "Chaque fonctionnalité part d'un usage observé en cabinet ou en banque privée, et "
                    "se met au point avec les conseillers qui l'utiliseront."
                ),
            },
            {
                "title": "Votre marque d'abord",
                "text": (
                    "Le portail client porte vos couleurs, votre logo et votre nom de domaine : vos "
                    "clients restent chez vous, pas chez nous."
                ),
            },
            {
                "title": "Sécurité et conformité",
                "text": (
                    "Hébergement au Luxembourg, double authentification, détection d'intrusion et "
                    "respect du RGPD font partie du socle, pas des options."
                ),
            },
        ],
    },
    "features": {
        "title": "Nos fonctionnalités en détail",
        "intro": f"Cinq briques du CRM {B}, utilisées chaque jour par les conseillers et leurs assistants.",
        "items": [
            {
                "id": "todo",
                "title": "To-do list intelligente",
                "paragraphs": [
                    (
                        "Chaque matin, le conseiller trouve une liste de tâches déjà triée : relances à "
                        "faire, documents à collecter, rendez-vous à préparer. Les tâches se créent à "
                        "la main, depuis une fiche client, ou automatiquement à partir des alertes."
                    ),
                    (
                        "Les alertes sont priorisées et classées en quatre catégories : "
                        "comportementales, contenus et articles, portefeuilles d'investissement et "
                        "conformité. Un portefeuille sous mandat de gestion discrétionnaire qui recule "
                        "de plus de 10 % déclenche ainsi une alerte et la tâche d'appeler le client."
                    ),
                ],
                "bullets": [
                    "Gestionnaire de tâches partagé entre conseillers et assistants",
                    "Échéances, rappels et délégation en un clic",
                    "Historique des actions rattaché à chaque fiche client",
                ],
                "image": f"{ART}/about-tasks.svg",
                "image_alt": "Liste de tâches priorisées, avec une alerte de portefeuille en tête de liste",
            },
            {
                "id": "Rdv",
                "title": "Rendez-vous et agenda synchronisé",
                "paragraphs": [
                    (
                        "Les rendez-vous se planifient depuis la fiche client et apparaissent aussitôt "
                        "dans l'agenda du conseiller. La synchronisation est bidirectionnelle avec "
                        "Google Agenda et Outlook : un rendez-vous déplacé d'un côté est mis à jour de "
                        "l'autre, sans ressaisie."
                    ),
                    (
                        "Dans le portail, la messagerie sécurisée permet de proposer des créneaux au "
                        "client : il choisit, et le rendez-vous s'inscrit dans les deux agendas. Après "
                        "l'entretien, le compte rendu se rédige dans la plateforme et reste attaché "
                        "au dossier."
                    ),
                ],
                "bullets": [
                    "Synchronisation bidirectionnelle avec deux messageries du marché",
                    "Propositions de créneaux depuis la messagerie sécurisée",
                    "Comptes rendus rattachés au rendez-vous et à la fiche client",
                ],
                "image": f"{ART}/about-calendar.svg",
                "image_alt": "Agenda hebdomadaire synchronisé avec une messagerie, flèches dans les deux sens",
            },
            {
                "id": "ficheClient",
                "title": "Fiche client 360°",
                "paragraphs": [
                    (
                        "La fiche client rassemble sur un écran tout ce que le conseiller doit savoir : "
                        "situation familiale et patrimoniale, portefeuilles, documents, échanges, "
                        "rendez-vous et tâches en cours. Les champs sont configurables : chaque "
                        "établissement ajoute les informations propres à son métier, sans développement."
                    ),
                    (
                        "Les contacts s'organisent en groupes qui reflètent la réalité patrimoniale : "
                        "familles, personnes physiques, personnes morales et indivisions. Une holding "
                        "familiale, ses associés et leurs enfants sont ainsi reliés, avec une vue "
                        "consolidée du groupe."
                    ),
                ],
                "bullets": [
                    "Champs personnalisables par établissement",
                    "Groupes : familles, personnes physiques, personnes morales, indivisions",
                    "Documents et historique des échanges au même endroit",
                ],
                "image": f"{ART}/about-client-file.svg",
                "image_alt": "Fiche client reliée aux membres d'une famille et à une société patrimoniale",
            },
            {
                "id": "reporting",
                "title": "Reporting de portefeuilles et comptes rendus intelligents",
                "paragraphs": [
                    (
                        "Positions et performances sont restituées dans des reportings clairs, "
                        "consultables par le conseiller dans le CRM et par le client dans son portail. "
                        "Relevés et rapports périodiques sont partagés dans l'espace documentaire "
                        "sécurisé."
                    ),
                    (
                        "Après chaque rendez-vous, le compte rendu intelligent reprend les éléments de "
                        "la fiche client, les points abordés et les décisions prises, pour produire un "
                        "document propre à partager avec le client ou à verser au dossier réglementaire."
                    ),
                ],
                "bullets": [
                    "Reporting consolidé par client ou par groupe",
                    "Partage de documents avec le client dans le portail",
                    "Comptes rendus de rendez-vous pré-remplis",
                ],
                "image": f"{ART}/about-reporting.svg",
                "image_alt": "Rapport de portefeuille avec graphique de répartition et courbe de performance",
            },
            {
                "id": "dashboard",
                "title": "Tableaux de bord commerciaux",
                "paragraphs": [
                    (
                        "Les tableaux de bord donnent aux dirigeants et aux responsables d'équipe une "
                        "vision nette de l'activité : pipeline commercial par étape, rendez-vous "
                        "réalisés, prospects en cours et tâches en retard, par conseiller ou par agence."
                    ),
                    (
                        "Chaque indicateur mène aux fiches concernées : d'un clic, on passe de la "
                        "tendance à l'action, qu'il s'agisse de relancer une proposition ou de "
                        "répartir un portefeuille de clients entre conseillers."
                    ),
                ],
                "bullets": [
                    "Pipeline commercial, de la prise de contact à la signature",
                    "Indicateurs par conseiller, par équipe ou par agence",
                    "Accès direct aux fiches derrière chaque chiffre",
                ],
                "image": f"{ART}/about-dashboard.svg",
                "image_alt": "Tableau de bord commercial avec un entonnoir de prospection et des indicateurs",
            },
        ],
    },
    "cta": {
        "title": "Voyez ces fonctionnalités sur vos propres dossiers",
        "text": "Un consultant vous présente la plateforme en trente minutes, selon votre organisation.",
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": f"About {B}",
        "title": "Our features",
        "lead": (
            f"{B} brings the adviser's CRM and the clients' portal together on one platform. Find out "
            "who we are, then the five features that shape the working day of the teams we equip."
        ),
        "demo_label": "Book a demo",
        "nav_label": "On this page",
    },
    "who": {
        "title": "Who we are",
        "paragraphs": [
            (
                f"{B} is a French software company dedicated to wealth management, founded in "
                f"{FOUNDED_YEAR}. Our team brings together former private bankers, independent wealth "
                "advisers and engineers who shared one observation: wealth professionals juggle too "
                "many tools, and their clients expect a digital experience that lives up to the "
                "relationship they have with them."
            ),
            (
                "So we built a single platform: a CRM that helps advisers know what to do and when, and "
                "a white-label client portal that carries the relationship between two meetings. "
                "Private banks, asset managers, advisory firms and family offices adapt it to their "
                "organisation, their brand and their compliance requirements."
            ),
        ],
        "values": [
            {
                "title": "Designed with practitioners",
                "text": (
                    "Every feature starts from a real situation observed in an advisory firm or a "
                    "private bank, and is refined with the advisers who will use it."
                ),
            },
            {
                "title": "Your brand first",
                "text": (
                    "The client portal carries your colours, your logo and your domain name: your "
                    "clients stay with you, not with us."
                ),
            },
            {
                "title": "Security and compliance",
                "text": (
                    "Hosting in Luxembourg, two-factor authentication, intrusion detection and GDPR "
                    "compliance are part of the foundations, not options."
                ),
            },
        ],
    },
    "features": {
        "title": "Our features in detail",
        "intro": f"Five building blocks of the {B} CRM, used every day by advisers and their assistants.",
        "items": [
            {
                "id": "todo",
                "title": "Smart to-do list",
                "paragraphs": [
                    (
                        "Every morning, advisers find a task list already sorted: follow-ups to make, "
                        "documents to collect, meetings to prepare. Tasks are created by hand, from a "
                        "client file, or automatically from alerts."
                    ),
                    (
                        "Alerts are prioritised and grouped into four categories: behavioural, content "
                        "and articles, investment portfolios and compliance. A discretionary-mandate "
                        "portfolio falling by more than 10% thus raises an alert and the task of "
                        "calling the client."
                    ),
                ],
                "bullets": [
                    "A task manager shared by advisers and assistants",
                    "Due dates, reminders and one-click delegation",
                    "A history of actions attached to every client file",
                ],
                "image": f"{ART}/about-tasks.svg",
                "image_alt": "A prioritised task list with a portfolio alert at the top",
            },
            {
                "id": "Rdv",
                "title": "Appointments and calendar sync",
                "paragraphs": [
                    (
                        "Meetings are scheduled from the client file and appear straight away in the "
                        "adviser's calendar. Sync works both ways with Google Calendar and Outlook: a "
                        "meeting moved on one side is updated on the other, with no re-keying."
                    ),
                    (
                        "In the portal, secure chat lets advisers offer time slots to the client, who "
                        "picks one, and the meeting lands in both calendars. Afterwards, the meeting "
                        "notes are written in the platform and stay attached to the file."
                    ),
                ],
                "bullets": [
                    "Two-way sync with two leading mail providers",
                    "Time-slot proposals from the secure chat",
                    "Meeting notes linked to the appointment and the client file",
                ],
                "image": f"{ART}/about-calendar.svg",
                "image_alt": "A weekly calendar synchronised with a mailbox, arrows going both ways",
            },
            {
                "id": "ficheClient",
                "title": "360° client file",
                "paragraphs": [
                    (
                        "The client file brings together on one screen everything an adviser needs to "
                        "know: family and wealth situation, portfolios, documents, conversations, "
                        "meetings and open tasks. Fields are configurable: each firm adds the data its "
                        "business needs, without development."
                    ),
                    (
                        "Contacts are organised into groups that mirror real wealth structures: "
                        "families, natural persons, legal persons and joint ownership. A family holding "
                        "company, its partners and their children are linked, with a consolidated view "
                        "of the group."
                    ),
                ],
                "bullets": [
                    "Fields configurable for each firm",
                    "Groups: families, natural persons, legal persons, joint ownership",
                    "Documents and conversation history in one place",
                ],
                "image": f"{ART}/about-client-file.svg",
                "image_alt": "A client file linked to family members and a family holding company",
            },
            {
                "id": "reporting",
                "title": "Portfolio reporting and intelligent meeting reports",
                "paragraphs": [
                    (
                        "Positions and performance are presented in clear reports, available to the "
                        "adviser in the CRM and to the client in the portal. Statements and periodic "
                        "reports are shared in the secure document space."
                    ),
                    (
                        "After each meeting, the intelligent report draws on the client file, the "
                        "topics discussed and the decisions taken to produce a clean document to share "
                        "with the client or to add to the regulatory file."
                    ),
                ],
                "bullets": [
                    "Consolidated reporting by client or by group",
                    "Document sharing with the client in the portal",
                    "Pre-filled meeting reports",
                ],
                "image": f"{ART}/about-reporting.svg",
                "image_alt": "A portfolio report with an allocation chart and a performance curve",
            },
            {
                "id": "dashboard",
                "title": "Commercial dashboards",
                "paragraphs": [
                    (
                        "Dashboards give executives and team leaders a clear view of activity: the "
                        "sales pipeline by stage, meetings held, open prospects and overdue tasks, by "
                        "adviser or by branch."
                    ),
                    (
                        "Every figure leads to the files behind it: one click takes you from the trend "
                        "to the action, whether that means following up a proposal or sharing out a "
                        "client book between advisers."
                    ),
                ],
                "bullets": [
                    "Sales pipeline, from first contact to signature",
                    "Indicators by adviser, team or branch",
                    "Direct access to the files behind every figure",
                ],
                "image": f"{ART}/about-dashboard.svg",
                "image_alt": "A commercial dashboard with a prospecting funnel and indicators",
            },
        ],
    },
    "cta": {
        "title": "See these features on your own cases",
        "text": "A consultant walks you through the platform in thirty minutes, around your organisation.",
        "label": "Book a demo",
    },
}
