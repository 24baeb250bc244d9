"""The webinars page's language-neutral facts (the words are in `content/<lang>/webinars.yaml`).

Each replay's `path` is appended to `settings.webinar_url` (the external platform); `art` is
its card illustration. The language files name a replay by its key here.
"""

REPLAYS = {
    "portal": {"path": "/replay/portail-client-marque-blanche", "art": "/illustrations/legal/webinar-portal.svg"},
    "kyc": {"path": "/replay/entree-en-relation-kyc-digitale", "art": "/illustrations/legal/webinar-kyc.svg"},
}
# The anchor of the replays section, the hero's button target.
REPLAYS_ANCHOR = "replays"
