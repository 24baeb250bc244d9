"""The route table: every page of the site, its path in each language, and its counterpart.

Links use these constants, never literal paths. Paths are written as a visitor sees them
(decoded, accents included); `exact_paths` makes them answer at exactly that address.
"""

from __future__ import annotations

import dataclasses

from marketing_site.brand import PRODUCT_SLUG

Lang = str
# The site's languages and the prefix of their paths: French at the root (the default), every
# other language under its own prefix. A page's path in a language beyond these two is its
# English path under that prefix ("/de/pricing"). Adding a language is one entry here and one
# folder, `content/<lang>/` (a copy of `content/en/`, translated); what is not translated yet
# shows in French (`content.words`).
LANGUAGES: dict[str, str] = {"fr": "", "en": "/en"}
LANGS: tuple[Lang, ...] = tuple(LANGUAGES)


@dataclasses.dataclass(frozen=True)
class Page:
    """One page of the site, addressed in one or both languages."""

    key: str
    fr: str | None = None
    en: str | None = None
    # Thank-you and account pages stay out of search engines and the sitemap.
    indexable: bool = True
    # Only for a logged-in visitor: anyone else is sent to the identity provider.
    protected: bool = False
    # Its content comes from the server's state when it loads (an on_load of its own): the
    # page opens the state websocket for every visitor. Every other page is read without one
    # (frontend_build.py, 3.); a test of `page_table.on_load_events` keeps the two in step.
    stateful: bool = False

    def _own(self, lang: str) -> str | None:
        if lang == "fr":
            return self.fr
        if lang == "en" or self.en is None:
            return self.en
        return LANGUAGES[lang] + self.en.removeprefix(LANGUAGES["en"])

    def path(self, lang: str) -> str:
        """The page's path in `lang`, or in the other language when it has only one."""
        return self._own(lang) or self.fr or self.en or "/"

    def paths(self) -> list[tuple[Lang, str]]:
        """Every (language, path) at which the page is served."""
        return [(lang, p) for lang in LANGS if (p := self._own(lang))]

    @property
    def bilingual(self) -> bool:
        return bool(self.fr and self.en)


HOME = Page("home", fr="/", en="/en/")
# The spec never names the about page's path; it carries the features overview.
ABOUT = Page("about", fr="/a-propos")
PRICING = Page("pricing", fr="/offres-portail-client-et-crm-dédié-a-la-gestion-privée", en="/en/pricing")
LOGIN = Page("login", fr="/connexion", indexable=False, stateful=True)
RESET_PASSWORD = Page("reset_password", fr="/reset-password", indexable=False, stateful=True)
COMPARE = Page("compare", fr="/compare", en="/en/compare")
FREE_TRIAL = Page("free_trial", fr="/start-free-trial", indexable=False, protected=True, stateful=True)
DEMO = Page("demo", fr=f"/demo-{PRODUCT_SLUG}", en=f"/en/demo-{PRODUCT_SLUG}")
LEGAL_NOTICE = Page("legal_notice", fr="/mentions-legales", en="/en/mentions-legales")
SALES_TERMS = Page("sales_terms", fr="/cgv", en="/en/cgv")
PRIVACY = Page("privacy", fr="/politique-de-confidentialite", en="/en/politique-de-confidentialite")
# The accessibility statement (RGAA form); same slug in both languages, like the legal pages.
ACCESSIBILITY = Page("accessibility", fr="/accessibilite", en="/en/accessibilite")
WEBINARS = Page("webinars", fr="/webinar-wealth-management", en="/en/webinar-wealth-management")
FEATURE_RELATIONSHIP = Page(
    "feature_relationship",
    fr="/gestion-relation-client-wealth-management",
    en="/en/gestion-relation-client-wealth-management",
)
FEATURE_PORTAL = Page("feature_portal", fr="/portail-client-privée", en="/en/portail-client-privée")
FEATURE_SALES = Page("feature_sales", fr="/prospect-wealth-management", en="/en/prospect-wealth-management")
FEATURE_COMPLIANCE = Page(
    "feature_compliance",
    fr="/conformité-kyc-wealth-management",
    en="/en/conformité-kyc-wealth-management",
)
REGISTRATION = Page("registration", fr="/registration/2", en="/en/registration/2", indexable=False)
EBOOK = Page(
    "ebook",
    fr="/wealth-manager-nouvelle-génération",
    en="/en/wealth-manager-nouvelle-génération",
)
WHITE_PAPER = Page(
    "white_paper",
    fr="/livre-blanc-les-tendances-digitales-du-wealth-management",
    en="/en/livre-blanc-les-tendances-digitales-du-wealth-management",
)
THANKS_EBOOK = Page("thanks_ebook", fr="/remerciement-ebook", indexable=False)
THANKS_WHITE_PAPER = Page("thanks_white_paper", fr="/remerciement-livre-blanc", indexable=False)
THANKS_DOCUMENTATION = Page("thanks_documentation", fr="/remerciements-telechargement", indexable=False)
KYC_DOCUMENTATION = Page("kyc_documentation", fr="/kyc-finance-en-ligne")
PORTAL_DOCUMENTATION = Page("portal_documentation", fr="/portail-client-banque-privee")
SUBSCRIPTION = Page("subscription", fr="/souscription-produits-financier")
# The operators' console: logged-in users with CONSOLE_ROLE only (services/console.py).
CONSOLE = Page("console", fr="/console", en="/en/console", indexable=False, protected=True, stateful=True)

PAGES: tuple[Page, ...] = (
    HOME,
    ABOUT,
    PRICING,
    LOGIN,
    RESET_PASSWORD,
    COMPARE,
    FREE_TRIAL,
    DEMO,
    LEGAL_NOTICE,
    SALES_TERMS,
    PRIVACY,
    ACCESSIBILITY,
    WEBINARS,
    FEATURE_RELATIONSHIP,
    FEATURE_PORTAL,
    FEATURE_SALES,
    FEATURE_COMPLIANCE,
    REGISTRATION,
    EBOOK,
    WHITE_PAPER,
    THANKS_EBOOK,
    THANKS_WHITE_PAPER,
    THANKS_DOCUMENTATION,
    KYC_DOCUMENTATION,
    PORTAL_DOCUMENTATION,
    SUBSCRIPTION,
    CONSOLE,
)

# The key of the not-found page (no entry of the route table: it answers every unknown path).
NOT_FOUND_KEY = "not_found"


def page_keys() -> list[str]:
    """Every page's key, the not-found page's last."""
    return [page.key for page in PAGES] + [NOT_FOUND_KEY]


# Where English-side downloads send the visitor. It is in no route list, so it shows the
# not-found page: a defect of the original, kept on purpose and listed in docs/architecture.md.
EN_THANKS_PATH = "/en/merci"

# What the backend answers besides the pages: the JSON API, the login routes, the downloads and
# the metrics (every route of `api/` starts with one of these; tests/test_dev_loop.py checks it).
# The development server proxies them to the backend (`devloop/`), as nginx does in production.
BACKEND_PREFIXES: tuple[str, ...] = ("/api/", "/auth/", "/files/", "/metrics")

# Old or variant spellings that answer a permanent redirect to the real page.
PERMANENT_REDIRECTS: dict[str, str] = {
    "/politique-de-confidentialité": PRIVACY.fr or "/",
}

# Navbar variants, chosen by path (SPEC §1).
THANK_YOU_NAVBAR_PATHS = (THANKS_EBOOK.fr, THANKS_WHITE_PAPER.fr)


def page_lang(path: str) -> Lang:
    """The language of a page, from its path's prefix."""
    for lang, prefix in LANGUAGES.items():
        if prefix and (path == prefix or path.startswith(prefix + "/")):
            return lang
    return "fr"


def navbar_variant(path: str) -> str:
    """English for any path containing /en/, green-tinted on the two thank-you pages; a
    further language's own navbar under its prefix; else French."""
    if "/en/" in path:
        return "en"
    if path in THANK_YOU_NAVBAR_PATHS:
        return "thanks"
    return page_lang(path)


def all_paths() -> list[str]:
    """Every path the site serves with a page, in table order."""
    return [p for page in PAGES for _, p in page.paths()]


def public_paths() -> list[str]:
    """Every path an anonymous visitor can stay on (all but the protected pages)."""
    return [p for page in PAGES if not page.protected for _, p in page.paths()]


def page_for_path(path: str) -> Page | None:
    """The page served at `path`, if any."""
    for page in PAGES:
        if path in (p for _, p in page.paths()):
            return page
    return None


def counterpart_path(path: str) -> str:
    """The same page in the other language, or the other language's home."""
    other: Lang = "en" if page_lang(path) == "fr" else "fr"
    page = page_for_path(path)
    if page is not None:
        own = page.fr if other == "fr" else page.en
        if own:
            return own
    return HOME.path(other)


# The console's CSV export (api/console.py serves it; the console's state links to it).
CONSOLE_LEADS_CSV = "/api/console/leads.csv"
CONSOLE_BOOKINGS_CSV = "/api/console/bookings.csv"
