"""The navbar's menus and the footer's links, as data: which links, in which order, to where.

Their words are in `content/<lang>/navigation.yaml`: a menu's title under `menus.<key>`, a
link's label under `links.<key>` (a link may carry a `label` of its own instead, a name that is
the same in every language, such as an offer's). A link goes to exactly one of:
- `page`: a page of the route table (`routes.PRICING`), with an optional `anchor`;
- `url_setting`: the name of a setting holding an address (`blog_url`, set per deployment);
- `url`: an https address.

The navbar shows `NAVBAR` between the brand and the language switch (a `Menu` opens a panel of
its links); the footer shows each menu of `FOOTER` as a column and `LEGAL` along its bottom line.
The brand, the language switch, the login and the demo button of the navbar, and the footer's
social links and prizes (content/layout.py), are the frame around them.
"""

from __future__ import annotations

import dataclasses

from marketing_site import routes
from marketing_site.content.offers import OFFER_NAMES
from marketing_site.settings import Settings, get_settings


@dataclasses.dataclass(frozen=True)
class Link:
    key: str
    page: routes.Page | None = None
    anchor: str = ""
    url_setting: str = ""
    url: str = ""
    label: str = ""

    def __post_init__(self) -> None:
        targets = [bool(self.page), bool(self.url_setting), bool(self.url)]
        if targets.count(True) != 1:
            raise ValueError(f"link {self.key!r}: exactly one of page, url_setting and url")
        if self.url and not self.url.startswith("https://"):
            raise ValueError(f"link {self.key!r}: an address starts with https://, not {self.url!r}")
        if self.url_setting and self.url_setting not in Settings.model_fields:
            raise ValueError(f"link {self.key!r}: no setting {self.url_setting!r} (marketing_site/settings.py)")
        if self.anchor and not self.page:
            raise ValueError(f"link {self.key!r}: an anchor belongs to a page of the site")

    def href(self, lang: str) -> str:
        """Where the link goes from a page in `lang`."""
        if self.page is not None:
            return self.page.path(lang) + (f"#{self.anchor}" if self.anchor else "")
        return getattr(get_settings(), self.url_setting) if self.url_setting else self.url


@dataclasses.dataclass(frozen=True)
class Menu:
    key: str
    links: tuple[Link, ...]


NAVBAR: tuple[Link | Menu, ...] = (
    Menu(
        "solutions",
        (
            Link("feature_relationship", page=routes.FEATURE_RELATIONSHIP),
            Link("feature_portal", page=routes.FEATURE_PORTAL),
            Link("feature_sales", page=routes.FEATURE_SALES),
            Link("feature_compliance", page=routes.FEATURE_COMPLIANCE),
            Link("subscription", page=routes.SUBSCRIPTION),
        ),
    ),
    Link("pricing", page=routes.PRICING),
    Link("resources", url_setting="blog_url"),
)

FOOTER: tuple[Menu, ...] = (
    # The offers under their own names, each to its card on the pricing page.
    Menu("offers", tuple(Link(key, page=routes.PRICING, anchor=key, label=name) for key, name in OFFER_NAMES.items())),
    Menu("resources", (Link("webinars", page=routes.WEBINARS), Link("blog", url_setting="blog_url"))),
)

LEGAL: tuple[Link, ...] = (
    Link("legal_notice", page=routes.LEGAL_NOTICE),
    Link("privacy", page=routes.PRIVACY),
    Link("sales_terms", page=routes.SALES_TERMS),
    Link("accessibility", page=routes.ACCESSIBILITY),
)
