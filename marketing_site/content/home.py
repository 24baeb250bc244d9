"""The home page's language-neutral facts (the words are in `content/<lang>/home.yaml`)."""

ART = "/illustrations/home"
HERO_ART = f"{ART}/hero.svg"
# Trust strip: each mark's icon, by the key its label has in the words.
TRUST_ICONS = {
    "hosting": f"{ART}/trust-hosting.svg",
    "gdpr": f"{ART}/trust-gdpr.svg",
    "two_factor": f"{ART}/trust-2fa.svg",
}
# The cards a language's words name (`card:`): icon, palette accent, target page key and anchor.
# French shows the four offers, English the four feature areas.
CARDS = {
    "engage": {"icon": f"{ART}/icon-portal.svg", "accent": "premium", "page": "pricing", "anchor": "engage"},
    "manage": {"icon": f"{ART}/icon-crm.svg", "accent": "relationclient", "page": "pricing", "anchor": "manage"},
    "interact": {"icon": f"{ART}/icon-interact.svg", "accent": "blue-flash", "page": "pricing", "anchor": "interact"},
    "complete": {"icon": f"{ART}/icon-complete.svg", "accent": "compliance", "page": "pricing", "anchor": "complete"},
    "relationship": {
        "icon": f"{ART}/icon-crm.svg",
        "accent": "relationclient",
        "page": "feature_relationship",
        "anchor": "",
    },
    "portal": {"icon": f"{ART}/icon-portal.svg", "accent": "premium", "page": "feature_portal", "anchor": ""},
    "sales": {"icon": f"{ART}/icon-pipeline.svg", "accent": "sales", "page": "feature_sales", "anchor": ""},
    "compliance": {
        "icon": f"{ART}/icon-checklist.svg",
        "accent": "compliance",
        "page": "feature_compliance",
        "anchor": "",
    },
}
# Blog posts' images, by the key the words give each post (`post:`).
POST_IMAGES = {
    "portal": f"{ART}/blog-portal.svg",
    "kyc": f"{ART}/blog-kyc.svg",
    "alerts": f"{ART}/blog-alerts.svg",
}
