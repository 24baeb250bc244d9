"""Words of the legal notice (publisher, publication director, host), per language.

The structure is the one `marketing_site.pages.legal_document` renders.
"""

from marketing_site import routes
from marketing_site.brand import BRAND_NAME as B
from marketing_site.content import legal_entity

_fr = legal_entity.FR
_en = legal_entity.EN
EMAIL = {"label": "", "to": "email", "anchor": ""}

FR = {
    "eyebrow": "Informations légales",
    "title": "Mentions légales",
    "lead": (
        f"L'éditeur, le directeur de la publication et l'hébergeur du site {B}, "
        "ainsi que les règles d'utilisation de ses contenus."
    ),
    "sections": [
        {
            "id": "editeur",
            "title": "Éditeur du site",
            "blocks": [
                {
                    "text": (
                        f"Le site {B} est édité, en application de la loi n° 2004-575 du 21 juin 2004 "
                        "pour la confiance dans l'économie numérique (LCEN), par :"
                    )
                },
                {
                    "facts": [
                        {"term": "Dénomination sociale", "value": _fr["company"]},
                        {"term": "Forme juridique", "value": _fr["legal_form"]},
                        {"term": "Capital social", "value": _fr["share_capital"]},
                        {"term": "Siège social", "value": _fr["head_office"]},
                        {"term": "Immatriculation", "value": _fr["rcs"]},
                        {"term": "N° de TVA intracommunautaire", "value": _fr["vat_number"]},
                        {"term": "Code APE", "value": f"{_fr['ape_code']} (édition de logiciels applicatifs)"},
                        {"term": "Téléphone", "value": _fr["phone"]},
                        {"term": "Adresse électronique", "value": EMAIL},
                    ]
                },
            ],
        },
        {
            "id": "directeur-de-la-publication",
            "title": "Directeur de la publication",
            "blocks": [
                {
                    "text": (
                        f"Le directeur de la publication est {_fr['director']}, "
                        f"en sa qualité de Président de {_fr['company']}."
                    )
                },
                {"text": "Il peut être contacté par courrier électronique à l'adresse ", "link": EMAIL, "tail": "."},
            ],
        },
        {
            "id": "hebergement",
            "title": "Hébergement",
            "blocks": [
                {"text": "Le site et les données qu'il collecte sont hébergés par :"},
                {
                    "facts": [
                        {"term": "Hébergeur", "value": _fr["host"]},
                        {"term": "Forme juridique", "value": "Société anonyme de droit luxembourgeois"},
                        {"term": "Siège social", "value": _fr["host_address"]},
                        {"term": "Immatriculation", "value": _fr["host_registration"]},
                    ]
                },
                {
                    "text": (
                        "Les serveurs sont situés dans des centres de données au Luxembourg, au sein de "
                        "l'Union européenne."
                    )
                },
            ],
        },
        {
            "id": "objet-du-site",
            "title": "Objet du site",
            "blocks": [
                {
                    "text": (
                        f"Le site présente les solutions {B} (portail client en marque blanche, CRM pour "
                        "conseillers, entrée en relation et KYC, souscription digitale) destinées aux banques "
                        "privées, aux sociétés de gestion, aux conseillers en gestion de patrimoine et aux "
                        "family offices. Il permet de réserver une démonstration, de télécharger des documents, "
                        "de consulter les offres et d'accéder aux espaces clients."
                    )
                },
                {
                    "text": (
                        "Les informations publiées sur le site sont fournies à titre d'information générale. "
                        "Elles ne constituent ni un conseil en investissement, ni une recommandation "
                        "personnalisée, ni une offre ou une sollicitation d'achat ou de vente d'un instrument "
                        "financier."
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
                        "La structure du site et l'ensemble de ses éléments (textes, illustrations, logos, "
                        f"marques, logiciels, documents téléchargeables) sont la propriété exclusive de "
                        f"{_fr['company']} ou font l'objet d'une autorisation d'utilisation. Ils sont protégés "
                        "par le Code de la propriété intellectuelle."
                    )
                },
                {
                    "text": (
                        "Toute reproduction, représentation, adaptation ou extraction, totale ou partielle, "
                        f"par quelque procédé que ce soit, sans l'autorisation écrite préalable de {_fr['company']} "
                        "est interdite et constitue une contrefaçon sanctionnée par les articles L.335-2 et "
                        "suivants du Code de la propriété intellectuelle."
                    )
                },
                {"text": f"Les illustrations du site ont été conçues par les équipes de {_fr['company']}."},
            ],
        },
        {
            "id": "donnees-personnelles",
            "title": "Données personnelles",
            "blocks": [
                {
                    "text": (
                        f"{_fr['company']} traite les données personnelles recueillies sur ce site (formulaires "
                        "de téléchargement, réservation de démonstration, compte d'essai) en qualité de "
                        "responsable de traitement, conformément au règlement (UE) 2016/679 (RGPD) et à la loi "
                        "n° 78-17 du 6 janvier 1978 relative à l'informatique, aux fichiers et aux libertés."
                    )
                },
                {
                    "text": "Le détail de ces traitements et de vos droits figure dans notre ",
                    "link": {"label": "politique de confidentialité", "to": routes.PRIVACY, "anchor": ""},
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
                        "Le site utilise des cookies, dont certains ne sont déposés qu'avec votre accord. "
                        "Leurs finalités et le moyen de modifier vos choix sont décrits dans la "
                    ),
                    "link": {
                        "label": "section « Cookies » de la politique de confidentialité",
                        "to": routes.PRIVACY,
                        "anchor": "cookies",
                    },
                    "tail": ".",
                },
            ],
        },
        {
            "id": "liens-hypertextes",
            "title": "Liens hypertextes",
            "blocks": [
                {
                    "text": (
                        "Le site contient des liens vers des sites tiers, notamment notre blog et la plateforme "
                        f"de diffusion de nos webinars. {_fr['company']} n'exerce aucun contrôle sur leur contenu "
                        "et décline toute responsabilité à leur égard."
                    )
                },
                {
                    "text": (
                        "La création d'un lien vers le site est libre, à condition que ses pages ne soient pas "
                        "affichées à l'intérieur d'un autre site et que le lien ne porte pas atteinte à l'image "
                        f"de {B}. {_fr['company']} peut demander la suppression de tout lien qu'elle estime "
                        "contraire à ces conditions."
                    )
                },
            ],
        },
        {
            "id": "responsabilite",
            "title": "Responsabilité",
            "blocks": [
                {
                    "text": (
                        f"{_fr['company']} veille à l'exactitude et à la mise à jour des informations publiées, "
                        "sans pouvoir garantir qu'elles soient complètes ou exemptes d'erreur. Les fonctionnalités "
                        "et les tarifs présentés peuvent évoluer : seuls les documents contractuels signés "
                        "engagent la société."
                    )
                },
                {
                    "text": (
                        "L'accès au site peut être interrompu pour maintenance ou pour des raisons techniques. "
                        f"{_fr['company']} ne saurait être tenue responsable des dommages résultant d'une "
                        "interruption du site, d'une intrusion frauduleuse d'un tiers ou de l'utilisation d'un "
                        "équipement inadapté."
                    )
                },
            ],
        },
        {
            "id": "contact",
            "title": "Contact",
            "blocks": [
                {
                    "text": "Pour toute question relative au site ou aux présentes mentions légales, écrivez à ",
                    "link": EMAIL,
                    "tail": f", ou par courrier à {_fr['company']}, {_fr['head_office']}.",
                },
            ],
        },
        {
            "id": "droit-applicable",
            "title": "Droit applicable",
            "blocks": [
                {
                    "text": (
                        "Les présentes mentions légales sont régies par le droit français. À défaut de "
                        "résolution amiable, tout litige relatif au site relève des juridictions françaises "
                        "compétentes."
                    )
                },
            ],
        },
    ],
}

EN = {
    "eyebrow": "Legal information",
    "title": "Legal notice",
    "lead": (
        f"The publisher, publication director and host of the {B} website, "
        "and the rules for using its content."
    ),
    "sections": [
        {
            "id": "publisher",
            "title": "Website publisher",
            "blocks": [
                {
                    "text": (
                        f"The {B} website is published, in accordance with French law no. 2004-575 of "
                        "21 June 2004 on confidence in the digital economy (LCEN), by:"
                    )
                },
                {
                    "facts": [
                        {"term": "Company name", "value": _en["company"]},
                        {"term": "Legal form", "value": _en["legal_form"]},
                        {"term": "Share capital", "value": _en["share_capital"]},
                        {"term": "Registered office", "value": _en["head_office"]},
                        {"term": "Registration", "value": f"Paris Trade and Companies Register, {_en['rcs']}"},
                        {"term": "EU VAT number", "value": _en["vat_number"]},
                        {"term": "APE code", "value": f"{_en['ape_code']} (application software publishing)"},
                        {"term": "Telephone", "value": _en["phone"]},
                        {"term": "Email", "value": EMAIL},
                    ]
                },
            ],
        },
        {
            "id": "publication-director",
            "title": "Publication director",
            "blocks": [
                {
                    "text": (
                        f"The publication director is {_en['director']}, "
                        f"Président (chief executive) of {_en['company']}."
                    )
                },
                {"text": "He can be contacted by email at ", "link": EMAIL, "tail": "."},
            ],
        },
        {
            "id": "hosting",
            "title": "Hosting",
            "blocks": [
                {"text": "The website and the data it collects are hosted by:"},
                {
                    "facts": [
                        {"term": "Host", "value": _en["host"]},
                        {"term": "Legal form", "value": "Public limited company (société anonyme) under Luxembourg law"},
                        {"term": "Registered office", "value": _en["host_address"]},
                        {"term": "Registration", "value": _en["host_registration"]},
                    ]
                },
                {"text": "The servers are located in data centres in Luxembourg, within the European Union."},
            ],
        },
        {
            "id": "purpose",
            "title": "Purpose of the website",
            "blocks": [
                {
                    "text": (
                        f"The website presents the {B} solutions (white-label client portal, adviser CRM, "
                        "onboarding and KYC, digital subscription) for private banks, asset managers, "
                        "independent wealth advisers and family offices. It lets visitors book a demo, "
                        "download documents, view our offers and access client areas."
                    )
                },
                {
                    "text": (
                        "The information published on the website is general information. It is neither "
                        "investment advice nor a personal recommendation, nor an offer or solicitation to buy "
                        "or sell any financial instrument."
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
                        "The structure of the website and all of its elements (text, illustrations, logos, "
                        f"trade marks, software, downloadable documents) are the exclusive property of "
                        f"{_en['company']} or are used under licence. They are protected by the French "
                        "Intellectual Property Code."
                    )
                },
                {
                    "text": (
                        "Any reproduction, representation, adaptation or extraction, in whole or in part and by "
                        f"any means, without the prior written consent of {_en['company']} is prohibited and "
                        "constitutes an infringement punishable under Articles L.335-2 et seq. of the French "
                        "Intellectual Property Code."
                    )
                },
                {"text": f"The illustrations on this website were designed by the {_en['company']} teams."},
            ],
        },
        {
            "id": "personal-data",
            "title": "Personal data",
            "blocks": [
                {
                    "text": (
                        f"{_en['company']} processes the personal data collected on this website (download "
                        "forms, demo bookings, trial accounts) as data controller, in accordance with "
                        "Regulation (EU) 2016/679 (GDPR) and the French Data Protection Act no. 78-17 of "
                        "6 January 1978."
                    )
                },
                {
                    "text": "The details of this processing and of your rights are set out in our ",
                    "link": {"label": "privacy policy", "to": routes.PRIVACY, "anchor": ""},
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
                        "The website uses cookies, some of which are only set with your consent. What they "
                        "are for and how to change your choices are described in the "
                    ),
                    "link": {
                        "label": "Cookies section of the privacy policy",
                        "to": routes.PRIVACY,
                        "anchor": "cookies",
                    },
                    "tail": ".",
                },
            ],
        },
        {
            "id": "links",
            "title": "Hyperlinks",
            "blocks": [
                {
                    "text": (
                        "The website contains links to third-party websites, including our blog and the "
                        f"platform that hosts our webinars. {_en['company']} has no control over their content "
                        "and accepts no responsibility for it."
                    )
                },
                {
                    "text": (
                        "You may link to the website provided that its pages are not displayed inside another "
                        f"website and that the link does not harm the reputation of {B}. {_en['company']} may ask "
                        "for the removal of any link it considers contrary to these conditions."
                    )
                },
            ],
        },
        {
            "id": "liability",
            "title": "Liability",
            "blocks": [
                {
                    "text": (
                        f"{_en['company']} takes care to keep the information published accurate and up to "
                        "date, but cannot guarantee that it is complete or free from error. The features and "
                        "prices presented may change: only signed contractual documents bind the company."
                    )
                },
                {
                    "text": (
                        "Access to the website may be interrupted for maintenance or technical reasons. "
                        f"{_en['company']} cannot be held liable for damage resulting from an interruption of "
                        "the website, a fraudulent intrusion by a third party or the use of unsuitable equipment."
                    )
                },
            ],
        },
        {
            "id": "contact",
            "title": "Contact",
            "blocks": [
                {
                    "text": "For any question about the website or this legal notice, write to ",
                    "link": EMAIL,
                    "tail": f", or by post to {_en['company']}, {_en['head_office']}.",
                },
            ],
        },
        {
            "id": "governing-law",
            "title": "Governing law",
            "blocks": [
                {
                    "text": (
                        "This legal notice is governed by French law. Failing an amicable settlement, any "
                        "dispute relating to the website falls within the jurisdiction of the competent "
                        "French courts."
                    )
                },
            ],
        },
    ],
}
