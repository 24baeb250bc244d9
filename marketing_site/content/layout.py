"""Words of the navbar, footer and not-found page, per language."""

from marketing_site.brand import BRAND_NAME, FOUNDED_YEAR

SOCIAL_LINKS = [
    {"label": "LinkedIn", "href": "https://www.linkedin.com/company/nereo-wealth", "icon": "linkedin"},
    {"label": "X", "href": "https://x.com/nereo_wealth", "icon": "x"},
    {"label": "YouTube", "href": "https://www.youtube.com/@nereo-wealth", "icon": "youtube"},
]

# Recognition strip and footer badges; the artwork is ours (assets/badges/).
PRIZES = [
    {"src": "/badges/fintech-innovation.svg", "fr": "Prix de l'innovation Fintech 2023", "en": "Fintech innovation award 2023"},
    {"src": "/badges/wealthtech-100.svg", "fr": "Sélection WealthTech 100", "en": "WealthTech 100 selection"},
    {"src": "/badges/private-banking-award.svg", "fr": "Trophée de la banque privée digitale", "en": "Digital private banking trophy"},
]

FR = {
    "brand_label": f"{BRAND_NAME}, retour à l'accueil",
    "menu": "Menu",
    "close_menu": "Fermer le menu",
    "solutions": "Solutions",
    "solutions_items": {
        "feature_relationship": "Gestion de la relation client",
        "feature_portal": "Portail client premium",
        "feature_sales": "Prospection et ventes",
        "feature_compliance": "Conformité et KYC",
        "subscription": "Souscription digitale",
    },
    "pricing": "Tarifs",
    "resources": "Ressources",
    "language_switch": "English version",
    "language_flag": "EN",
    "login": "Connexion",
    "logout": "Se déconnecter",
    "demo": "Demander une démo",
    "skip_to_content": "Aller au contenu",
    "footer_tagline": "Le portail client et le CRM des professionnels du patrimoine.",
    "footer_offers": "Nos offres",
    "footer_resources": "Ressources",
    "footer_webinars": "Webinars",
    "footer_blog": "Blog",
    "footer_follow": "Suivez-nous",
    "footer_awards": "Distinctions",
    "footer_legal": "Mentions légales",
    "footer_privacy": "Politique de confidentialité",
    "footer_terms": "Conditions générales de vente",
    "copyright": f"© {FOUNDED_YEAR} {BRAND_NAME}. Tous droits réservés.",
    "offers": {"engage": "Engage", "manage": "Manage", "interact": "Interact", "complete": "Complete"},
}

EN = {
    "brand_label": f"{BRAND_NAME}, back to the home page",
    "menu": "Menu",
    "close_menu": "Close the menu",
    "solutions": "Solutions",
    "solutions_items": {
        "feature_relationship": "Client relationship management",
        "feature_portal": "Premium client portal",
        "feature_sales": "Prospecting and sales",
        "feature_compliance": "Compliance and KYC",
        "subscription": "Digital subscription",
    },
    "pricing": "Pricing",
    "resources": "Resources",
    "language_switch": "Version française",
    "language_flag": "FR",
    "login": "Login",
    "logout": "Log out",
    "demo": "Book a demo",
    "skip_to_content": "Skip to content",
    "footer_tagline": "The client portal and CRM for wealth professionals.",
    "footer_offers": "Our offers",
    "footer_resources": "Resources",
    "footer_webinars": "Webinars",
    "footer_blog": "Blog",
    "footer_follow": "Follow us",
    "footer_awards": "Awards",
    "footer_legal": "Legal notice",
    "footer_privacy": "Privacy policy",
    "footer_terms": "Terms of sale",
    "copyright": f"© {FOUNDED_YEAR} {BRAND_NAME}. All rights reserved.",
    "offers": {"engage": "Engage", "manage": "Manage", "interact": "Interact", "complete": "Complete"},
}
