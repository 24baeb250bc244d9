"""Words of the built-in demo scheduler: the widget, its refusals, the mails and the cancel page.

`{…}` placeholders are filled by the widget (`assets/booking.jsx`) or by `services/booking.py`.
"""

from marketing_site.brand import BRAND_NAME as B
from marketing_site.brand import LEGAL_NAME
from marketing_site.content.demo import CONSULTANT

FR = {
    "widget": {
        "label": "Agenda de réservation de la démonstration",
        "loading": "Chargement des créneaux disponibles…",
        "timezone": "Heures affichées dans votre fuseau horaire : {zone}",
        "days_label": "Jour",
        "slots_label": "Créneaux de 30 minutes le {day}",
        "keyboard_hint": "Flèches pour changer de jour ou de créneau, Entrée pour choisir.",
        "no_slots": "Aucun créneau n'est disponible pour le moment.",
        "selected": "Créneau sélectionné : {slot}",
        "continue": "Continuer avec ce créneau",
        "form_title": "Vos coordonnées",
        "chosen": "Votre démonstration : {slot} ({zone})",
        "change": "Changer de créneau",
        "confirm": "Confirmer la réservation",
        "confirming": "Réservation en cours…",
        "booked_title": "Votre démonstration est réservée",
        "booked_text": (
            "Rendez-vous {slot} ({zone}). Une invitation avec le lien de visioconférence vient de vous "
            "être envoyée à {email}."
        ),
        "error": "Une erreur est survenue. Veuillez réessayer",
        "unavailable": "L'agenda ne peut pas s'afficher pour le moment.",
        "unavailable_cta": "Proposer mes créneaux par email",
        "privacy": (
            f"{LEGAL_NAME} traite ces informations pour organiser la démonstration et vous recontacter au sujet "
            "de nos solutions. Vous pouvez vous y opposer à tout moment et exercer vos droits d'accès, "
            "de rectification et d'effacement."
        ),
    },
    "errors": {
        "slot_invalid": "Ce créneau n'existe pas. Choisissez un créneau dans l'agenda.",
        "slot_past": "Ce créneau est déjà passé. Choisissez un autre créneau.",
        "slot_outside_hours": "Ce créneau est en dehors des heures de démonstration. Choisissez un autre créneau.",
        "slot_too_soon": "Ce créneau est trop proche pour être préparé. Choisissez un créneau plus tard.",
        "slot_taken": "Ce créneau vient d'être réservé. Choisissez un autre créneau.",
        "timezone": "Fuseau horaire inconnu.",
        "lang": "Langue inconnue.",
        "rate_limited": "Trop de tentatives. Réessayez dans quelques minutes.",
    },
    "mail": {
        "visitor_subject": f"Votre démonstration {B} du {{slot}}",
        "visitor_body": (
            "Bonjour {firstname},\n\n"
            f"Votre démonstration {B} de 30 minutes avec {CONSULTANT} est confirmée :\n"
            "{slot} ({zone}).\n\n"
            "Lien de visioconférence : {video}\n\n"
            "L'invitation est jointe à ce message pour votre agenda.\n\n"
            "Un empêchement ? Annulez ce rendez-vous ici (le créneau sera libéré) :\n{cancel}\n\n"
            f"À bientôt,\nL'équipe {B}\n"
        ),
        "cancel_subject": f"Annulée : votre démonstration {B} du {{slot}}",
        "cancel_body": (
            "Bonjour {firstname},\n\n"
            f"Votre démonstration {B} du {{slot}} ({{zone}}) est annulée.\n"
            "Vous pouvez réserver un autre créneau à tout moment : {rebook}\n\n"
            f"L'équipe {B}\n"
        ),
        "event_summary": f"Démonstration {B} (30 min)",
        "event_description": f"Démonstration {B} avec {CONSULTANT}. Visioconférence : {{video}}",
        "weekdays": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
        "months": [
            "janvier", "février", "mars", "avril", "mai", "juin",
            "juillet", "août", "septembre", "octobre", "novembre", "décembre",
        ],
        "date": "{weekday} {day} {month} {year} à {time}",
    },
    "cancel_page": {
        "title": "Annuler votre démonstration",
        "question": "Voulez-vous annuler votre démonstration du {slot} ({zone}) ?",
        "button": "Annuler la démonstration",
        "done": "Votre démonstration est annulée. Le créneau est libéré et vous recevez une confirmation par email.",
        "already": "Cette démonstration est déjà annulée.",
        "invalid": "Ce lien d'annulation n'est pas valide. Utilisez le lien reçu par email.",
        "expired": "Ce lien d'annulation a expiré : la démonstration a déjà commencé.",
        "back": "Retour à la page de démonstration",
    },
}

EN = {
    "widget": {
        "label": "Demo booking calendar",
        "loading": "Loading available time slots…",
        "timezone": "Times shown in your time zone: {zone}",
        "days_label": "Day",
        "slots_label": "30-minute slots on {day}",
        "keyboard_hint": "Arrow keys change the day or the slot, Enter chooses.",
        "no_slots": "No time slot is available at the moment.",
        "selected": "Selected slot: {slot}",
        "continue": "Continue with this slot",
        "form_title": "Your details",
        "chosen": "Your demo: {slot} ({zone})",
        "change": "Change slot",
        "confirm": "Confirm booking",
        "confirming": "Booking…",
        "booked_title": "Your demo is booked",
        "booked_text": (
            "See you {slot} ({zone}). An invitation with the video-call link has just been sent to {email}."
        ),
        "error": "An error occurred. Please try again",
        "unavailable": "The calendar cannot be displayed at the moment.",
        "unavailable_cta": "Suggest my time slots by email",
        "privacy": (
            f"{LEGAL_NAME} processes this information to organise the demo and contact you about our "
            "solutions. You may object at any time and exercise your rights of access, rectification "
            "and erasure."
        ),
    },
    "errors": {
        "slot_invalid": "This time slot does not exist. Choose a slot in the calendar.",
        "slot_past": "This time slot has already passed. Choose another slot.",
        "slot_outside_hours": "This time slot is outside demo hours. Choose another slot.",
        "slot_too_soon": "This time slot is too soon to prepare. Choose a later slot.",
        "slot_taken": "This time slot has just been booked. Choose another slot.",
        "timezone": "Unknown time zone.",
        "lang": "Unknown language.",
        "rate_limited": "Too many attempts. Try again in a few minutes.",
    },
    "mail": {
        "visitor_subject": f"Your {B} demo on {{slot}}",
        "visitor_body": (
            "Hello {firstname},\n\n"
            f"Your 30-minute {B} demo with {CONSULTANT} is confirmed:\n"
            "{slot} ({zone}).\n\n"
            "Video-call link: {video}\n\n"
            "The invitation is attached to this message for your calendar.\n\n"
            "Can't make it? Cancel this meeting here (the slot will be freed):\n{cancel}\n\n"
            f"See you soon,\nThe {B} team\n"
        ),
        "cancel_subject": f"Cancelled: your {B} demo on {{slot}}",
        "cancel_body": (
            "Hello {firstname},\n\n"
            f"Your {B} demo on {{slot}} ({{zone}}) is cancelled.\n"
            "You can book another slot at any time: {rebook}\n\n"
            f"The {B} team\n"
        ),
        "event_summary": f"{B} demo (30 min)",
        "event_description": f"{B} demo with {CONSULTANT}. Video call: {{video}}",
        "weekdays": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        "months": [
            "January", "February", "March", "April", "May", "June",
            "July", "August", "September", "October", "November", "December",
        ],
        "date": "{weekday} {day} {month} {year} at {time}",
    },
    "cancel_page": {
        "title": "Cancel your demo",
        "question": "Do you want to cancel your demo on {slot} ({zone})?",
        "button": "Cancel the demo",
        "done": "Your demo is cancelled. The slot is freed and a confirmation is on its way by email.",
        "already": "This demo is already cancelled.",
        "invalid": "This cancellation link is not valid. Use the link you received by email.",
        "expired": "This cancellation link has expired: the demo has already started.",
        "back": "Back to the demo page",
    },
}

# The sales notification is for the French-speaking team, whatever the visitor's language.
SALES = {
    "subject": "Démonstration réservée : {firstname} {name} ({company}), {slot}",
    "body": (
        "Nouvelle démonstration réservée sur le site.\n\n"
        "Créneau : {slot} (heure de {consultant_zone}) ; chez le visiteur : {visitor_slot} ({zone}).\n"
        "Langue : {lang}\nVisioconférence : {video}\n\n{summary}"
    ),
    "cancel_subject": "Démonstration annulée : {firstname} {name} ({company}), {slot}",
    "cancel_body": (
        "Le visiteur a annulé sa démonstration.\n\n"
        "Créneau libéré : {slot} (heure de {consultant_zone}).\n\n{summary}"
    ),
}
