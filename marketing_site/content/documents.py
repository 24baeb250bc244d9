"""The downloadable documents described on the solution pages (SPEC §3), per language.

The client-portal and KYC documents appear both on a feature page and on a landing page,
the digital-subscription journey document on the subscription page: their description
(`name`, `summary`, `contents`, `format`) is the `page` entry of the document's own front
matter, next to its text (`content/<lang>/documents/<key>.md`).
"""

from marketing_site.content.downloads import document_for

# Short name used by the pages -> the document's key.
_DOCUMENTS = {"portal": "portal_documentation", "kyc": "kyc_documentation", "subscription": "subscription_documentation"}

FR = {name: document_for(key, "fr")["page"] for name, key in _DOCUMENTS.items()}
EN = {name: document_for(key, "en")["page"] for name, key in _DOCUMENTS.items()}
