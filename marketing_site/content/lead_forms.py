"""The five lead forms (SPEC §3 generic form: title, description, pdf file, mail subject,
document name) and the words every form shares, per language.

The document behind each form (its file and display name) is in `content.downloads`.
Texts marked "SPEC §8" are the spec's own, spelling included.
"""

from marketing_site import routes
from marketing_site.brand import LEGAL_NAME

# Form key -> what the form sends and where the visitor goes after a success.
FORMS: dict[str, dict] = {
    "ebook": {
        "document": "ebook",
        "subject": "Ebook download - Wealth manager new generation",  # SPEC §7
        "thanks": {"fr": routes.THANKS_EBOOK.fr, "en": routes.EN_THANKS_PATH},
        # SPEC §4: on failure only error is set and mailSent is reset to unset.
        "on_failure_mail_sent": None,
    },
    "white_paper": {
        "document": "white_paper",
        "subject": "Download white paper - Tendances du wealth management",  # SPEC §7
        "thanks": {"fr": routes.THANKS_WHITE_PAPER.fr, "en": routes.EN_THANKS_PATH},
        # SPEC §4: a non-200 also sets mailSent, so the button disappears.
        "on_failure_mail_sent": True,
    },
    "portal_documentation": {
        "document": "portal_documentation",
        "subject": "telechargement documentation portail client",
        "thanks": {"fr": routes.THANKS_DOCUMENTATION.fr, "en": routes.EN_THANKS_PATH},
        "on_failure_mail_sent": False,
    },
    "kyc_documentation": {
        "document": "kyc_documentation",
        "subject": "telechargement documentation KYC en ligne",
        "thanks": {"fr": routes.THANKS_DOCUMENTATION.fr, "en": routes.EN_THANKS_PATH},
        "on_failure_mail_sent": False,
    },
    "subscription_documentation": {
        "document": "subscription_documentation",
        "subject": "telechargement documentation souscription en ligne",  # SPEC §7
        "thanks": {"fr": routes.THANKS_DOCUMENTATION.fr, "en": routes.EN_THANKS_PATH},
        "on_failure_mail_sent": False,
    },
}

# The mail to the sales team is in French; it names the language of the document downloaded.
MAIL_DOCUMENT_LANGUAGE = {"fr": "française", "en": "anglaise"}
# Lines added to that mail for a lead that anti-bot signals flagged (stored and sent all the same).
MAIL_FLAGS = {
    "fast": "formulaire envoyé très vite (remplissage automatique ou robot)",
    "honeypot": "champ piège rempli (remplissage automatique ou robot)",
}

FR = {
    "labels": {
        "name": "Votre nom*",  # SPEC §5
        "firstname": "Votre prénom*",
        "phone": "Votre telephone*",
        "company": "Votre société*",
        "email": "Votre email*",
    },
    "submit": "Recevoir le document",
    "submitting": "Envoi en cours…",
    "success": {
        "default": "Merci pour votre téléchargement",  # SPEC §8
        "ebook": "Merci pour votre téléchargement",
        "white_paper": "Merci pour votre téléchargement",
    },
    "error": "Une erreur est survenue. Veuillez réessayer",  # SPEC §8
    "required_note": "* Champs obligatoires",
    "honeypot": "Laissez ce champ vide",
    "privacy": (
        f"{LEGAL_NAME} traite ces informations pour vous envoyer le document demandé et vous "
        "recontacter au sujet de nos solutions. Vous pouvez vous y opposer à tout moment et "
        "exercer vos droits d'accès, de rectification et d'effacement."
    ),
    "privacy_link": "Politique de confidentialité",
    # Per-field messages: shown next to the field by the browser check and in the API's 422.
    "field_errors": {
        "required": "Ce champ est obligatoire.",
        "too_long": "200 caractères au maximum.",
        "text": "Ce champ est vide ou contient des caractères non autorisés (retours à la ligne, caractères de contrôle).",
        "phone": (
            "Saisissez un numéro de téléphone de 6 à 20 chiffres. Espaces, points, tirets, parenthèses, "
            "le + international et un poste (par exemple « poste 12 ») sont acceptés."
        ),
        "email": "Saisissez une adresse email complète, avec son domaine, par exemple prenom.nom@societe.fr.",
    },
    # 422: the fields to correct are marked; the generic message stays for failures and 5xx.
    "invalid": "Vérifiez les champs signalés ci-dessous.",
    # 429: {n} is the wait given by the server's Retry-After.
    "throttled_seconds": "Trop de demandes en peu de temps depuis votre connexion. Réessayez dans {n} secondes.",
    "throttled_minutes": "Trop de demandes en peu de temps depuis votre connexion. Réessayez dans {n} minutes.",
}

EN = {
    "labels": {
        "name": "Your last name*",
        "firstname": "Your first name*",
        "phone": "Your phone*",
        "company": "Your company*",
        "email": "Your email*",
    },
    "submit": "Get the document",
    "submitting": "Sending…",
    "success": {
        "default": "Thanks for your download",
        "ebook": "Thanks for your download",  # SPEC §8
        "white_paper": "Thank you for your downlad",  # SPEC §8, spelling as shown
    },
    "error": "An error occurred. Please try again",
    "required_note": "* Required fields",
    "honeypot": "Leave this field empty",
    "privacy": (
        f"{LEGAL_NAME} processes this information to send you the document you asked for and to "
        "contact you about our solutions. You may object at any time and exercise your rights "
        "of access, rectification and erasure."
    ),
    "privacy_link": "Privacy policy",
    "field_errors": {
        "required": "This field is required.",
        "too_long": "At most 200 characters.",
        "text": "This field is empty or contains characters that are not allowed (line breaks, control characters).",
        "phone": (
            "Enter a phone number of 6 to 20 digits. Spaces, dots, dashes, brackets, the international + "
            "and an extension (for example “ext. 12”) are fine."
        ),
        "email": "Enter a full email address, with its domain, for example jane.smith@company.com.",
    },
    "invalid": "Please check the fields marked below.",
    "throttled_seconds": "Too many requests from your connection in a short time. Please try again in {n} seconds.",
    "throttled_minutes": "Too many requests from your connection in a short time. Please try again in {n} minutes.",
}
