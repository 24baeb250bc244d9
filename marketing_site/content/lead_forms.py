"""The five lead forms (SPEC §3 generic form: title, description, pdf file, mail subject,
document name), in no language.

The document behind each form (its file and display name) is in `content.downloads`; the
words every form shares are `content/<lang>/lead_forms.yaml`, and the French words of the
mail to the sales team `content/fr/lead_sales.yaml`.
"""

from marketing_site import routes

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
        # SPEC §4 set mailSent on a non-200 here, so the button disappeared and the thank-you
        # text showed after a failure: the visitor believed it worked and the lead was lost.
        # Deliberately not followed (issue 33, docs/leads.md): the button stays.
        "on_failure_mail_sent": False,
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
