"""Words of the home page, French and English.

Both languages share one structure. The French page presents the four offers (cards pointing
at the pricing anchors) with a button scrolling to them; the English page presents the four
feature areas (cards pointing at the feature pages) and a "Visit our blog" button. Each card
names its target by page key and optional anchor; flags switch the language-specific buttons.
"""

from marketing_site.brand import BRAND_NAME

B = BRAND_NAME
ART = "/illustrations/home"

FR = {
    "hero": {
        "eyebrow": "Banques privées · Sociétés de gestion · CGP · Family offices",
        "title": "Le portail client et le CRM de la gestion privée",
        "lead": (
            f"{B} réunit sur une plateforme sécurisée, hébergée en Europe, un portail client en "
            "marque blanche, le CRM du conseiller et l'entrée en relation digitale. Vos clients "
            "suivent leur patrimoine à vos couleurs ; vos conseillers savent chaque matin quoi faire, "
            "et pour qui."
        ),
        "demo_label": "Demander une démo",
        "scroll_label": "Découvrir nos solutions",
        "show_scroll": True,
        "art": f"{ART}/hero.svg",
        "art_alt": (
            "Tableau de bord d'un conseiller avec ses alertes et la performance d'un portefeuille, "
            "à côté du portail client ouvert sur un téléphone"
        ),
    },
    "trust": {
        "title": "Une plateforme primée et sécurisée",
        "marks": [
            {"icon": f"{ART}/trust-hosting.svg", "label": "Données hébergées au Luxembourg"},
            {"icon": f"{ART}/trust-gdpr.svg", "label": "Conforme au RGPD"},
            {"icon": f"{ART}/trust-2fa.svg", "label": "Double authentification et détection d'intrusion"},
        ],
    },
    "cards": {
        "title": "Quatre offres, une seule plateforme",
        "intro": (
            "Commencez par le module qui répond à votre priorité d'aujourd'hui et ajoutez les "
            "autres quand vous le souhaitez : vos données et vos paramétrages restent au même endroit."
        ),
        "items": [
            {
                "title": "Engage",
                "text": (
                    "Le portail client premium en marque blanche : reporting de portefeuilles, partage "
                    "de documents, contenus ciblés et messagerie sécurisée avec prise de rendez-vous."
                ),
                "icon": f"{ART}/icon-portal.svg",
                "accent": "premium",
                "page": "pricing",
                "anchor": "engage",
                "link_label": "Découvrir l'offre Engage",
            },
            {
                "title": "Manage",
                "text": (
                    "Le CRM du conseiller : to-do list intelligente, alertes priorisées, fiche client "
                    "360°, agenda synchronisé et pipeline commercial."
                ),
                "icon": f"{ART}/icon-crm.svg",
                "accent": "relationclient",
                "page": "pricing",
                "anchor": "manage",
                "link_label": "Découvrir l'offre Manage",
            },
            {
                "title": "Interact",
                "text": (
                    "Engage et Manage réunis : vos conseillers pilotent la relation dans le CRM, vos "
                    "clients la vivent dans leur portail, sans double saisie."
                ),
                "icon": f"{ART}/icon-interact.svg",
                "accent": "blue-flash",
                "page": "pricing",
                "anchor": "interact",
                "link_label": "Découvrir l'offre Interact",
            },
            {
                "title": "Complete",
                "text": (
                    "Toute la plateforme, avec l'entrée en relation et le KYC digital : checklists "
                    "documentaires, questionnaires personnalisables et contrôles de conformité."
                ),
                "icon": f"{ART}/icon-complete.svg",
                "accent": "compliance",
                "page": "pricing",
                "anchor": "complete",
                "link_label": "Découvrir l'offre Complete",
            },
        ],
    },
    "testimonial": {"title": "Ce que nos clients en disent"},
    "blog": {
        "title": "Le blog de la gestion privée digitale",
        "intro": "Analyses, retours d'expérience et bonnes pratiques pour digitaliser la relation client.",
        "posts": [
            {
                "category": "Portail client",
                "title": "Portail client en marque blanche : ce que vos clients attendent vraiment",
                "excerpt": (
                    "Reporting consultable à tout moment, coffre-fort documentaire, messagerie "
                    "sécurisée : les fonctionnalités qui comptent dans l'expérience d'un client fortuné."
                ),
                "slug": "portail-client-marque-blanche-attentes-clients",
                "image": f"{ART}/blog-portal.svg",
                "read_time": "6 min de lecture",
            },
            {
                "category": "Conformité",
                "title": "KYC : digitaliser l'entrée en relation sans sacrifier la conformité",
                "excerpt": (
                    "Checklists documentaires, questionnaires adaptés à chaque profil et contrôles "
                    "tracés : raccourcir l'ouverture de compte tout en sécurisant vos dossiers."
                ),
                "slug": "kyc-digitaliser-entree-en-relation",
                "image": f"{ART}/blog-kyc.svg",
                "read_time": "8 min de lecture",
            },
            {
                "category": "CRM",
                "title": "Alertes et priorités : organiser la semaine d'un conseiller en patrimoine",
                "excerpt": (
                    "Un mandat de gestion qui recule de plus de 10 %, une pièce d'identité qui expire, "
                    "un client qui lit un article : transformer ces signaux en actions."
                ),
                "slug": "alertes-priorites-semaine-conseiller-patrimoine",
                "image": f"{ART}/blog-alerts.svg",
                "read_time": "5 min de lecture",
            },
        ],
        "visit_label": "Visiter notre blog",
        "show_visit": False,
    },
    "cta": {
        "title": f"Voyons ensemble ce que {B} peut apporter à vos équipes",
        "text": (
            "Trente minutes avec un consultant, sur vos propres cas d'usage : portail client, CRM "
            "ou entrée en relation digitale."
        ),
        "label": "Réserver une démo",
    },
}

EN = {
    "hero": {
        "eyebrow": "Private banks · Asset managers · Independent advisers · Family offices",
        "title": "The client portal and CRM for wealth management",
        "lead": (
            f"{B} brings a white-label client portal, an adviser CRM and digital onboarding together "
            "on one secure platform hosted in Europe. Your clients follow their wealth in your "
            "colours; your advisers know every morning what to do, and for whom."
        ),
        "demo_label": "Book a Demo",
        "scroll_label": "Explore our features",
        "show_scroll": False,
        "art": f"{ART}/hero.svg",
        "art_alt": (
            "An adviser's dashboard showing alerts and a portfolio's performance, next to the "
            "client portal open on a phone"
        ),
    },
    "trust": {
        "title": "Award-winning and secure",
        "marks": [
            {"icon": f"{ART}/trust-hosting.svg", "label": "Data hosted in Luxembourg"},
            {"icon": f"{ART}/trust-gdpr.svg", "label": "GDPR compliant"},
            {"icon": f"{ART}/trust-2fa.svg", "label": "Two-factor authentication and intrusion detection"},
        ],
    },
    "cards": {
        "title": "Everything your advisers and clients need",
        "intro": (
            "Four feature areas on one platform: start with the one that matters most to you today "
            "and explore the others at your own pace."
        ),
        "items": [
            {
                "title": "Client relationship management",
                "text": (
                    "A smart to-do list, a task manager, two-way calendar sync, meeting notes and a "
                    "360° client file covering families, individuals, legal entities and joint ownership."
                ),
                "icon": f"{ART}/icon-crm.svg",
                "accent": "relationclient",
                "page": "feature_relationship",
                "anchor": "",
                "link_label": "Explore relationship management",
            },
            {
                "title": "Premium client portal",
                "text": (
                    "Digital portfolio reporting, document sharing, targeted content with a matching "
                    "score and secure chat with appointment booking, all under your brand."
                ),
                "icon": f"{ART}/icon-portal.svg",
                "accent": "premium",
                "page": "feature_portal",
                "anchor": "",
                "link_label": "Explore the client portal",
            },
            {
                "title": "Prospecting and sales",
                "text": (
                    "A sales pipeline and commercial dashboards to follow every prospect, from the "
                    "first meeting to the signed mandate."
                ),
                "icon": f"{ART}/icon-pipeline.svg",
                "accent": "sales",
                "page": "feature_sales",
                "anchor": "",
                "link_label": "Explore the sales tools",
            },
            {
                "title": "Compliance and KYC",
                "text": (
                    "Configurable document checklists emailed to clients, customisable KYC "
                    "questionnaires, compliance controls and e-signature through our partners."
                ),
                "icon": f"{ART}/icon-checklist.svg",
                "accent": "compliance",
                "page": "feature_compliance",
                "anchor": "",
                "link_label": "Explore compliance and KYC",
            },
        ],
    },
    "testimonial": {"title": "What our clients say"},
    "blog": {
        "title": "Insights on digital wealth management",
        "intro": "Analysis, field experience and good practice for bringing client relationships online.",
        "posts": [
            {
                "category": "Client portal",
                "title": "White-label client portals: what your clients really expect",
                "excerpt": (
                    "Reporting available at any time, a secure document vault, private messaging: the "
                    "features that shape the experience of a high-net-worth client."
                ),
                "slug": "white-label-client-portal-client-expectations",
                "image": f"{ART}/blog-portal.svg",
                "read_time": "6 min read",
            },
            {
                "category": "Compliance",
                "title": "KYC: digital onboarding without cutting corners on compliance",
                "excerpt": (
                    "Document checklists, questionnaires tailored to each profile and traceable "
                    "controls: shorter account opening with sounder client files."
                ),
                "slug": "kyc-digital-onboarding-compliance",
                "image": f"{ART}/blog-kyc.svg",
                "read_time": "8 min read",
            },
            {
                "category": "CRM",
                "title": "Alerts and priorities: planning a wealth adviser's week",
                "excerpt": (
                    "A discretionary mandate down more than 10%, an ID document about to expire, a "
                    "client reading an article: turning these signals into actions."
                ),
                "slug": "alerts-priorities-wealth-adviser-week",
                "image": f"{ART}/blog-alerts.svg",
                "read_time": "5 min read",
            },
        ],
        "visit_label": "Visit our blog",
        "show_visit": True,
    },
    "cta": {
        "title": f"See what {B} can do for your teams",
        "text": (
            "Thirty minutes with a consultant, on your own use cases: client portal, CRM or digital "
            "onboarding."
        ),
        "label": "Book a Demo",
    },
}
