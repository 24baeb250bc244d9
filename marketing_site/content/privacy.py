"""Words of the privacy policy (GDPR, French Data Protection Act, intellectual property, cookies).

The structure is the one `marketing_site.pages.legal_document` renders. The "cookies"
section keeps the same anchor in both languages: the legal notice links to it.
"""

from marketing_site import routes
from marketing_site.brand import BRAND_NAME as B
from marketing_site.content import legal_entity

_fr = legal_entity.FR
_en = legal_entity.EN
EMAIL = {"label": "", "to": "email", "anchor": ""}

FR = {
    "eyebrow": "Informations légales",
    "title": "Politique de confidentialité",
    "lead": (
        f"Quelles données {B} collecte sur ce site, pourquoi, combien de temps elles sont conservées "
        "et comment exercer vos droits."
    ),
    "sections": [
        {
            "id": "responsable-du-traitement",
            "title": "Responsable du traitement",
            "blocks": [
                {
                    "text": (
                        f"Le responsable des traitements décrits dans la présente politique est {_fr['company']}, "
                        f"société par actions simplifiée au capital de {_fr['share_capital']}, dont le siège "
                        f"social est situé {_fr['head_office']}, immatriculée au {_fr['rcs']}."
                    )
                },
                {
                    "text": (
                        "Pour toute question relative à vos données, y compris à l'attention de notre délégué "
                        "à la protection des données, écrivez à "
                    ),
                    "link": EMAIL,
                    "tail": (
                        f" en indiquant « Données personnelles » en objet, ou par courrier à {_fr['company']}, "
                        f"délégué à la protection des données, {_fr['head_office']}."
                    ),
                },
            ],
        },
        {
            "id": "champ-d-application",
            "title": "Champ d'application",
            "blocks": [
                {
                    "text": (
                        "Cette politique concerne les visiteurs du site, les prospects qui nous contactent ou "
                        "téléchargent nos documents, les participants à nos webinars et les personnes qui "
                        "créent un compte d'essai."
                    )
                },
                {
                    "text": (
                        "Elle ne couvre pas les données que nos clients (banques privées, sociétés de gestion, "
                        f"conseillers, family offices) enregistrent dans la plateforme {B} au sujet de leurs "
                        f"propres clients. Pour ces données, {_fr['company']} agit en qualité de sous-traitant au "
                        "sens de l'article 28 du RGPD, sur les instructions de ses clients et selon l'accord de "
                        "traitement des données prévu par les "
                    ),
                    "link": {"label": "conditions générales de vente", "to": routes.SALES_TERMS, "anchor": ""},
                    "tail": ". Les investisseurs concernés exercent leurs droits auprès de leur établissement.",
                },
            ],
        },
        {
            "id": "donnees-collectees",
            "title": "Données collectées",
            "blocks": [
                {"subtitle": "Les données que vous nous communiquez"},
                {
                    "terms": True,
                    "items": [
                        "Formulaires de téléchargement et de demande de documentation : nom, prénom, "
                        "téléphone, société et adresse électronique.",
                        "Réservation d'une démonstration : nom, prénom, adresse électronique, société, "
                        "créneau choisi et, le cas échéant, le message que vous ajoutez.",
                        "Connexion et essai gratuit : nom, prénom, société et téléphone, ainsi que l'adresse "
                        "électronique et la photo de profil transmises par le service d'authentification.",
                        "Échanges avec nos équipes : contenu de vos messages et de vos demandes d'assistance.",
                    ]
                },
                {"subtitle": "Les données recueillies automatiquement"},
                {
                    "terms": True,
                    "items": [
                        "Données de connexion et de sécurité : adresse IP, date et heure d'accès, type de "
                        "navigateur, identifiants de session, journaux d'authentification.",
                        "Données de navigation : recueillies par les cookies, selon vos choix (voir la section "
                        "« Cookies » ci-dessous).",
                    ]
                },
                {
                    "text": (
                        "Nous ne collectons aucune donnée sensible au sens de l'article 9 du RGPD. Les champs "
                        "signalés par un astérisque sont obligatoires : sans eux, nous ne pouvons pas donner "
                        "suite à votre demande."
                    )
                },
            ],
        },
        {
            "id": "finalites-et-bases-legales",
            "title": "Finalités et bases légales",
            "blocks": [
                {
                    "table": {
                        "caption": "Pourquoi nous traitons vos données, et sur quel fondement",
                        "columns": ["Finalité", "Données concernées", "Base légale"],
                        "rows": [
                            [
                                "Vous envoyer les documents demandés (e-book, livre blanc, documentation) "
                                "et répondre à vos demandes",
                                "Identité, coordonnées, société",
                                "Mesures précontractuelles prises à votre demande (art. 6.1.b du RGPD)",
                            ],
                            [
                                "Organiser et conduire une démonstration",
                                "Identité, coordonnées, créneau, message",
                                "Mesures précontractuelles prises à votre demande (art. 6.1.b du RGPD)",
                            ],
                            [
                                "Créer et gérer votre compte et votre environnement d'essai",
                                "Identité, société, téléphone, données d'authentification",
                                "Exécution du contrat (art. 6.1.b du RGPD)",
                            ],
                            [
                                "Prospection commerciale auprès de professionnels : invitations aux "
                                "webinars, informations sur nos offres",
                                "Identité, coordonnées professionnelles, historique des échanges",
                                "Intérêt légitime à développer notre activité (art. 6.1.f du RGPD), "
                                "auquel vous pouvez vous opposer à tout moment",
                            ],
                            [
                                "Sécuriser le site et les comptes, prévenir la fraude",
                                "Données de connexion et journaux",
                                "Intérêt légitime (art. 6.1.f du RGPD) et obligation légale de conservation "
                                "des données de connexion",
                            ],
                            [
                                "Mesurer l'audience du site et l'efficacité de nos campagnes",
                                "Données de navigation, identifiants de cookies",
                                "Consentement (art. 6.1.a du RGPD et article 82 de la loi Informatique et "
                                "Libertés)",
                            ],
                            [
                                "Facturer nos clients et tenir notre comptabilité",
                                "Coordonnées de facturation, factures",
                                "Obligation légale (art. 6.1.c du RGPD)",
                            ],
                            [
                                "Traiter vos demandes d'exercice de droits",
                                "Identité, coordonnées, contenu de la demande",
                                "Obligation légale (art. 6.1.c du RGPD)",
                            ],
                        ],
                    }
                },
                {
                    "text": (
                        "Nos messages de prospection portent sur des offres en rapport avec votre activité "
                        "professionnelle et comportent chacun un lien de désinscription."
                    )
                },
            ],
        },
        {
            "id": "durees-de-conservation",
            "title": "Durées de conservation",
            "blocks": [
                {"text": "Vos données ne sont conservées que le temps nécessaire à la finalité poursuivie :"},
                {
                    "terms": True,
                    "items": [
                        "Prospects : trois ans à compter du dernier contact émanant de vous (téléchargement, "
                        "réponse à un message, participation à un webinar), conformément à la pratique "
                        "recommandée par la CNIL. Avant la fin de ce délai, nous pouvons vous demander si "
                        "vous souhaitez continuer à recevoir nos informations.",
                        "Comptes d'essai : pendant les 30 jours de l'essai ; sans souscription, "
                        "l'environnement d'essai est supprimé dans les 30 jours qui suivent, et vos "
                        "coordonnées sont ensuite conservées comme celles d'un prospect.",
                        "Clients : pendant toute la durée du contrat, puis cinq ans à titre de preuve "
                        "(prescription de droit commun).",
                        "Factures et pièces comptables : dix ans (article L.123-22 du Code de commerce).",
                        "Données de connexion : un an.",
                        "Cookies soumis à consentement : treize mois au plus ; votre choix d'accepter ou "
                        "de refuser est conservé six mois.",
                        "Opposition à la prospection : trois ans, afin de garantir que vous ne soyez plus "
                        "sollicité.",
                    ]
                },
            ],
        },
        {
            "id": "destinataires",
            "title": "Destinataires et sous-traitants",
            "blocks": [
                {
                    "text": (
                        f"Vos données sont destinées aux seules équipes de {_fr['company']} qui en ont besoin : "
                        "commerciale, marketing, avant-vente, support et administration. Elles ne sont jamais "
                        "vendues ni louées."
                    )
                },
                {
                    "text": (
                        "Elles sont également traitées, pour notre compte et selon nos instructions, par des "
                        "sous-traitants liés par un contrat conforme à l'article 28 du RGPD :"
                    )
                },
                {
                    "items": [
                        f"{_fr['host']}, hébergeur du site et de la plateforme, au Luxembourg ;",
                        "le service d'envoi de courriers électroniques ;",
                        "le service de prise de rendez-vous intégré à la page de démonstration ;",
                        "la plateforme de diffusion de nos webinars ;",
                        "le fournisseur d'identité qui assure l'authentification ;",
                        "les outils de mesure d'audience et de gestion du consentement, dans le respect de "
                        "vos choix.",
                    ]
                },
                {
                    "text": (
                        "Vos données peuvent enfin être communiquées aux autorités administratives ou "
                        "judiciaires lorsque la loi l'exige."
                    )
                },
            ],
        },
        {
            "id": "transferts-hors-ue",
            "title": "Transferts hors de l'Union européenne",
            "blocks": [
                {"text": "Les données du site et de la plateforme sont hébergées dans l'Union européenne, au Luxembourg."},
                {
                    "text": (
                        "Certains prestataires (prise de rendez-vous, authentification, diffusion des webinars) "
                        "peuvent y accéder depuis un pays situé hors de l'Espace économique européen. Ces "
                        "transferts n'ont lieu que vers un pays reconnu comme offrant un niveau de protection "
                        "adéquat par la Commission européenne ou, à défaut, sont encadrés par les clauses "
                        "contractuelles types de la Commission européenne, complétées si nécessaire par des "
                        "mesures de sécurité supplémentaires."
                    )
                },
                {"text": "Vous pouvez obtenir une copie de ces garanties en écrivant à ", "link": EMAIL, "tail": "."},
            ],
        },
        {
            "id": "securite",
            "title": "Sécurité",
            "blocks": [
                {
                    "text": (
                        f"{_fr['company']} applique des mesures techniques et organisationnelles à la hauteur "
                        "des exigences du secteur de la gestion de patrimoine :"
                    )
                },
                {
                    "items": [
                        "chiffrement des échanges (TLS) et des données stockées ;",
                        "authentification à deux facteurs et détection d'intrusion ;",
                        "gestion stricte des habilitations et journalisation des accès ;",
                        "sauvegardes régulières, chiffrées et testées ;",
                        "engagement de confidentialité de nos collaborateurs et sous-traitants ;",
                        "tests d'intrusion périodiques menés par des prestataires indépendants.",
                    ]
                },
                {
                    "text": (
                        "Toute violation de données présentant un risque pour vos droits et libertés est "
                        "notifiée à la CNIL dans les 72 heures ; si le risque est élevé, vous en êtes informé "
                        "dans les meilleurs délais."
                    )
                },
            ],
        },
        {
            "id": "vos-droits",
            "title": "Vos droits",
            "blocks": [
                {
                    "text": (
                        "Conformément au règlement (UE) 2016/679 (RGPD) et à la loi n° 78-17 du 6 janvier 1978 "
                        "relative à l'informatique, aux fichiers et aux libertés, modifiée notamment par la loi "
                        "n° 2018-493 du 20 juin 2018 relative à la protection des données personnelles, vous "
                        "disposez des droits suivants :"
                    )
                },
                {
                    "terms": True,
                    "items": [
                        "Droit d'accès : savoir si vos données sont traitées et en obtenir une copie "
                        "(article 15 du RGPD).",
                        "Droit de rectification : faire corriger des données inexactes ou compléter des "
                        "données incomplètes (article 16).",
                        "Droit à l'effacement : obtenir la suppression de vos données, notamment lorsqu'elles "
                        "ne sont plus nécessaires ou que vous avez retiré votre consentement (article 17).",
                        "Droit à la limitation : faire suspendre l'utilisation de vos données, par exemple le "
                        "temps d'en vérifier l'exactitude (article 18).",
                        "Droit à la portabilité : recevoir les données que vous nous avez fournies dans un "
                        "format structuré et couramment utilisé, ou les faire transmettre à un autre "
                        "responsable de traitement, lorsque le traitement repose sur votre consentement ou sur "
                        "un contrat (article 20).",
                        "Droit d'opposition : vous opposer, pour des raisons tenant à votre situation "
                        "particulière, à un traitement fondé sur notre intérêt légitime, et à tout moment, "
                        "sans justification, à la prospection commerciale (article 21).",
                        "Retrait du consentement : retirer à tout moment votre consentement, sans remettre "
                        "en cause les traitements effectués auparavant.",
                        "Directives post mortem : définir des directives relatives à la conservation, à "
                        "l'effacement et à la communication de vos données après votre décès (article 85 de "
                        "la loi du 6 janvier 1978).",
                    ]
                },
                {
                    "text": (
                        "Aucune décision produisant des effets juridiques à votre égard n'est prise sur le seul "
                        "fondement d'un traitement automatisé."
                    )
                },
                {"subtitle": "Réclamation auprès de la CNIL"},
                {
                    "text": (
                        "Si vous estimez, après nous avoir contactés, que vos droits ne sont pas respectés, "
                        "vous pouvez adresser une réclamation à la Commission nationale de l'informatique et "
                        f"des libertés (CNIL), {_fr['cnil_address']}, ou en ligne sur "
                    ),
                    "link": {"label": "le site de la CNIL", "to": _fr["cnil_url"], "anchor": ""},
                    "tail": ".",
                },
            ],
        },
        {
            "id": "exercer-vos-droits",
            "title": "Exercer vos droits",
            "blocks": [
                {
                    "text": "Pour exercer vos droits, écrivez-nous à ",
                    "link": EMAIL,
                    "tail": (
                        f", ou par courrier à {_fr['company']}, délégué à la protection des données, "
                        f"{_fr['head_office']}."
                    ),
                },
                {
                    "items": [
                        "Précisez le droit que vous souhaitez exercer et, si possible, le contexte de la "
                        "collecte (formulaire, démonstration, compte d'essai).",
                        "En cas de doute raisonnable sur votre identité, nous pouvons vous demander un "
                        "justificatif, conservé le seul temps de la vérification.",
                        "Nous répondons dans un délai d'un mois à compter de la réception de votre demande ; "
                        "ce délai peut être prolongé de deux mois compte tenu de la complexité ou du nombre "
                        "de demandes, auquel cas nous vous en informons.",
                        "L'exercice de vos droits est gratuit, sauf demande manifestement infondée ou excessive.",
                    ]
                },
                {
                    "text": (
                        "Pour ne plus recevoir nos communications, vous pouvez aussi utiliser le lien de "
                        "désinscription présent dans chacun de nos messages."
                    )
                },
            ],
        },
        {
            "id": "propriete-intellectuelle",
            "title": "Propriété intellectuelle",
            "blocks": [
                {
                    "text": (
                        f"Le site {B} et chacun de ses éléments (textes, illustrations, logos, marques, "
                        "logiciels, bases de données) sont protégés par le droit de la propriété "
                        f"intellectuelle et appartiennent à {_fr['company']} ou à ses partenaires."
                    )
                },
                {
                    "text": (
                        "Toute reproduction, représentation, modification ou exploitation, totale ou "
                        "partielle, sans autorisation écrite préalable est interdite. Les documents "
                        "téléchargeables (e-book, livre blanc, documentations) sont réservés à un usage "
                        "interne : leur diffusion à des tiers ou leur exploitation commerciale requiert "
                        "notre accord."
                    )
                },
                {
                    "text": "Les autres règles applicables au site figurent dans les ",
                    "link": {"label": "mentions légales", "to": routes.LEGAL_NOTICE, "anchor": ""},
                    "tail": ".",
                },
            ],
        },
        {
            "id": "cookies",
            "title": "Cookies",
            "blocks": [
                {
                    "text": (
                        "Un cookie est un petit fichier déposé sur votre terminal lorsque vous consultez un "
                        "site. Il permet, pendant sa durée de validité, de reconnaître votre navigateur. Nous "
                        "utilisons quatre catégories de cookies :"
                    )
                },
                {
                    "terms": True,
                    "items": [
                        "Cookies strictement nécessaires : fonctionnement et sécurité du site, maintien de "
                        "votre session (un témoin de connexion est conservé un jour), mémorisation de vos "
                        "choix en matière de cookies. Dispensés de consentement, ils ne peuvent pas être "
                        "désactivés sans empêcher le site de fonctionner.",
                        "Mesure d'audience : statistiques de fréquentation qui nous aident à améliorer les "
                        "pages du site. Déposés uniquement avec votre accord.",
                        "Marketing et suivi des conversions : mesure de l'efficacité de nos campagnes, par "
                        "exemple lorsqu'un document est téléchargé. Déposés uniquement avec votre accord.",
                        "Contenus de tiers : l'agenda de réservation et les contenus vidéo intégrés au site "
                        "peuvent déposer leurs propres cookies, soumis à votre accord lorsqu'ils ne sont pas "
                        "indispensables au service que vous demandez.",
                    ]
                },
                {"subtitle": "Votre consentement"},
                {
                    "text": (
                        "Lors de votre première visite, un bandeau vous permet d'accepter, de refuser ou de "
                        "paramétrer les cookies soumis à consentement ; refuser est aussi simple qu'accepter. "
                        "Votre choix est conservé six mois, puis vous est à nouveau demandé."
                    )
                },
                {
                    "text": (
                        "Vous pouvez le modifier à tout moment depuis le module de gestion des cookies, ou "
                        "régler votre navigateur pour bloquer les cookies ; certaines fonctionnalités, comme "
                        "l'agenda de réservation, peuvent alors ne plus s'afficher."
                    )
                },
                {"consent_settings": True},
                {"subtitle": "Liste détaillée des cookies"},
                {
                    "cookie_declaration": (
                        "La liste détaillée des cookies utilisés sur ce site (nom, fournisseur, finalité, "
                        "durée de conservation) s'affiche ici une fois le service de gestion du consentement "
                        "chargé."
                    )
                },
                {
                    "cookie_table": {
                        "caption": "Cookies et clés de stockage déposés par le site",
                        "columns": ["Nom", "Finalité", "Durée de conservation", "Catégorie"],
                        "stores": {
                            "cookie": "cookie",
                            "localStorage": "stockage local",
                            "sessionStorage": "stockage de session",
                        },
                        "purposes": {
                            "consent": "Mémorise vos choix en matière de cookies (version, mesure d'audience acceptée ou non, date).",
                            "session": "Identifiant opaque de votre session après connexion (les jetons restent sur nos serveurs).",
                            "marker": "Indique que vous vous êtes connecté, pour vérifier votre session au chargement des pages.",
                            "login_error": "Transmet à la page le code d'une erreur de connexion pour l'afficher une fois.",
                            "login_binding": "Relie une connexion en cours à ce navigateur (protection contre la falsification).",
                            "tab_token": "Identifie l'onglet auprès du serveur du site, pour l'état de la page.",
                            "reload_guard": "Évite de recharger la page en boucle après une erreur technique.",
                            "theme": "Mémorise le mode d'affichage (clair) de la page.",
                            "scroll_positions": "Retrouve la position de lecture des pages lors d'un retour arrière.",
                        },
                        "categories": {"necessary": "Strictement nécessaire", "analytics": "Mesure d'audience"},
                        "lifetimes": {
                            "day": ["jour", "jours"],
                            "minute": ["minute", "minutes"],
                            "session": "jusqu'à la fermeture de l'onglet",
                            "persistent": "jusqu'à effacement par le navigateur",
                        },
                    }
                },
            ],
        },
        {
            "id": "modifications",
            "title": "Modifications de la politique",
            "blocks": [
                {
                    "text": (
                        "Nous pouvons faire évoluer la présente politique pour tenir compte d'évolutions "
                        "légales ou réglementaires, ou de nos services. La version en vigueur est celle "
                        "publiée sur cette page ; toute modification substantielle vous est signalée par un "
                        "moyen approprié."
                    )
                },
            ],
        },
    ],
}

EN = {
    "eyebrow": "Legal information",
    "title": "Privacy policy",
    "lead": (
        f"What data {B} collects on this website, why, how long it is kept and how to exercise your rights."
    ),
    "sections": [
        {
            "id": "data-controller",
            "title": "Data controller",
            "blocks": [
                {
                    "text": (
                        f"The controller of the processing described in this policy is {_en['company']}, a "
                        f"French simplified joint-stock company (SAS) with share capital of "
                        f"{_en['share_capital']}, whose registered office is at {_en['head_office']}, "
                        f"registered with the Paris Trade and Companies Register under number {_en['siren']}."
                    )
                },
                {
                    "text": (
                        "For any question about your data, including for the attention of our data "
                        "protection officer, write to "
                    ),
                    "link": EMAIL,
                    "tail": (
                        f" with “Personal data” in the subject line, or by post to {_en['company']}, "
                        f"Data Protection Officer, {_en['head_office']}."
                    ),
                },
            ],
        },
        {
            "id": "scope",
            "title": "Scope",
            "blocks": [
                {
                    "text": (
                        "This policy applies to visitors to the website, prospects who contact us or download "
                        "our documents, webinar attendees and people who create a trial account."
                    )
                },
                {
                    "text": (
                        "It does not cover the data our clients (private banks, asset managers, advisers, "
                        f"family offices) record in the {B} platform about their own clients. For that data, "
                        f"{_en['company']} acts as a processor within the meaning of Article 28 of the GDPR, "
                        "on its clients' instructions and under the data processing agreement provided for "
                        "in the "
                    ),
                    "link": {"label": "terms of sale", "to": routes.SALES_TERMS, "anchor": ""},
                    "tail": ". The investors concerned exercise their rights with their own institution.",
                },
            ],
        },
        {
            "id": "data-collected",
            "title": "Data collected",
            "blocks": [
                {"subtitle": "Data you give us"},
                {
                    "terms": True,
                    "items": [
                        "Download and documentation request forms: last name, first name, telephone, "
                        "company and email address.",
                        "Demo booking: last name, first name, email address, company, the time slot chosen "
                        "and any message you add.",
                        "Login and free trial: last name, first name, company and telephone, plus the email "
                        "address and profile picture supplied by the authentication service.",
                        "Exchanges with our teams: the content of your messages and support requests.",
                    ]
                },
                {"subtitle": "Data collected automatically"},
                {
                    "terms": True,
                    "items": [
                        "Connection and security data: IP address, date and time of access, browser type, "
                        "session identifiers, authentication logs.",
                        "Browsing data: collected by cookies, according to your choices (see the Cookies "
                        "section below).",
                    ]
                },
                {
                    "text": (
                        "We collect no special-category data within the meaning of Article 9 of the GDPR. "
                        "Fields marked with an asterisk are mandatory: without them we cannot process your "
                        "request."
                    )
                },
            ],
        },
        {
            "id": "purposes-and-legal-bases",
            "title": "Purposes and legal bases",
            "blocks": [
                {
                    "table": {
                        "caption": "Why we process your data, and on what basis",
                        "columns": ["Purpose", "Data concerned", "Legal basis"],
                        "rows": [
                            [
                                "Sending the documents you request (e-book, white paper, documentation) "
                                "and answering your enquiries",
                                "Identity, contact details, company",
                                "Steps taken at your request before entering into a contract "
                                "(Art. 6(1)(b) GDPR)",
                            ],
                            [
                                "Organising and running a demo",
                                "Identity, contact details, time slot, message",
                                "Steps taken at your request before entering into a contract "
                                "(Art. 6(1)(b) GDPR)",
                            ],
                            [
                                "Creating and managing your account and trial environment",
                                "Identity, company, telephone, authentication data",
                                "Performance of the contract (Art. 6(1)(b) GDPR)",
                            ],
                            [
                                "Business-to-business marketing: webinar invitations, information about "
                                "our offers",
                                "Identity, business contact details, history of exchanges",
                                "Our legitimate interest in developing our business (Art. 6(1)(f) GDPR), "
                                "to which you may object at any time",
                            ],
                            [
                                "Securing the website and accounts, preventing fraud",
                                "Connection data and logs",
                                "Legitimate interest (Art. 6(1)(f) GDPR) and the legal obligation to "
                                "retain connection data",
                            ],
                            [
                                "Measuring website audience and campaign effectiveness",
                                "Browsing data, cookie identifiers",
                                "Consent (Art. 6(1)(a) GDPR and Article 82 of the French Data Protection Act)",
                            ],
                            [
                                "Invoicing our clients and keeping our accounts",
                                "Billing details, invoices",
                                "Legal obligation (Art. 6(1)(c) GDPR)",
                            ],
                            [
                                "Handling requests to exercise your rights",
                                "Identity, contact details, content of the request",
                                "Legal obligation (Art. 6(1)(c) GDPR)",
                            ],
                        ],
                    }
                },
                {
                    "text": (
                        "Our marketing messages concern offers related to your professional activity, and "
                        "each one contains an unsubscribe link."
                    )
                },
            ],
        },
        {
            "id": "retention",
            "title": "Retention periods",
            "blocks": [
                {"text": "Your data is kept only for as long as its purpose requires:"},
                {
                    "terms": True,
                    "items": [
                        "Prospects: three years from the last contact initiated by you (a download, a reply "
                        "to a message, attending a webinar), in line with the practice recommended by the "
                        "CNIL, the French data protection authority. Before that period ends, we may ask "
                        "whether you wish to keep hearing from us.",
                        "Trial accounts: for the 30 days of the trial; without a subscription, the trial "
                        "environment is deleted within the following 30 days, and your contact details are "
                        "then kept as those of a prospect.",
                        "Clients: for the term of the contract, then five years as evidence (general "
                        "limitation period).",
                        "Invoices and accounting records: ten years (Article L.123-22 of the French "
                        "Commercial Code).",
                        "Connection data: one year.",
                        "Cookies requiring consent: thirteen months at most; your choice to accept or refuse "
                        "is kept for six months.",
                        "Objection to marketing: three years, so that we do not contact you again.",
                    ]
                },
            ],
        },
        {
            "id": "recipients",
            "title": "Recipients and processors",
            "blocks": [
                {
                    "text": (
                        f"Your data is accessed only by the {_en['company']} teams that need it: sales, "
                        "marketing, pre-sales, support and administration. It is never sold or rented."
                    )
                },
                {
                    "text": (
                        "It is also processed on our behalf and on our instructions by processors bound by a "
                        "contract that complies with Article 28 of the GDPR:"
                    )
                },
                {
                    "items": [
                        f"{_en['host']}, host of the website and the platform, in Luxembourg;",
                        "our email delivery service;",
                        "the scheduling service embedded in the demo page;",
                        "the platform that hosts our webinars;",
                        "the identity provider that handles authentication;",
                        "audience measurement and consent management tools, in line with your choices.",
                    ]
                },
                {
                    "text": (
                        "Your data may also be disclosed to administrative or judicial authorities where the "
                        "law requires it."
                    )
                },
            ],
        },
        {
            "id": "transfers",
            "title": "Transfers outside the European Union",
            "blocks": [
                {"text": "The data of the website and the platform is hosted in the European Union, in Luxembourg."},
                {
                    "text": (
                        "Some providers (scheduling, authentication, webinar hosting) may access it from a "
                        "country outside the European Economic Area. Such transfers only take place to a "
                        "country recognised by the European Commission as providing an adequate level of "
                        "protection or, failing that, are governed by the European Commission's standard "
                        "contractual clauses, supplemented where necessary by additional security measures."
                    )
                },
                {"text": "You can obtain a copy of these safeguards by writing to ", "link": EMAIL, "tail": "."},
            ],
        },
        {
            "id": "security",
            "title": "Security",
            "blocks": [
                {
                    "text": (
                        f"{_en['company']} applies technical and organisational measures that meet the "
                        "standards expected in wealth management:"
                    )
                },
                {
                    "items": [
                        "encryption of data in transit (TLS) and at rest;",
                        "two-factor authentication and intrusion detection;",
                        "strict access rights management and access logging;",
                        "regular, encrypted and tested back-ups;",
                        "confidentiality undertakings from our staff and processors;",
                        "periodic penetration tests carried out by independent firms.",
                    ]
                },
                {
                    "text": (
                        "Any personal data breach that poses a risk to your rights and freedoms is notified to "
                        "the CNIL within 72 hours; where the risk is high, you are informed without undue delay."
                    )
                },
            ],
        },
        {
            "id": "your-rights",
            "title": "Your rights",
            "blocks": [
                {
                    "text": (
                        "Under Regulation (EU) 2016/679 (GDPR) and French Data Protection Act no. 78-17 of "
                        "6 January 1978, as amended in particular by French law no. 2018-493 of 20 June 2018 "
                        "on the protection of personal data, you have the following rights:"
                    )
                },
                {
                    "terms": True,
                    "items": [
                        "Right of access: to know whether your data is processed and to obtain a copy of it "
                        "(Article 15 GDPR).",
                        "Right to rectification: to have inaccurate data corrected or incomplete data "
                        "completed (Article 16).",
                        "Right to erasure: to have your data deleted, in particular when it is no longer "
                        "needed or you have withdrawn your consent (Article 17).",
                        "Right to restriction: to have the use of your data suspended, for instance while its "
                        "accuracy is checked (Article 18).",
                        "Right to data portability: to receive the data you gave us in a structured, commonly "
                        "used format, or to have it sent to another controller, where the processing is based "
                        "on your consent or on a contract (Article 20).",
                        "Right to object: to object, on grounds relating to your particular situation, to "
                        "processing based on our legitimate interest, and at any time, without giving "
                        "reasons, to direct marketing (Article 21).",
                        "Withdrawal of consent: to withdraw your consent at any time, without affecting the "
                        "processing carried out before.",
                        "Post-mortem directives: to set out directives on the retention, erasure and "
                        "disclosure of your data after your death (Article 85 of the French Data Protection Act).",
                    ]
                },
                {
                    "text": (
                        "No decision producing legal effects concerning you is based solely on automated "
                        "processing."
                    )
                },
                {"subtitle": "Complaint to the CNIL"},
                {
                    "text": (
                        "If, after contacting us, you consider that your rights have not been respected, you "
                        "may lodge a complaint with the CNIL (Commission nationale de l'informatique et des "
                        f"libertés), {_en['cnil_address']}, France, or online on "
                    ),
                    "link": {"label": "the CNIL website", "to": _en["cnil_url"], "anchor": ""},
                    "tail": ".",
                },
            ],
        },
        {
            "id": "exercising-your-rights",
            "title": "Exercising your rights",
            "blocks": [
                {
                    "text": "To exercise your rights, write to us at ",
                    "link": EMAIL,
                    "tail": (
                        f", or by post to {_en['company']}, Data Protection Officer, {_en['head_office']}."
                    ),
                },
                {
                    "items": [
                        "Tell us which right you wish to exercise and, if possible, how your data was "
                        "collected (form, demo, trial account).",
                        "If we have reasonable doubts about your identity, we may ask for proof of identity, "
                        "kept only for as long as the check takes.",
                        "We reply within one month of receiving your request; this may be extended by two "
                        "months given the complexity or number of requests, in which case we let you know.",
                        "Exercising your rights is free of charge, unless a request is manifestly unfounded "
                        "or excessive.",
                    ]
                },
                {
                    "text": (
                        "To stop receiving our communications, you can also use the unsubscribe link included "
                        "in each of our messages."
                    )
                },
            ],
        },
        {
            "id": "intellectual-property",
            "title": "Intellectual property",
            "blocks": [
                {
                    "text": (
                        f"The {B} website and each of its elements (text, illustrations, logos, trade marks, "
                        "software, databases) are protected by intellectual property law and belong to "
                        f"{_en['company']} or its partners."
                    )
                },
                {
                    "text": (
                        "Any reproduction, representation, modification or use, in whole or in part, without "
                        "prior written consent is prohibited. Downloadable documents (e-book, white paper, "
                        "documentation) are for internal use only: sharing them with third parties or using "
                        "them commercially requires our consent."
                    )
                },
                {
                    "text": "The other rules that apply to the website are set out in the ",
                    "link": {"label": "legal notice", "to": routes.LEGAL_NOTICE, "anchor": ""},
                    "tail": ".",
                },
            ],
        },
        {
            "id": "cookies",
            "title": "Cookies",
            "blocks": [
                {
                    "text": (
                        "A cookie is a small file stored on your device when you visit a website. For as long "
                        "as it is valid, it allows your browser to be recognised. We use four categories of "
                        "cookies:"
                    )
                },
                {
                    "terms": True,
                    "items": [
                        "Strictly necessary cookies: operation and security of the website, keeping your "
                        "session open (a login marker is kept for one day), remembering your cookie choices. "
                        "They are exempt from consent and cannot be switched off without stopping the website "
                        "from working.",
                        "Audience measurement: visit statistics that help us improve the website's pages. "
                        "Set only with your consent.",
                        "Marketing and conversion tracking: measuring the effectiveness of our campaigns, for "
                        "instance when a document is downloaded. Set only with your consent.",
                        "Third-party content: the booking calendar and video content embedded in the website "
                        "may set their own cookies, subject to your consent where they are not essential to "
                        "the service you ask for.",
                    ]
                },
                {"subtitle": "Your consent"},
                {
                    "text": (
                        "On your first visit, a banner lets you accept, refuse or customise the cookies that "
                        "require consent; refusing is as easy as accepting. Your choice is kept for six "
                        "months, after which you are asked again."
                    )
                },
                {
                    "text": (
                        "You can change it at any time from the cookie settings module, or set your browser to "
                        "block cookies; some features, such as the booking calendar, may then no longer be "
                        "displayed."
                    )
                },
                {"consent_settings": True},
                {"subtitle": "Detailed list of cookies"},
                {
                    "cookie_declaration": (
                        "The detailed list of the cookies used on this website (name, provider, purpose, "
                        "retention period) appears here once the consent management service has loaded."
                    )
                },
                {
                    "cookie_table": {
                        "caption": "Cookies and storage keys set by the website",
                        "columns": ["Name", "Purpose", "Retention period", "Category"],
                        "stores": {
                            "cookie": "cookie",
                            "localStorage": "local storage",
                            "sessionStorage": "session storage",
                        },
                        "purposes": {
                            "consent": "Remembers your cookie choices (version, audience measurement accepted or not, date).",
                            "session": "Opaque identifier of your session once logged in (tokens stay on our servers).",
                            "marker": "Records that you logged in, so that your session is checked when pages load.",
                            "login_error": "Passes the code of a login error to the page, to show it once.",
                            "login_binding": "Ties a login in progress to this browser (protection against forgery).",
                            "tab_token": "Identifies the tab to the website's server, for the page's state.",
                            "reload_guard": "Prevents the page from reloading in a loop after a technical error.",
                            "theme": "Remembers the page's display mode (light).",
                            "scroll_positions": "Restores where you were on a page when you go back to it.",
                        },
                        "categories": {"necessary": "Strictly necessary", "analytics": "Audience measurement"},
                        "lifetimes": {
                            "day": ["day", "days"],
                            "minute": ["minute", "minutes"],
                            "session": "until the tab is closed",
                            "persistent": "until cleared in the browser",
                        },
                    }
                },
            ],
        },
        {
            "id": "changes",
            "title": "Changes to this policy",
            "blocks": [
                {
                    "text": (
                        "We may update this policy to reflect legal or regulatory changes, or changes to our "
                        "services. The version in force is the one published on this page; you will be "
                        "informed of any substantial change by appropriate means."
                    )
                },
            ],
        },
    ],
}
