"""Words of the consent banner, its customise panel and the "cookie settings" button.

The banner shows the page's language (the layout passes it). `privacy_before` and
`privacy_after` surround the link to the privacy policy (`privacy_link`).
"""

FR = {
    "label": "Gestion des cookies",
    "title": "Votre vie privée",
    "text": (
        "Nous utilisons des cookies de mesure d'audience et de suivi des conversions pour améliorer ce "
        "site, uniquement si vous l'acceptez. Refuser n'a aucune conséquence sur votre visite. Votre choix "
        "est conservé six mois et modifiable à tout moment."
    ),
    "privacy_before": "En savoir plus : ",
    "privacy_link": "politique de confidentialité",
    "privacy_after": ".",
    "accept_all": "Tout accepter",
    "refuse_all": "Tout refuser",
    "customise": "Personnaliser",
    "panel_title": "Choisir par catégorie",
    "necessary_label": "Cookies strictement nécessaires",
    "necessary_text": (
        "Fonctionnement et sécurité du site, mémorisation de votre choix. Ils ne peuvent pas être désactivés."
    ),
    "always_on": "Toujours actifs",
    "analytics_label": "Mesure d'audience et des conversions",
    "analytics_text": (
        "Statistiques de fréquentation et mesure de l'efficacité de nos campagnes, par exemple lorsqu'un "
        "document est téléchargé."
    ),
    "save": "Enregistrer mes choix",
    "settings": "Gérer les cookies",
}

EN = {
    "label": "Cookie management",
    "title": "Your privacy",
    "text": (
        "We use audience measurement and conversion tracking cookies to improve this website, only if you "
        "accept them. Refusing has no effect on your visit. Your choice is kept for six months and can be "
        "changed at any time."
    ),
    "privacy_before": "Learn more: ",
    "privacy_link": "privacy policy",
    "privacy_after": ".",
    "accept_all": "Accept all",
    "refuse_all": "Refuse all",
    "customise": "Customise",
    "panel_title": "Choose by category",
    "necessary_label": "Strictly necessary cookies",
    "necessary_text": (
        "Operation and security of the website, remembering your choice. They cannot be switched off."
    ),
    "always_on": "Always on",
    "analytics_label": "Audience and conversion measurement",
    "analytics_text": (
        "Visit statistics and measuring the effectiveness of our campaigns, for instance when a document "
        "is downloaded."
    ),
    "save": "Save my choices",
    "settings": "Cookie settings",
}
