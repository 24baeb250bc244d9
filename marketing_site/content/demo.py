"""Words of the demo page: hero, consultant card, 30-minute booking widget (or its fallback),
agenda of the meeting and the contact mail link."""

from marketing_site.brand import BRAND_NAME as B

CONSULTANT = "Claire Dumontet"

FR = {
    "hero": {
        "eyebrow": "Démonstration",
        "title": f"Réservez votre démonstration {B} de 30 minutes",
        "lead": (
            "Un consultant spécialiste de la gestion de patrimoine vous présente le portail client et le "
            "CRM sur vos propres cas d'usage, en visioconférence. Choisissez le créneau qui vous convient : "
            "la réservation prend moins d'une minute."
        ),
        "cta": "Choisir un créneau",
    },
    "booking": {
        "id": "reservation",
        "title": "Choisissez votre créneau de 30 minutes",
        "intro": (
            "Sélectionnez une date et une heure dans l'agenda ci-dessous. Vous recevez aussitôt une "
            "invitation avec le lien de visioconférence."
        ),
        "frame_title": "Prendre rendez-vous : démonstration de 30 minutes",
        "open_in_tab": "L'agenda ne s'affiche pas ? Ouvrez-le dans un nouvel onglet",
        "fallback_subject": f"Démonstration {B} de 30 minutes : mes disponibilités",
    },
    "consultant": {
        "eyebrow": "Votre interlocutrice",
        "name": CONSULTANT,
        "role": "Consultante senior, banque privée et gestion de patrimoine",
        "bio": (
            "Ancienne conseillère en gestion de patrimoine, Claire accompagne les banques privées, les "
            "sociétés de gestion et les cabinets de CGP dans la digitalisation de leur relation client. "
            "Elle prépare chaque démonstration à partir de votre organisation et de vos priorités."
        ),
        "expertise_label": "Ses sujets de prédilection",
        "expertise": [
            "Portail client en marque blanche et expérience investisseur",
            "CRM conseiller, alertes et pilotage commercial",
            "Entrée en relation, KYC et conformité",
        ],
        "languages": "Démonstrations en français ou en anglais",
        "portrait_alt": f"Portrait illustré de {CONSULTANT}",
    },
    "agenda": {
        "title": "Le déroulé de ces 30 minutes",
        "intro": "Un échange concret, sans présentation commerciale générique.",
        "steps": [
            {
                "title": "5 min : votre contexte",
                "text": (
                    "Votre organisation, le nombre de conseillers et de clients, vos outils actuels et ce "
                    "que vous souhaitez améliorer."
                ),
            },
            {
                "title": "20 min : la démonstration",
                "text": (
                    "Le portail client, le CRM, les alertes et les parcours KYC, montrés sur des situations "
                    "proches des vôtres."
                ),
            },
            {
                "title": "5 min : la suite",
                "text": (
                    "Vos questions, l'offre adaptée à vos besoins et, si vous le souhaitez, l'ouverture "
                    "d'un essai gratuit de 30 jours."
                ),
            },
        ],
    },
    "contact": {
        "title": "Une question avant de réserver ?",
        "text": (
            "Vous souhaitez préparer la démonstration, associer un collègue ou nous transmettre un cahier "
            "des charges ? Écrivez-nous, nous vous répondons sous un jour ouvré."
        ),
        "cta": "Nous contacter par email",
        "subject": f"Demande d'information : démonstration {B}",
    },
}

EN = {
    "hero": {
        "eyebrow": "Demo",
        "title": f"Book your 30-minute {B} demo",
        "lead": (
            "A consultant who specialises in wealth management shows you the client portal and the CRM "
            "on your own use cases, by video call. Pick a time that suits you: booking takes less than a "
            "minute."
        ),
        "cta": "Choose a time slot",
    },
    "booking": {
        "id": "booking",
        "title": "Choose your 30-minute slot",
        "intro": (
            "Select a date and time in the calendar below. You will immediately receive an invitation "
            "with the video-call link."
        ),
        "frame_title": "Book a meeting: 30-minute demo",
        "open_in_tab": "Calendar not showing? Open it in a new tab",
        "fallback_subject": f"30-minute {B} demo: my availability",
    },
    "consultant": {
        "eyebrow": "Your consultant",
        "name": CONSULTANT,
        "role": "Senior consultant, private banking and wealth management",
        "bio": (
            "A former wealth adviser, Claire helps private banks, asset managers and independent advisory "
            "firms take their client relationships digital. She prepares each demo around your "
            "organisation and your priorities."
        ),
        "expertise_label": "Her areas of expertise",
        "expertise": [
            "White-label client portal and investor experience",
            "Adviser CRM, alerts and sales management",
            "Onboarding, KYC and compliance",
        ],
        "languages": "Demos in English or French",
        "portrait_alt": f"Illustrated portrait of {CONSULTANT}",
    },
    "agenda": {
        "title": "How the 30 minutes are spent",
        "intro": "A practical conversation, not a generic sales pitch.",
        "steps": [
            {
                "title": "5 min: your context",
                "text": (
                    "Your organisation, the number of advisers and clients, your current tools and what "
                    "you want to improve."
                ),
            },
            {
                "title": "20 min: the demo",
                "text": (
                    "The client portal, the CRM, alerts and KYC journeys, shown on situations close to "
                    "your own."
                ),
            },
            {
                "title": "5 min: next steps",
                "text": (
                    "Your questions, the offer that fits your needs and, if you wish, a 30-day free trial."
                ),
            },
        ],
    },
    "contact": {
        "title": "A question before you book?",
        "text": (
            "Would you like to prepare the demo, bring in a colleague or send us your requirements? Email "
            "us and we will reply within one working day."
        ),
        "cta": "Contact us by email",
        "subject": f"Information request: {B} demo",
    },
}
