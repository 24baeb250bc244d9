"""Title and description of every page, per language (search results and social cards)."""

from marketing_site.brand import BRAND_NAME

B = BRAND_NAME

FR = {
    "home": {
        "title": f"{B} | Portail client et CRM pour la gestion de patrimoine",
        "description": "Portail client en marque blanche et CRM pour banques privées, sociétés de gestion, CGP et family offices.",
    },
    "about": {
        "title": f"Nos fonctionnalités | {B}",
        "description": f"Qui sommes-nous et ce que fait {B} : to-do list intelligente, agenda, fiche client 360°, reporting et tableaux de bord.",
    },
    "pricing": {
        "title": f"Nos offres & tarifs | {B}",
        "description": "Engage, Manage, Interact et Complete : des tarifs dégressifs, des options à la carte et un essai gratuit de 30 jours.",
    },
    "login": {"title": f"Connexion | {B}", "description": f"Connectez-vous à votre espace {B}."},
    "reset_password": {
        "title": f"Mot de passe oublié | {B}",
        "description": f"Réinitialisez le mot de passe de votre compte {B}.",
    },
    "compare": {
        "title": f"Comparez tout nos plans | {B}",
        "description": "Le détail des fonctionnalités incluses dans Engage, Manage, Interact et Complete.",
    },
    "free_trial": {
        "title": f"Essai gratuit | {B}",
        "description": "Créez votre environnement d'essai : 30 jours, sans carte bancaire.",
    },
    "demo": {
        "title": f"Réservez une démo | {B}",
        "description": "Trente minutes avec un consultant pour découvrir le portail client et le CRM sur vos cas d'usage.",
    },
    "legal_notice": {
        "title": f"Mentions légales | {B}",
        "description": f"Éditeur, directeur de la publication et hébergeur du site {B}.",
    },
    "sales_terms": {
        "title": f"Conditions générales de vente | {B}",
        "description": f"Les conditions applicables aux abonnements {B}.",
    },
    "privacy": {
        "title": f"Politique de confidentialité | {B}",
        "description": "Données personnelles, droits RGPD, propriété intellectuelle et cookies.",
    },
    "webinars": {
        "title": f"Webinars wealth management | {B}",
        "description": "Nos webinars sur la digitalisation de la relation client en gestion de patrimoine.",
    },
    "feature_relationship": {
        "title": f"Gestion de la relation client | {B}",
        "description": "To-do list intelligente, gestionnaire de tâches, synchronisation d'agenda, reporting, fiche client 360° et groupes.",
    },
    "feature_portal": {
        "title": f"Portail client premium | {B}",
        "description": "Reporting digital, partage de documents, contenus ciblés, messagerie sécurisée et prise de rendez-vous.",
    },
    "feature_sales": {
        "title": f"Prospection et ventes | {B}",
        "description": "Pipeline commercial et tableaux de bord pour piloter la prospection de vos conseillers.",
    },
    "feature_compliance": {
        "title": f"Conformité et KYC | {B}",
        "description": "Checklists documentaires, questionnaires KYC personnalisables, contrôles, signature électronique et mises à jour de profil.",
    },
    "registration": {
        "title": f"Création de compte | {B}",
        "description": f"Finalisez la création de votre compte {B}.",
    },
    "ebook": {
        "title": f"E-book : le wealth manager nouvelle génération | {B}",
        "description": "Cinq raisons de digitaliser la relation client : téléchargez notre e-book gratuit.",
    },
    "white_paper": {
        "title": f"Livre blanc : les tendances digitales du wealth management | {B}",
        "description": "Téléchargez notre livre blanc sur les tendances digitales de la gestion de patrimoine.",
    },
    "thanks_ebook": {"title": f"Merci | {B}", "description": "Votre e-book est en cours de téléchargement."},
    "thanks_white_paper": {
        "title": f"Merci | {B}",
        "description": "Votre livre blanc est en cours de téléchargement.",
    },
    "thanks_documentation": {
        "title": f"Merci | {B}",
        "description": "Votre documentation est en cours de téléchargement.",
    },
    "kyc_documentation": {
        "title": f"Documentation KYC en ligne | {B}",
        "description": "Recevez la documentation de notre solution d'entrée en relation et de KYC digital.",
    },
    "portal_documentation": {
        "title": f"Documentation portail client banque privée | {B}",
        "description": "Recevez la documentation de notre portail client en marque blanche pour la banque privée.",
    },
    "subscription": {
        "title": f"Souscription digitale de produits financiers | {B}",
        "description": "Questionnaire KYC en ligne, parcours de souscription digital et portail distributeur.",
    },
    "not_found": {"title": f"Page introuvable | {B}", "description": "La page demandée n'existe pas."},
    "console": {
        "title": f"Console | {B}",
        "description": "Leads, courriels, rendez-vous et demandes des personnes concernées, pour l'équipe du site.",
    },
}

EN = {
    "home": {
        "title": f"{B} | Client portal and CRM for wealth management",
        "description": "White-label client portal and CRM for private banks, asset managers, independent advisers and family offices.",
    },
    "pricing": {
        "title": f"Pricing | {B}",
        "description": "Engage, Manage, Interact and Complete: degressive pricing, optional add-ons and a 30-day free trial.",
    },
    "compare": {
        "title": f"Compare all our plans | {B}",
        "description": "Every feature included in Engage, Manage, Interact and Complete.",
    },
    "demo": {
        "title": f"Book a demo | {B}",
        "description": "Thirty minutes with a consultant to see the client portal and the CRM on your own use cases.",
    },
    "legal_notice": {
        "title": f"Legal notice | {B}",
        "description": f"Publisher, publication director and host of the {B} website.",
    },
    "sales_terms": {
        "title": f"Terms of sale (French text) | {B}",
        "description": f"The conditions that apply to {B} subscriptions, published in French.",
    },
    "privacy": {
        "title": f"Privacy policy | {B}",
        "description": "Personal data, GDPR rights, intellectual property and cookies.",
    },
    "webinars": {
        "title": f"Wealth management webinars | {B}",
        "description": "Our webinars on digital client relationships in wealth management.",
    },
    "feature_relationship": {
        "title": f"Client relationship management | {B}",
        "description": "Smart to-do list, task manager, calendar sync, reporting, 360° client file and groups.",
    },
    "feature_portal": {
        "title": f"Premium client portal | {B}",
        "description": "Digital reporting, document sharing, targeted content, secure chat and appointment setting.",
    },
    "feature_sales": {
        "title": f"Prospecting and sales | {B}",
        "description": "A sales pipeline and dashboards to steer your advisers' prospecting.",
    },
    "feature_compliance": {
        "title": f"Compliance and KYC | {B}",
        "description": "Document checklists, customisable KYC questionnaires, controls, e-signature and profile updates.",
    },
    "registration": {
        "title": f"Create your account | {B}",
        "description": f"Finish creating your {B} account.",
    },
    "ebook": {
        "title": f"E-book: the next-generation wealth manager | {B}",
        "description": "Five reasons to go digital with your clients: download our free e-book.",
    },
    "white_paper": {
        "title": f"White paper: digital trends in wealth management | {B}",
        "description": "Download our white paper on the digital trends reshaping wealth management.",
    },
    "not_found": {"title": f"Page not found | {B}", "description": "The page you asked for does not exist."},
    "console": {
        "title": f"Console | {B}",
        "description": "Leads, mail, bookings and data-subject requests, for the team that runs the site.",
    },
}
