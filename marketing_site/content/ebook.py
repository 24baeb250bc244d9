"""Words of the e-book download page (five reasons the next-generation wealth manager goes digital).

`BANNER` is the animated strip at the top: it is French on both language versions of the page.
"""

BANNER = {
    "lang": "fr",
    "tag": "Nouveau",
    "text": "E-book gratuit : le wealth manager nouvelle génération, 5 raisons de passer au digital",
    "link": "Je le télécharge",
}

FR = {
    "eyebrow": "E-book gratuit",
    "title": "Le wealth manager nouvelle génération",
    "lead": (
        "Cinq raisons pour lesquelles banques privées, sociétés de gestion, family offices et "
        "conseillers indépendants passent au digital, et comment le faire sans perdre ce qui fait "
        "la valeur de la relation : la confiance et le conseil."
    ),
    "cta": "Télécharger l'e-book",
    "cover_alt": "Couverture de l'e-book « Le wealth manager nouvelle génération »",
    "summary_title": "Au sommaire : cinq raisons de passer au digital",
    "summary_intro": (
        "Chaque chapitre part d'une attente concrète de vos clients ou de vos équipes et se termine "
        "par des questions à vous poser avant de choisir vos outils."
    ),
    "facts": ["Format PDF", "5 chapitres", "10 minutes de lecture"],
    "summary_items": [
        {
            "title": "Vos clients vivent déjà en digital",
            "text": (
                "Ils consultent leurs comptes sur mobile chaque jour et attendent la même fluidité de leur "
                "gestionnaire : reporting disponible à tout moment, documents partagés, échanges sécurisés."
            ),
        },
        {
            "title": "Le temps du conseiller est votre ressource la plus rare",
            "text": (
                "To-do list intelligente, alertes prioritaires, agenda synchronisé et comptes rendus de "
                "rendez-vous : moins de saisie, plus de temps passé à conseiller."
            ),
        },
        {
            "title": "La conformité peut devenir un avantage",
            "text": (
                "Un KYC en ligne, des checklists documentaires et des contrôles tracés rendent l'entrée en "
                "relation plus rapide et le dossier client durablement à jour."
            ),
        },
        {
            "title": "La donnée client est un actif à faire fructifier",
            "text": (
                "Fiche client 360°, groupes familiaux, alertes sur les portefeuilles et contenus ciblés : "
                "anticiper les besoins plutôt que réagir aux demandes."
            ),
        },
        {
            "title": "La prochaine génération choisira son conseiller",
            "text": (
                "La transmission du patrimoine se prépare avec les héritiers. Ils jugeront votre maison "
                "aussi sur la qualité de son expérience digitale."
            ),
        },
    ],
    "audience_title": "À qui s'adresse cet e-book ?",
    "audience_items": [
        "Directions générales et COO de banques privées",
        "Dirigeants de sociétés de gestion et de family offices",
        "Conseillers en gestion de patrimoine indépendants",
        "Responsables de la relation client et de la transformation digitale",
    ],
    "form_title": "Recevez l'e-book",
    "form_intro": "Renseignez vos coordonnées ci-dessous : le téléchargement démarre aussitôt.",
}

EN = {
    "eyebrow": "Free e-book",
    "title": "The next-generation wealth manager",
    "lead": (
        "Five reasons why private banks, asset managers, family offices and independent advisers are "
        "going digital, and how to do it without losing what gives the relationship its value: "
        "trust and advice."
    ),
    "cta": "Download the e-book",
    "cover_alt": "Cover of the e-book “The next-generation wealth manager”",
    "summary_title": "Inside: five reasons to go digital",
    "summary_intro": (
        "Each chapter starts from a concrete expectation of your clients or your teams and ends with "
        "the questions to ask yourself before choosing your tools."
    ),
    "facts": ["PDF format", "5 chapters", "10-minute read"],
    "summary_items": [
        {
            "title": "Your clients already live digitally",
            "text": (
                "They check their accounts on their phones every day and expect the same ease from their "
                "wealth manager: reporting available at any time, shared documents, secure conversations."
            ),
        },
        {
            "title": "Advisers' time is your scarcest resource",
            "text": (
                "A smart to-do list, prioritised alerts, a synchronised calendar and meeting notes: less data "
                "entry, more time spent advising."
            ),
        },
        {
            "title": "Compliance can become an advantage",
            "text": (
                "Online KYC, document checklists and traceable controls make onboarding faster and keep the "
                "client file up to date."
            ),
        },
        {
            "title": "Client data is an asset to put to work",
            "text": (
                "A 360° client file, family groups, portfolio alerts and targeted content: anticipate needs "
                "instead of reacting to requests."
            ),
        },
        {
            "title": "The next generation will choose its adviser",
            "text": (
                "Wealth transfer is prepared with the heirs. They will also judge your firm on the quality "
                "of its digital experience."
            ),
        },
    ],
    "audience_title": "Who is this e-book for?",
    "audience_items": [
        "Chief executives and COOs of private banks",
        "Heads of asset management firms and family offices",
        "Independent wealth advisers",
        "Heads of client relationship and digital transformation",
    ],
    "form_title": "Get the e-book",
    "form_intro": "Fill in your details below and the download starts straight away.",
}
