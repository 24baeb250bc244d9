"""Words of the white-paper download page (digital trends in wealth management).

`BANNER` is the animated strip at the top: it is English on both language versions of the page.
"""

BANNER = {
    "lang": "en",
    "tag": "New",
    "text": "White paper: the digital trends reshaping wealth management, free download",
    "link": "Get your copy",
}

FR = {
    "eyebrow": "Livre blanc",
    "title": "Les tendances digitales du wealth management",
    "lead": (
        "Portail client, données, KYC en ligne, pilotage commercial : les évolutions qui redessinent "
        "le métier des banques privées, des sociétés de gestion et des conseillers indépendants, et "
        "les choix qu'elles imposent dès aujourd'hui."
    ),
    "cta": "Télécharger le livre blanc",
    "cover_alt": "Couverture du livre blanc « Les tendances digitales du wealth management »",
    "summary_title": "Six tendances à l'œuvre",
    "summary_intro": (
        "Pour chaque tendance, le livre blanc décrit ce qui change pour les clients et pour les équipes, "
        "puis les premières étapes pour s'y préparer."
    ),
    "facts": ["Format PDF", "6 tendances", "12 minutes de lecture"],
    "summary_items": [
        {
            "title": "Le modèle hybride s'impose",
            "text": (
                "Le conseiller reste au centre, mais la relation se prolonge en ligne : un portail client "
                "en marque blanche devient la vitrine quotidienne de la maison."
            ),
        },
        {
            "title": "La personnalisation passe par la donnée",
            "text": (
                "Alertes comportementales, suivi des portefeuilles et contenus ciblés avec score de "
                "pertinence : le bon message, au bon client, au bon moment."
            ),
        },
        {
            "title": "L'entrée en relation devient digitale",
            "text": (
                "Questionnaires KYC en ligne, checklists documentaires, signature électronique et "
                "contrôles anti-blanchiment automatisés raccourcissent l'onboarding."
            ),
        },
        {
            "title": "Le CRM pilote le développement commercial",
            "text": (
                "Pipeline, tableaux de bord et tâches partagées donnent aux directions une vision fiable "
                "de la collecte et de l'activité des équipes."
            ),
        },
        {
            "title": "La sécurité devient un argument",
            "text": (
                "Authentification à deux facteurs, détection des intrusions et messagerie chiffrée : la "
                "confiance se démontre aussi dans les outils."
            ),
        },
        {
            "title": "Les écosystèmes s'ouvrent",
            "text": (
                "Agrégation de comptes externes, synchronisation d'agenda et partenaires spécialisés : la "
                "plateforme relie les services plutôt que de tout refaire."
            ),
        },
    ],
    "audience_title": "À qui s'adresse ce livre blanc ?",
    "audience_items": [
        "Directions générales et COO de banques privées",
        "Responsables de la conformité et du contrôle interne",
        "Dirigeants de sociétés de gestion et de family offices",
        "Conseillers en gestion de patrimoine indépendants",
    ],
    "form_title": "Recevez le livre blanc",
    "form_intro": "Renseignez vos coordonnées ci-dessous : le téléchargement démarre aussitôt.",
}

EN = {
    "eyebrow": "White paper",
    "title": "Digital trends in wealth management",
    "lead": (
        "Client portals, data, online KYC, sales management: the shifts reshaping the work of private "
        "banks, asset managers and independent advisers, and the choices they call for today."
    ),
    "cta": "Download the white paper",
    "cover_alt": "Cover of the white paper “Digital trends in wealth management”",
    "summary_title": "Six trends at work",
    "summary_intro": (
        "For each trend, the white paper describes what changes for clients and for teams, then the "
        "first steps to get ready."
    ),
    "facts": ["PDF format", "6 trends", "12-minute read"],
    "summary_items": [
        {
            "title": "The hybrid model takes hold",
            "text": (
                "The adviser stays at the centre, but the relationship carries on online: a white-label "
                "client portal becomes the firm's everyday shop window."
            ),
        },
        {
            "title": "Personalisation runs on data",
            "text": (
                "Behavioural alerts, portfolio monitoring and targeted content with a matching score: the "
                "right message, to the right client, at the right time."
            ),
        },
        {
            "title": "Onboarding goes digital",
            "text": (
                "Online KYC questionnaires, document checklists, electronic signature and automated "
                "anti-money-laundering screening shorten onboarding."
            ),
        },
        {
            "title": "The CRM steers business development",
            "text": (
                "Pipeline, dashboards and shared tasks give management a reliable view of new money and "
                "of the teams' activity."
            ),
        },
        {
            "title": "Security becomes a selling point",
            "text": (
                "Two-factor authentication, intrusion detection and encrypted chat: trust is also "
                "demonstrated through the tools."
            ),
        },
        {
            "title": "Ecosystems open up",
            "text": (
                "External account aggregation, calendar sync and specialist partners: the platform "
                "connects services rather than rebuilding everything."
            ),
        },
    ],
    "audience_title": "Who is this white paper for?",
    "audience_items": [
        "Chief executives and COOs of private banks",
        "Heads of compliance and internal control",
        "Heads of asset management firms and family offices",
        "Independent wealth advisers",
    ],
    "form_title": "Get the white paper",
    "form_intro": "Fill in your details below and the download starts straight away.",
}
