"""The forms that take a person's details, in no language: the five download forms (SPEC §3
generic form: title, description, pdf file, mail subject, document name) and the demo booking.

The document behind each download form (its file and display name) is in `content.downloads`;
the words every form shares are `content/<lang>/lead_forms.yaml`, and the French words of the
mail to the sales team `content/fr/lead_sales.yaml`. Which fields each form asks is said by the
fields themselves (`services.leads.FormFields`: a field asks on every form unless its rule names
some of `FORM_KEYS`).
"""

from marketing_site import routes

# Download form key -> what the form sends and where the visitor goes after a success.
DOWNLOAD_FORMS: dict[str, dict] = {
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

# The demo booking's form (the scheduler, services.booking): the `form` of a booking's lead.
DEMO_FORM = "demo"
# Every form that takes a person's details: the downloads, then the demo booking.
FORM_KEYS = (*DOWNLOAD_FORMS, DEMO_FORM)
