"""The five downloadable PDF documents (SPEC §3): their text, their file and their download name.

`scripts/make_documents.py` lays these documents out into files/, and tests/test_documents.py
checks that the committed PDFs match this module: after editing the text, re-run
`.venv/bin/python scripts/make_documents.py`.

Each document has:
- `file`: its name in files/ (served from the static files path);
- `display_name`: the name the visitor's browser saves it under (ASCII, no accents, no slashes);
- `label`, `title`, `subtitle`: the cover (the title and subtitle are also the PDF metadata);
- `sections`: a list of `{"heading", "blocks"}`. A block is a lead paragraph, a paragraph, a
  subheading, a bullet list or a call-out box; a list item is a string or a (bold term, text) pair.

This module holds the French documents (the site's default language); `downloads_en` holds the
same five in English, with the same keys, for the English pages. Write straight apostrophes and
plain spaces before « : ; ! ? »: the generator applies French typography (’ and non-breaking
spaces) to French documents and typographic apostrophes to English ones. Only characters of
Windows-1252 can be used (the PDF fonts are the standard WinAnsi ones).
"""

from marketing_site.brand import BRAND_NAME, LEGAL_NAME

B = BRAND_NAME

COVER_TAGLINE = f"{B} · Le portail client et le CRM des professionnels du patrimoine"
CONTENTS_HEADING = "Sommaire"


def _lead(text: str) -> dict:
    return {"kind": "lead", "text": text}


def _p(text: str) -> dict:
    return {"kind": "paragraph", "text": text}


def _h(text: str) -> dict:
    return {"kind": "subheading", "text": text}


def _ul(*items: str | tuple[str, str]) -> dict:
    return {"kind": "bullets", "items": list(items)}


def _box(title: str, *items: str | tuple[str, str]) -> dict:
    return {"kind": "callout", "title": title, "items": list(items)}


def _section(heading: str, *blocks: dict) -> dict:
    return {"heading": heading, "blocks": list(blocks)}


_ABOUT = _section(
    f"À propos de {B}",
    _p(
        f"{B} édite un portail client en marque blanche et un CRM conçus pour les banques privées, les "
        "sociétés de gestion, les family offices et les conseillers en gestion de patrimoine indépendants. "
        "Quatre offres permettent de choisir son périmètre sur une seule plateforme :"
    ),
    _ul(
        ("Engage", "le portail client premium en marque blanche ;"),
        ("Manage", "le CRM du conseiller ;"),
        ("Interact", "le portail client et le CRM réunis ;"),
        ("Complete", "Interact complété par l'onboarding KYC et les contrôles de conformité."),
    ),
    _p(
        "Pour voir ces outils en situation, réservez une démonstration de trente minutes avec un "
        "consultant, ou démarrez un essai gratuit de 30 jours sur des données de démonstration."
    ),
)

# --------------------------------------------------------------------------- the e-book

EBOOK = {
    "file": "ebook-wealth-manager-nouvelle-generation.pdf",
    "display_name": f"{B} - Wealth manager nouvelle generation - ebook.pdf",
    "label": "E-book",
    "title": "Wealth manager nouvelle génération",
    "subtitle": "5 raisons de digitaliser la relation client",
    "sections": [
        _section(
            "Introduction : la relation client change de rythme",
            _lead(
                "Banques privées, sociétés de gestion, family offices et conseillers en gestion de "
                "patrimoine indépendants partagent une même conviction : la valeur de leur métier tient à "
                "la confiance et à la qualité du conseil. Le digital ne remet pas cette conviction en "
                "cause ; il change la manière de la faire vivre au quotidien."
            ),
            _p(
                "Les attentes des clients évoluent, les obligations réglementaires se densifient et le "
                "temps des conseillers est de plus en plus absorbé par des tâches administratives. Dans "
                "ce contexte, digitaliser la relation client ne consiste pas à remplacer le conseiller par "
                "un écran. Il s'agit de lui rendre du temps, de donner au client une visibilité permanente "
                "sur son patrimoine et de fiabiliser le dossier réglementaire."
            ),
            _p(
                "Cet e-book présente cinq raisons de passer à l'action. Chaque chapitre part d'une attente "
                "concrète de vos clients ou de vos équipes, décrit ce qu'un outil adapté change au "
                "quotidien, et se termine par des questions à vous poser avant de choisir vos outils."
            ),
            _h("À qui s'adresse cet e-book ?"),
            _ul(
                "Directions générales et COO de banques privées",
                "Dirigeants de sociétés de gestion et de family offices",
                "Conseillers en gestion de patrimoine indépendants",
                "Responsables de la relation client et de la transformation digitale",
            ),
        ),
        _section(
            "1. Vos clients vivent déjà en digital",
            _lead(
                "Ils consultent leurs comptes sur mobile, signent leurs contrats en ligne et échangent par "
                "messagerie avec la plupart de leurs prestataires. Ils attendent la même fluidité de la "
                "maison qui gère leur patrimoine."
            ),
            _p(
                "Pour beaucoup de clients fortunés, la relation avec leur gestionnaire reste pourtant "
                "rythmée par le relevé trimestriel, les envois postaux et les e-mails dispersés. L'écart se "
                "creuse entre l'expérience qu'ils vivent ailleurs et celle que leur propose leur banquier "
                "privé ou leur conseiller. Cet écart ne se mesure pas seulement en confort : un client qui "
                "ne trouve pas l'information au moment où il la cherche appelle, relance, ou finit par "
                "douter."
            ),
            _h("Ce que vos clients attendent"),
            _ul(
                (
                    "Une vision à jour de leur patrimoine",
                    "valorisation, performance, répartition par classe d'actifs et derniers mouvements, "
                    "consultables à tout moment, sans attendre le prochain rendez-vous.",
                ),
                (
                    "Leurs documents au même endroit",
                    "relevés, rapports de gestion, contrats, avis d'opéré et documents fiscaux, classés et "
                    "retrouvables en quelques secondes.",
                ),
                (
                    "Un canal d'échange sûr",
                    "écrire à leur conseiller sans passer par une messagerie personnelle, joindre un "
                    "document, convenir d'un rendez-vous.",
                ),
                (
                    "Une expérience à la hauteur de la maison",
                    "un espace à vos couleurs, sobre et soigné, sur ordinateur comme sur mobile.",
                ),
            ),
            _h("Ce que le digital change"),
            _p(
                "Un portail client en marque blanche devient la vitrine quotidienne de votre établissement. "
                "Le client y retrouve son reporting et ses documents ; le conseiller y publie une analyse, y "
                "dépose un rapport ou y propose un créneau. Chaque échange est conservé et rattaché à la "
                "fiche client, ce qui évite la dispersion de l'information dans des boîtes e-mail "
                "individuelles."
            ),
            _p(
                "Le portail ne remplace pas le rendez-vous : il le prépare et le prolonge. Le client arrive "
                "mieux informé, le conseiller sait ce que le client a consulté, et la conversation porte sur "
                "l'essentiel : les projets, les arbitrages, la transmission."
            ),
            _box(
                "Questions à vous poser",
                "Combien de temps faut-il aujourd'hui à un client pour obtenir la valorisation à jour de "
                "son portefeuille ?",
                "Par quels canaux vos clients vous envoient-ils leurs documents, et où ces documents "
                "sont-ils conservés ?",
                "Votre espace client reflète-t-il le niveau de service que vous revendiquez en rendez-vous ?",
            ),
        ),
        _section(
            "2. Le temps du conseiller est votre ressource la plus rare",
            _lead(
                "Dans la gestion privée, la valeur se crée en rendez-vous, au téléphone, dans la "
                "préparation d'une recommandation. Pourtant, une part importante de la journée d'un "
                "conseiller passe à retrouver une information, ressaisir des données ou relancer une "
                "pièce manquante."
            ),
            _p(
                "Chaque minute gagnée sur l'administratif est une minute rendue au conseil. L'enjeu n'est "
                "pas de faire travailler les équipes plus vite, mais de leur permettre de savoir, chaque "
                "matin, par où commencer."
            ),
            _h("Les outils qui libèrent du temps"),
            _ul(
                (
                    "To-do list intelligente",
                    "les actions du jour sont regroupées et classées : relances, pièces à collecter, "
                    "rendez-vous à préparer, alertes à traiter, les plus urgentes en tête.",
                ),
                (
                    "Alertes prioritaires",
                    "les signaux utiles remontent d'eux-mêmes, répartis en quatre catégories : "
                    "comportementales, articles et contenus, portefeuilles d'investissement et conformité. "
                    "Par exemple, un portefeuille sous mandat de gestion qui recule de plus de 10 % "
                    "déclenche une alerte de priorité haute.",
                ),
                (
                    "Agenda synchronisé",
                    "une synchronisation bidirectionnelle avec Google Agenda et Outlook évite la double "
                    "saisie : un rendez-vous déplacé d'un côté est mis à jour de l'autre.",
                ),
                (
                    "Comptes rendus de rendez-vous",
                    "les notes sont prises directement dans la fiche client, transformées en tâches et "
                    "partagées avec le middle office, sans ressaisie.",
                ),
                (
                    "Gestionnaire de tâches",
                    "les tâches sont assignées, datées et suivies, rattachées à un client ou à un groupe, "
                    "pour que rien ne se perde entre le front et le middle office.",
                ),
            ),
            _p(
                "Pris isolément, chacun de ces outils fait gagner quelques minutes. Réunis dans un même "
                "espace et alimentés par les mêmes données, ils changent l'organisation de la journée : le "
                "conseiller ne cherche plus l'information, elle vient à lui au moment où elle est utile."
            ),
            _h("Un point de vigilance"),
            _p(
                "Un outil de plus peut aussi devenir une charge de plus. La digitalisation fait gagner du "
                "temps si elle remplace des outils existants (tableurs, carnets, agendas parallèles) et non "
                "si elle s'y ajoute. Le choix d'une plateforme unique, partagée par le conseiller et par le "
                "client, est à ce titre décisif."
            ),
            _box(
                "Questions à vous poser",
                "Combien d'outils un conseiller ouvre-t-il pour préparer un rendez-vous ?",
                "Comment vos conseillers apprennent-ils aujourd'hui qu'un portefeuille sous mandat vient "
                "de subir une forte baisse ?",
                "Les comptes rendus de rendez-vous sont-ils partagés, ou restent-ils dans des notes "
                "personnelles ?",
            ),
        ),
        _section(
            "3. La conformité peut devenir un avantage",
            _lead(
                "Connaissance client, lutte contre le blanchiment, adéquation des conseils : les "
                "obligations réglementaires pèsent sur chaque entrée en relation et sur toute la durée de la "
                "relation. Traitées sur papier, elles allongent les délais et lassent les clients. "
                "Digitalisées, elles deviennent un gage de sérieux."
            ),
            _p(
                "Les établissements de gestion privée et les conseillers indépendants appliquent un "
                "ensemble d'obligations exigeantes : vigilance au titre de la lutte contre le blanchiment "
                "des capitaux et le financement du terrorisme (LCB-FT), évaluation de l'adéquation ou du "
                "caractère approprié des services au titre de la directive MIF 2, recueil des exigences et "
                "des besoins pour la distribution d'assurance au titre de la directive sur la distribution "
                "d'assurances (DDA). Aucun outil ne dispense de ces obligations ; un bon outil aide à les "
                "respecter de façon régulière et traçable."
            ),
            _h("Ce qu'un parcours digital apporte"),
            _ul(
                (
                    "Une entrée en relation plus rapide",
                    "la checklist des pièces attendues est envoyée par e-mail au client, qui dépose ses "
                    "justificatifs en ligne ; le conseiller voit à tout moment ce qui manque.",
                ),
                (
                    "Des questionnaires adaptés",
                    "les questionnaires KYC sont personnalisés selon la typologie du client (personne "
                    "physique, personne morale, non-résident…) et selon votre politique de connaissance "
                    "client.",
                ),
                (
                    "Des contrôles tracés",
                    "pièces manquantes ou expirées, réponses incohérentes, profils à revoir : chaque "
                    "anomalie est signalée, attribuée et suivie jusqu'à sa résolution, avec un historique "
                    "consultable.",
                ),
                (
                    "Des profils à jour",
                    "les clients dont le profil arrive à échéance sont invités à confirmer ou à modifier "
                    "leurs informations en ligne ; les versions successives sont conservées.",
                ),
            ),
            _p(
                "Pour les contrôles qui exigent des bases de données spécialisées, comme le criblage des "
                "clients sur les listes de sanctions et de personnes politiquement exposées, ou pour la "
                "signature électronique des conventions, l'intégration de partenaires spécialisés évite de "
                "multiplier les outils sans renoncer à leur expertise."
            ),
            _h("Pourquoi c'est un avantage"),
            _p(
                "Un client qui complète son dossier en une fois, depuis chez lui, garde une meilleure "
                "impression de son entrée en relation qu'un client relancé à plusieurs reprises par "
                "courrier. Une équipe conformité qui dispose d'un tableau de bord fiable consacre son temps "
                "aux dossiers qui le méritent. Et lors d'un contrôle, la capacité à montrer qui a vérifié "
                "quoi, et quand, fait la différence."
            ),
            _box(
                "Questions à vous poser",
                "Combien de temps s'écoule entre le premier rendez-vous et l'ouverture effective d'un "
                "compte ou d'un mandat ?",
                "Savez-vous, sans recherche manuelle, quels clients ont une pièce d'identité expirée ?",
                "Pouvez-vous reconstituer rapidement l'historique des contrôles réalisés sur un dossier ?",
            ),
        ),
        _section(
            "4. La donnée client est un actif à faire fructifier",
            _lead(
                "Chaque maison de gestion dispose d'une connaissance fine de ses clients. Mais cette "
                "connaissance est souvent dispersée : dans la mémoire des conseillers, dans des tableurs, "
                "dans des e-mails. Structurée et partagée, elle permet d'anticiper les besoins plutôt que "
                "de réagir aux demandes."
            ),
            _h("Structurer la connaissance client"),
            _ul(
                (
                    "Une fiche client 360°",
                    "patrimoine, contrats, documents, historique des échanges et des rendez-vous, objectifs "
                    "et profil de risque, réunis sur un même écran.",
                ),
                (
                    "Des champs configurables",
                    "vos propres rubriques, listes de valeurs et critères reflètent votre segmentation et "
                    "vos méthodes de travail.",
                ),
                (
                    "Des groupes de contacts",
                    "familles, personnes physiques, personnes morales et indivisions : le patrimoine se suit "
                    "dans sa réalité, avec les liens entre ses membres et ses structures de détention.",
                ),
            ),
            _h("Passer de la donnée à l'action"),
            _p(
                "Une donnée bien structurée nourrit les alertes : un client qui consulte plusieurs fois une "
                "analyse sur la transmission, un portefeuille qui s'écarte de son allocation cible, un "
                "profil de risque à renouveler. Elle nourrit aussi la publication de contenus ciblés : "
                "chaque analyse de marché ou lettre d'information est rapprochée, grâce à un score de "
                "correspondance, des clients dont le profil et les projets s'y prêtent le mieux."
            ),
            _p(
                "Le conseiller ne subit plus la donnée : il s'en sert pour appeler le bon client, au bon "
                "moment, avec le bon sujet."
            ),
            _h("La confiance comme condition"),
            _p(
                "Les données patrimoniales comptent parmi les plus sensibles. Leur exploitation suppose un "
                "cadre clair : finalités définies, accès limités selon les rôles, hébergement maîtrisé, "
                "respect du RGPD. La personnalisation n'a de valeur que si le client a confiance dans "
                "l'usage qui est fait de ses informations."
            ),
            _box(
                "Questions à vous poser",
                "Si un conseiller quitte l'établissement, quelle part de sa connaissance des clients reste "
                "dans vos outils ?",
                "Pouvez-vous identifier en quelques clics les clients concernés par une nouvelle analyse "
                "ou un nouveau produit ?",
                "Vos outils reflètent-ils les liens familiaux et les structures de détention de vos clients ?",
            ),
        ),
        _section(
            "5. La prochaine génération choisira son conseiller",
            _lead(
                "La transmission du patrimoine se prépare avec les clients d'aujourd'hui, mais aussi avec "
                "leurs héritiers. Ceux-ci ont grandi avec le numérique et jugeront votre maison, entre "
                "autres, sur la qualité de son expérience digitale."
            ),
            _p(
                "Lors d'une succession ou d'une donation, rien n'oblige les héritiers à rester auprès du "
                "conseiller de leurs parents. Leur décision dépendra de la relation qu'ils auront nouée "
                "avec lui avant l'échéance, de la compréhension qu'ils auront de son travail et de la "
                "facilité avec laquelle ils pourront suivre leur patrimoine."
            ),
            _h("Préparer la relation avec les héritiers"),
            _ul(
                (
                    "Connaître la famille",
                    "les groupes familiaux de la fiche client permettent de suivre les liens entre "
                    "générations et de préparer les rendez-vous consacrés à la transmission.",
                ),
                (
                    "Offrir une expérience actuelle",
                    "un espace client accessible sur ordinateur et sur mobile rend le patrimoine lisible "
                    "pour une génération habituée à tout suivre en ligne.",
                ),
                (
                    "Partager votre pédagogie",
                    "analyses, lettres d'information et contenus ciblés expliquent vos convictions et votre "
                    "méthode, bien au-delà du rendez-vous annuel.",
                ),
                (
                    "Rester joignable",
                    "une messagerie sécurisée et des propositions de rendez-vous en quelques clics "
                    "correspondent aux usages d'une clientèle habituée à l'instantané.",
                ),
            ),
            _p(
                "L'enjeu dépasse l'image de marque. Une maison qui n'a pas noué de relation avec la "
                "génération suivante avant la transmission s'expose au départ des actifs au moment même où "
                "ils changent de mains."
            ),
            _box(
                "Questions à vous poser",
                "Connaissez-vous les héritiers de vos principaux clients, et ont-ils déjà rencontré leur "
                "conseiller ?",
                "Votre expérience digitale supporterait-elle la comparaison avec les services qu'ils "
                "utilisent chaque jour ?",
                "Vos contenus parlent-ils aussi des préoccupations de la génération suivante : "
                "investissement responsable, entrepreneuriat, immobilier ?",
            ),
        ),
        _section(
            "Conclusion : passer à l'action",
            _p(
                "Les cinq raisons présentées dans cet e-book se renforcent mutuellement. Un client mieux "
                "informé sollicite son conseiller à bon escient ; un conseiller libéré de l'administratif a "
                "du temps pour la relation ; un dossier de conformité tenu à jour sécurise l'établissement ; "
                "une donnée structurée rend le conseil plus pertinent ; une expérience soignée fidélise la "
                "génération suivante."
            ),
            _h("Une démarche en quatre temps"),
            _ul(
                (
                    "Partir des irritants",
                    "recensez avec vos conseillers et quelques clients de confiance les tâches et les "
                    "échanges qui font perdre le plus de temps.",
                ),
                (
                    "Choisir un premier périmètre",
                    "commencez par le portail client, par le CRM ou par l'entrée en relation, selon "
                    "l'urgence ; une plateforme modulaire permet ensuite d'étendre le périmètre sans changer "
                    "d'outil.",
                ),
                (
                    "Associer la conformité dès le départ",
                    "vos responsables conformité valident les questionnaires, les checklists et les "
                    "circuits de contrôle avant leur mise en service.",
                ),
                (
                    "Mesurer et ajuster",
                    "suivez l'adoption par les clients et par les équipes, et ajustez les paramétrages au "
                    "fil des premières semaines.",
                ),
            ),
        ),
        _ABOUT,
    ],
}

# --------------------------------------------------------------------------- the white paper


TREND_HEADINGS = ("Ce qui change pour les clients", "Ce qui change pour les équipes", "Premières étapes")


def _trend(
    heading: str,
    lead: str,
    clients: list[str],
    teams: list[str],
    steps: list[str],
    headings: tuple[str, str, str] = TREND_HEADINGS,
) -> dict:
    """One trend of the white paper: what changes for clients, for teams, and the first steps."""
    for_clients, for_teams, first_steps = headings
    return _section(
        heading,
        _lead(lead),
        _h(for_clients),
        *[_p(text) for text in clients],
        _h(for_teams),
        *[_p(text) for text in teams],
        _box(first_steps, *steps),
    )


WHITE_PAPER = {
    "file": "livre-blanc-tendances-digitales-wealth-management.pdf",
    "display_name": f"{B} - Les tendances digitales du wealth management - livre blanc.pdf",
    "label": "Livre blanc",
    "title": "Les tendances digitales du wealth management",
    "subtitle": (
        "Six évolutions qui redessinent le métier des banques privées, des sociétés de gestion et des "
        "conseillers indépendants, et les choix qu'elles imposent dès aujourd'hui"
    ),
    "sections": [
        _section(
            "Avant-propos",
            _lead(
                "Portail client, données, KYC en ligne, pilotage commercial : le wealth management vit une "
                "transformation profonde, qui touche autant l'expérience des clients que l'organisation des "
                "équipes."
            ),
            _p(
                "Ce livre blanc décrit six tendances de fond à l'œuvre dans les banques privées, les "
                "sociétés de gestion, les family offices et chez les conseillers en gestion de patrimoine "
                "indépendants. Il ne s'appuie pas sur des chiffres de marché, qui vieillissent vite : il "
                "s'attache aux évolutions observables dans le métier et aux questions concrètes qu'elles "
                "posent."
            ),
            _p(
                "Pour chaque tendance, nous décrivons ce qui change pour les clients, ce qui change pour "
                "les équipes, puis les premières étapes pour s'y préparer. Les tendances peuvent se lire "
                "séparément ; elles dessinent ensemble un même mouvement, que la conclusion résume."
            ),
            _h("À qui s'adresse ce livre blanc ?"),
            _ul(
                "Directions générales et COO de banques privées",
                "Responsables de la conformité et du contrôle interne",
                "Dirigeants de sociétés de gestion et de family offices",
                "Conseillers en gestion de patrimoine indépendants",
            ),
        ),
        _trend(
            "Tendance 1 : le modèle hybride s'impose",
            "Le conseiller reste au centre, mais la relation se prolonge en ligne : un portail client en "
            "marque blanche devient la vitrine quotidienne de la maison.",
            [
                "Le client fortuné ne choisit pas entre le digital et l'humain : il veut les deux. Il attend "
                "de pouvoir consulter son patrimoine, retrouver un document ou poser une question à toute "
                "heure, et de rencontrer son conseiller pour les décisions qui comptent : une allocation à "
                "revoir, une cession d'entreprise, une transmission. Le portail devient le lieu de la "
                "relation courante ; le rendez-vous reste celui du conseil.",
            ],
            [
                "Le modèle hybride impose de penser un parcours continu. Ce que le client a consulté en "
                "ligne doit être visible du conseiller ; ce qui a été décidé en rendez-vous doit se "
                "retrouver dans l'espace du client. Cela suppose un outil commun au client et au "
                "conseiller, plutôt qu'un site client d'un côté et un CRM de l'autre.",
                "La marque blanche prend ici tout son sens : le client ne se connecte pas à un outil tiers, "
                "mais à l'espace de sa banque ou de son conseiller, dont il reconnaît l'identité et le "
                "niveau d'exigence.",
            ],
            [
                "Cartographier les points de contact actuels avec les clients : courrier, e-mail, "
                "téléphone, rendez-vous, espace en ligne.",
                "Identifier les informations que les clients demandent le plus souvent entre deux "
                "rendez-vous.",
                "Définir ce qui relève du libre-service (consultation, documents) et ce qui doit rester un "
                "échange avec le conseiller.",
                "Choisir un portail aux couleurs de l'établissement, relié au CRM des conseillers.",
            ],
        ),
        _trend(
            "Tendance 2 : la personnalisation passe par la donnée",
            "Alertes comportementales, suivi des portefeuilles et contenus ciblés avec score de pertinence : "
            "le bon message, au bon client, au bon moment.",
            [
                "Les clients attendent de leur gestionnaire qu'il les connaisse : leurs projets, leurs "
                "contraintes, leurs centres d'intérêt. Une lettre d'information identique pour tous ne "
                "répond plus à cette attente. Ils veulent recevoir l'analyse qui concerne leur situation, "
                "qu'il s'agisse d'une réflexion sur la transmission à l'approche d'une échéance familiale "
                "ou d'un point sur les marchés obligataires pour un portefeuille prudent.",
            ],
            [
                "La personnalisation repose sur une donnée client structurée et partagée : profil de "
                "risque, objectifs, composition du patrimoine, étapes de vie, centres d'intérêt. Sur cette "
                "base, trois mécanismes deviennent possibles. Les alertes comportementales signalent un "
                "client qui ne s'est pas connecté depuis longtemps ou qui consulte plusieurs fois la même "
                "offre. Le suivi des portefeuilles signale un écart avec l'allocation cible ou le "
                "franchissement d'un seuil. La publication de contenus ciblés associe enfin chaque contenu "
                "à un score de correspondance avec le profil des clients.",
                "La personnalisation a aussi ses limites réglementaires : les communications à caractère "
                "promotionnel doivent rester claires, exactes et non trompeuses, et une recommandation "
                "personnalisée relève du conseil, avec les obligations qui s'y attachent. Les outils "
                "doivent permettre de faire valider les contenus avant leur publication.",
            ],
            [
                "Recenser les données client réellement utilisées par les conseillers, et celles qui "
                "manquent.",
                "Définir quelques thèmes de contenus prioritaires et les profils de clients auxquels ils "
                "s'adressent.",
                "Paramétrer des seuils d'alerte simples, par exemple un recul de plus de 10 % d'un "
                "portefeuille sous mandat de gestion, avant de les affiner.",
                "Prévoir un circuit de validation des contenus par la conformité.",
            ],
        ),
        _trend(
            "Tendance 3 : l'entrée en relation devient digitale",
            "Questionnaires KYC en ligne, checklists documentaires, signature électronique et contrôles "
            "anti-blanchiment automatisés raccourcissent l'onboarding.",
            [
                "Pour un nouveau client, l'entrée en relation est la première expérience concrète de "
                "l'établissement. Formulaires papier, pièces envoyées par courrier puis renvoyées parce "
                "qu'une page manque : le premier contact peut vite devenir une épreuve. Le client attend "
                "désormais de constituer son dossier en ligne, à son rythme, en sachant à chaque instant ce "
                "qui reste à fournir.",
            ],
            [
                "L'entrée en relation concentre les obligations : identification et vérification de "
                "l'identité du client et, le cas échéant, du bénéficiaire effectif au titre de la LCB-FT ; "
                "évaluation des connaissances, de l'expérience, de la situation financière et des objectifs "
                "au titre de MIF 2 ; recueil des exigences et des besoins au titre de la DDA pour les "
                "contrats d'assurance. Un parcours digital structure cette collecte : checklists "
                "documentaires par type de client envoyées par e-mail, questionnaires KYC personnalisables, "
                "contrôles de complétude et de cohérence, signature électronique et criblage automatisé sur "
                "les listes de sanctions et de personnes politiquement exposées, ces deux derniers services "
                "étant généralement assurés avec des partenaires spécialisés.",
                "La digitalisation ne transfère pas la responsabilité : l'établissement reste seul juge de "
                "l'acceptation d'un client et de la classification de son risque. Elle rend en revanche "
                "chaque étape traçable, ce qui facilite les contrôles internes comme externes.",
            ],
            [
                "Formaliser avec la conformité la liste des pièces attendues par typologie de client.",
                "Revoir les questionnaires existants : supprimer les doublons, clarifier les questions, "
                "définir les enchaînements conditionnels.",
                "Décider des contrôles automatisés (complétude, échéances, cohérence) et de ceux qui "
                "restent manuels.",
                "Choisir les partenaires de signature électronique et de filtrage anti-blanchiment adaptés "
                "à vos volumes.",
            ],
        ),
        _trend(
            "Tendance 4 : le CRM pilote le développement commercial",
            "Pipeline, tableaux de bord et tâches partagées donnent aux directions une vision fiable de la "
            "collecte et de l'activité des équipes.",
            [
                "Le client ne voit pas le CRM, mais il en ressent les effets : un conseiller qui se souvient "
                "de la dernière conversation, une relance faite au bon moment, une proposition qui arrive à "
                "la date promise. À l'inverse, une demande oubliée ou une question posée deux fois laissent "
                "une impression durable.",
            ],
            [
                "Pour les directions, le CRM est devenu l'outil de pilotage du développement commercial. Un "
                "pipeline organisé par étapes (premier contact, découverte, proposition, signature) donne "
                "une vision du potentiel de collecte et de son calendrier. Les tableaux de bord rapprochent "
                "l'activité (rendez-vous réalisés, propositions envoyées) des résultats (opportunités "
                "gagnées, collecte réalisée), par conseiller, par équipe et par période. Les taux de "
                "transformation entre étapes révèlent où les prospects décrochent.",
                "Ces indicateurs n'ont de valeur que si la saisie reste légère : un CRM qui impose une "
                "double saisie sera contourné. D'où l'intérêt d'un outil où la to-do list, l'agenda "
                "synchronisé, les comptes rendus de rendez-vous et le pipeline partagent les mêmes "
                "données : l'activité se mesure au fil du travail quotidien, sans effort supplémentaire.",
            ],
            [
                "Définir des étapes de pipeline qui correspondent à votre processus commercial réel.",
                "Choisir un petit nombre d'indicateurs partagés entre direction et conseillers.",
                "Relier agenda, tâches et opportunités pour limiter la saisie.",
                "Faire des tableaux de bord un support de réunion d'équipe plutôt qu'un outil de contrôle.",
            ],
        ),
        _trend(
            "Tendance 5 : la sécurité devient un argument",
            "Authentification à deux facteurs, détection des intrusions et messagerie chiffrée : la "
            "confiance se démontre aussi dans les outils.",
            [
                "Les données patrimoniales sont parmi les plus sensibles qui soient : montant des avoirs, "
                "composition de la famille, projets de cession, situation fiscale. Les clients sont "
                "attentifs à la manière dont elles sont protégées, et les tentatives d'hameçonnage ou "
                "d'usurpation d'identité n'épargnent pas la clientèle patrimoniale. Un canal d'échange "
                "sécurisé et clairement identifié est aussi une protection : un client habitué à recevoir "
                "ses documents dans son espace se méfiera d'un e-mail lui demandant un virement urgent.",
            ],
            [
                "Pour l'établissement, la sécurité se démontre dans les outils : authentification à deux "
                "facteurs à chaque connexion, détection des tentatives d'accès anormales, chiffrement des "
                "échanges, droits d'accès définis selon les rôles, journalisation des actions sensibles.",
                "La localisation de l'hébergement, le cadre contractuel avec les prestataires au titre du "
                "RGPD et la capacité à répondre aux questionnaires de sécurité des directions des risques "
                "pèsent désormais dans le choix d'une solution. Pour les entités financières soumises au "
                "règlement européen DORA sur la résilience opérationnelle numérique, le recours à des "
                "prestataires informatiques est en outre encadré.",
            ],
            [
                "Imposer l'authentification à deux facteurs à tous les utilisateurs, clients comme "
                "conseillers.",
                "Faire du portail le canal d'envoi des documents sensibles, et le faire savoir aux clients.",
                "Associer le responsable de la sécurité des systèmes d'information dès le choix de la "
                "solution.",
                "Vérifier la localisation de l'hébergement, les engagements contractuels et les procédures "
                "de gestion des incidents du prestataire.",
            ],
        ),
        _trend(
            "Tendance 6 : les écosystèmes s'ouvrent",
            "Agrégation de comptes externes, synchronisation d'agenda et partenaires spécialisés : la "
            "plateforme relie les services plutôt que de tout refaire.",
            [
                "Le patrimoine d'un client est rarement logé dans un seul établissement : comptes dans "
                "plusieurs banques, contrats d'assurance-vie, immobilier, participations non cotées. Le "
                "client apprécie le conseiller qui l'aide à voir l'ensemble, sans lui demander de ressaisir "
                "ce qu'il détient ailleurs.",
            ],
            [
                "Aucune plateforme ne fait tout. La tendance est à l'assemblage : un socle commun, le "
                "portail client et le CRM, relié à des services spécialisés. L'agrégation de comptes "
                "externes, assurée par un partenaire avec le consentement du client, complète la vision du "
                "patrimoine. La synchronisation bidirectionnelle avec Google Agenda et Outlook évite de "
                "saisir deux fois les rendez-vous. Des partenaires apportent la signature électronique, le "
                "filtrage anti-blanchiment ou l'optimisation de portefeuille.",
                "La valeur de la plateforme tient alors à la qualité de ses intégrations et à la cohérence "
                "de l'expérience, plus qu'à l'étendue de son périmètre propre.",
            ],
            [
                "Recenser les outils existants et les données qu'ils échangent, ou devraient échanger.",
                "Distinguer ce qui doit relever du socle commun de ce qui peut être confié à un partenaire "
                "spécialisé.",
                "Vérifier pour chaque partenaire le cadre contractuel et la répartition des "
                "responsabilités, notamment au titre du RGPD.",
                "Privilégier une plateforme modulaire, qui permet d'ajouter des briques sans changer "
                "d'outil.",
            ],
        ),
        _section(
            "Conclusion : des choix à faire dès aujourd'hui",
            _p(
                "Ces six tendances dessinent un même mouvement : la relation de gestion privée reste fondée "
                "sur la confiance et le conseil, mais elle se vit désormais aussi en ligne, s'appuie sur une "
                "donnée structurée et s'inscrit dans un cadre réglementaire et de sécurité plus exigeant."
            ),
            _p(
                "Les établissements n'ont pas à tout transformer d'un coup. Ils ont en revanche intérêt à "
                "faire dès aujourd'hui quelques choix structurants : un espace client à leurs couleurs "
                "relié au CRM des conseillers, une donnée client partagée, une entrée en relation digitale "
                "conçue avec la conformité, des exigences de sécurité clairement posées, une plateforme "
                "ouverte aux partenaires."
            ),
            _box(
                "Trois questions pour votre prochain comité de direction",
                "Quelle expérience un client vit-il aujourd'hui entre deux rendez-vous ?",
                "Quelles données client sont partagées entre conseillers, middle office et conformité, et "
                "lesquelles ne le sont pas ?",
                "Quel chantier digital apporterait le bénéfice le plus visible à nos clients dans les douze "
                "prochains mois ?",
            ),
        ),
        _ABOUT,
    ],
}

# --------------------------------------------------------------------------- client-portal documentation

PORTAL_DOCUMENTATION = {
    "file": "documentation-portail-client.pdf",
    "display_name": f"{B} - Documentation portail client.pdf",
    "label": "Documentation",
    "title": "Portail client pour la banque privée",
    "subtitle": (
        f"Le portail {B} en marque blanche : parcours client, reporting, documents, contenus ciblés, "
        "messagerie, sécurité et personnalisation"
    ),
    "sections": [
        _section(
            "Le portail en bref",
            _lead(
                f"Le portail client {B} offre à vos clients un espace sécurisé, à vos couleurs, pour suivre "
                "leur patrimoine, retrouver leurs documents et échanger avec leur conseiller, sur "
                "ordinateur comme sur mobile."
            ),
            _p(
                "Ce document présente le portail tel que le découvrent vos clients et tel que l'utilisent "
                "vos conseillers. Il s'adresse aux directions de la banque privée, aux directions digitales "
                "et de l'innovation, aux responsables de la sécurité des systèmes d'information, ainsi "
                "qu'aux sociétés de gestion et aux family offices qui souhaitent l'évaluer et préparer son "
                "déploiement."
            ),
            _h("Les principes du portail"),
            _ul(
                (
                    "La marque blanche",
                    "le client se connecte à l'espace de votre établissement, à vos couleurs, et non à un "
                    "outil tiers.",
                ),
                (
                    "Un outil commun au client et au conseiller",
                    f"dans les offres Interact et Complete, le portail et le CRM {B} partagent les mêmes "
                    "données : ce que le client consulte ou envoie apparaît dans sa fiche, ce que le "
                    "conseiller publie apparaît dans l'espace du client.",
                ),
                (
                    "La sécurité par défaut",
                    "authentification à deux facteurs, détection des intrusions et échanges chiffrés "
                    "s'appliquent à tous les utilisateurs.",
                ),
                (
                    "Tous les écrans",
                    "le portail s'adapte à l'ordinateur, à la tablette et au mobile ; une application "
                    "mobile à vos couleurs est disponible en option.",
                ),
            ),
        ),
        _section(
            "Le parcours de vos clients",
            _lead(
                "De la première connexion au suivi quotidien de leur patrimoine, le parcours est pensé pour "
                "être simple, sans rien céder sur la sécurité."
            ),
            _h("1. L'invitation"),
            _p(
                "Le conseiller ou le middle office ouvre l'accès depuis la fiche client. Le client reçoit un "
                "e-mail d'invitation à l'en-tête de votre établissement, qui le guide vers la création de "
                "son mot de passe."
            ),
            _h("2. La première connexion"),
            _p(
                "Le client choisit son mot de passe, puis enregistre son second facteur d'authentification. "
                "Il prend connaissance des conditions d'utilisation du portail, dont vous définissez le "
                "contenu, et découvre son tableau de bord."
            ),
            _h("3. Le tableau de bord"),
            _p(
                "La page d'accueil résume l'essentiel : valorisation globale et évolution récente, derniers "
                "documents déposés, messages non lus, prochains rendez-vous et contenus sélectionnés pour "
                "lui par son conseiller."
            ),
            _h("4. Le suivi au quotidien"),
            _p(
                "Le client consulte son reporting, télécharge ses documents, lit les analyses publiées et "
                "écrit à son conseiller. Il est prévenu par e-mail lorsqu'un nouveau document ou un nouveau "
                "message l'attend ; cet e-mail ne contient aucune information patrimoniale, seulement une "
                "invitation à se connecter."
            ),
            _p(
                "Le client peut aussi répondre depuis son espace aux demandes de son conseiller, par exemple "
                "lors de la mise à jour périodique de sa connaissance client dans l'offre Complete."
            ),
        ),
        _section(
            "Le reporting digital des portefeuilles",
            _lead(
                "Vos clients suivent leurs portefeuilles en ligne, sans attendre le relevé trimestriel, "
                "avec une présentation à la hauteur de l'exigence de votre maison."
            ),
            _h("Ce que voit le client"),
            _ul(
                (
                    "Valorisation",
                    "la valeur de chaque portefeuille et du patrimoine consolidé, avec la date des dernières "
                    "données reçues.",
                ),
                (
                    "Performance",
                    "l'évolution sur les périodes usuelles (depuis le début de l'année, sur douze mois, "
                    "depuis l'origine), en pourcentage et en montant.",
                ),
                (
                    "Allocation",
                    "la répartition par classe d'actifs, par devise et par zone géographique, comparée le "
                    "cas échéant à l'allocation cible du mandat.",
                ),
                (
                    "Positions et mouvements",
                    "le détail des lignes détenues et l'historique des opérations : achats, ventes, "
                    "versements, retraits, coupons et frais.",
                ),
            ),
            _h("D'où viennent les données"),
            _p(
                "Le reporting est alimenté par les données de vos systèmes de tenue de compte ou de vos "
                "dépositaires, par échange de fichiers ou par interface selon votre architecture. La "
                "fréquence de mise à jour suit celle de vos flux, et la date de valorisation est toujours "
                "affichée : aucun client ne confond une valeur de la veille avec une valeur en temps réel."
            ),
            _p(
                "Les avoirs détenus dans d'autres établissements peuvent s'ajouter à cette vision grâce à "
                "l'option d'agrégation de comptes externes, présentée plus loin."
            ),
            _h("Les rapports périodiques"),
            _p(
                "Les relevés et rapports que vous produisez (relevés trimestriels, rapports annuels, "
                "comptes rendus de gestion sous mandat) sont déposés dans l'espace documentaire du client, "
                "qui est prévenu de leur mise à disposition. Avec l'option de reporting de portefeuille et "
                "de génération de rapports clients du CRM, le conseiller produit lui-même des rapports à "
                "partir des mêmes données."
            ),
        ),
        _section(
            "Le partage de documents",
            _lead(
                "Relevés, rapports, contrats et justificatifs sont déposés et classés dans un espace "
                "documentaire commun au client et à son conseiller."
            ),
            _ul(
                (
                    "Un classement clair",
                    "les documents sont rangés dans les catégories que vous définissez : relevés et "
                    "rapports, contrats et conventions, documents fiscaux, justificatifs, correspondance.",
                ),
                (
                    "Dans les deux sens",
                    "le conseiller dépose un document pour son client ; le client transmet un justificatif "
                    "ou un document signé depuis son espace, sans passer par l'e-mail.",
                ),
                (
                    "Des notifications",
                    "le client est prévenu du dépôt d'un nouveau document ; le conseiller est prévenu de "
                    "l'arrivée d'une pièce, qui apparaît aussi dans sa to-do list.",
                ),
                (
                    "Une trace de chaque action",
                    "dépôts, consultations et téléchargements sont horodatés et visibles dans l'historique "
                    "de la fiche client.",
                ),
            ),
            _p(
                "Les durées de conservation se paramètrent selon votre politique d'archivage et vos "
                "obligations réglementaires. Le portail met les documents à disposition de vos clients ; il "
                "ne remplace pas votre système d'archivage à valeur probante lorsque celui-ci est requis."
            ),
        ),
        _section(
            "Les contenus ciblés et le score de correspondance",
            _lead(
                "Publiez analyses de marché, lettres d'information et offres : un score de correspondance "
                "rapproche chaque contenu des clients dont le profil et les projets s'y prêtent le mieux."
            ),
            _h("Publier un contenu"),
            _p(
                "Le contenu est rédigé dans le portail ou joint sous forme de document, puis décrit par des "
                "critères : thèmes (marchés, transmission, immobilier, retraite, fiscalité, investissement "
                "responsable…), profils de risque, segments de clientèle et projets concernés. Il peut être "
                "soumis à la validation de la conformité avant sa publication."
            ),
            _h("Calculer le score"),
            _p(
                "Pour chaque client, le score de correspondance exprime, sur une échelle de 0 à 100, la "
                "proximité entre les critères du contenu et les informations de la fiche client : profil "
                "de risque, segment, objectifs et projets déclarés, centres d'intérêt, contenus déjà lus. "
                "Le calcul repose sur des règles explicites et paramétrables : vous savez toujours pourquoi "
                "un contenu est proposé à un client."
            ),
            _h("Diffuser et suivre"),
            _ul(
                "Le conseiller voit les clients qui obtiennent le meilleur score et choisit ceux auprès "
                "desquels mettre le contenu en avant.",
                "Le client retrouve les contenus sélectionnés pour lui sur son tableau de bord.",
                "La lecture d'un contenu remonte dans le CRM sous la forme d'une alerte de la catégorie "
                "« articles et contenus » : c'est le moment d'en parler avec le client.",
            ),
            _p(
                "Les communications à caractère promotionnel doivent rester claires, exactes et non "
                "trompeuses ; le circuit de validation permet à votre conformité de s'en assurer avant "
                "diffusion. Lorsqu'un échange débouche sur une recommandation personnalisée, celle-ci suit "
                "votre processus de conseil habituel."
            ),
        ),
        _section(
            "La messagerie sécurisée et les rendez-vous",
            _lead(
                "Le portail devient le canal naturel entre vos clients et leur conseiller, à la place des "
                "e-mails dispersés."
            ),
            _ul(
                (
                    "Des conversations protégées",
                    "le client écrit à son conseiller depuis son espace ; les messages et les pièces "
                    "jointes restent dans le portail, à l'abri des messageries personnelles.",
                ),
                (
                    "Un historique rattaché au client",
                    "chaque échange est conservé, horodaté et visible dans la fiche client ; en cas "
                    "d'absence, un collègue autorisé reprend le fil sans perte d'information.",
                ),
                (
                    "Des propositions de rendez-vous",
                    "depuis la conversation, le conseiller propose plusieurs créneaux tirés de son agenda ; "
                    "le client choisit celui qui lui convient, sans aller-retour.",
                ),
                (
                    "Un agenda à jour",
                    "le rendez-vous confirmé s'inscrit dans l'agenda du conseiller, synchronisé dans les "
                    "deux sens avec Google Agenda ou Outlook.",
                ),
            ),
            _p(
                "Les règles d'usage de la messagerie restent les vôtres : vous pouvez par exemple rappeler "
                "aux clients qu'elle ne sert pas à transmettre des ordres lorsque vos procédures le "
                "prévoient."
            ),
        ),
        _section(
            "La sécurité",
            _lead(
                "Des données patrimoniales exigent une protection sans compromis, sans compliquer la vie de "
                "vos clients."
            ),
            _h("Authentification à deux facteurs"),
            _p(
                "Chaque connexion est confirmée par un second facteur en plus du mot de passe : un mot de "
                "passe dérobé ne suffit pas pour accéder au compte d'un client. La même exigence s'applique "
                "aux conseillers et aux équipes de l'établissement."
            ),
            _h("Détection des intrusions"),
            _p(
                "Les tentatives d'accès anormales (échecs de connexion répétés, connexion depuis un appareil "
                "ou un lieu inhabituel) sont repérées et signalées. Selon leur gravité, le compte est "
                "temporairement bloqué et l'établissement est prévenu, pour réagir avant qu'une tentative "
                "ne devienne un incident."
            ),
            _h("Protection des données"),
            _ul(
                "Échanges chiffrés entre le navigateur ou l'application et la plateforme, données chiffrées "
                "au repos.",
                "Hébergement chez un fournisseur cloud au Luxembourg, au sein de l'Union européenne.",
                "Droits d'accès par rôle : un client ne voit que ses propres données ; un conseiller ne voit "
                "que les clients que l'établissement lui attribue.",
                "Journalisation des connexions et des actions sensibles, consultable par les "
                "administrateurs de l'établissement.",
                "Expiration automatique des sessions inactives.",
            ),
            _p(
                "Au sens du RGPD, votre établissement reste responsable du traitement des données de ses "
                f"clients ; {LEGAL_NAME} intervient en qualité de sous-traitant, dans le cadre d'un contrat "
                "conforme à l'article 28 du règlement. Une documentation de sécurité détaillée est remise à "
                "vos équipes sur demande, lors de l'instruction de votre projet."
            ),
        ),
        _section(
            "Personnalisation, options et déploiement",
            _h("À vos couleurs"),
            _ul(
                "Logo, couleurs et typographie de votre établissement.",
                "E-mails d'invitation et de notification à votre en-tête.",
                "Conditions d'utilisation et mentions propres à votre établissement.",
                "Catégories de documents et critères de contenus adaptés à votre offre.",
            ),
            _h("Les options"),
            _ul(
                (
                    "Application mobile",
                    "une application à vos couleurs, qui reprend les fonctions essentielles du portail.",
                ),
                (
                    "Agrégation de comptes externes",
                    "avec l'accord du client, les comptes qu'il détient dans d'autres établissements sont "
                    "agrégés par un partenaire spécialisé et intégrés à sa vision consolidée.",
                ),
            ),
            _h("Dans quelles offres"),
            _ul(
                ("Engage", "le portail client premium en marque blanche ;"),
                (
                    "Interact",
                    "le portail et le CRM du conseiller réunis : chaque échange côté client enrichit la "
                    "fiche 360° ;",
                ),
                ("Complete", "Interact complété par l'onboarding KYC et les contrôles de conformité."),
            ),
            _h("Le déploiement"),
            _ul(
                (
                    "Cadrage",
                    "périmètre, sources de données, rôles et règles d'accès, avec vos équipes métier, "
                    "digitales et sécurité.",
                ),
                ("Paramétrage", "charte graphique, catégories de documents, critères des contenus, modèles d'e-mails."),
                ("Reprise des données", "import des clients, des portefeuilles et des documents existants."),
                ("Recette et pilote", "validation par vos équipes, puis ouverture à un premier groupe de clients."),
                ("Généralisation", "invitation progressive de l'ensemble de la clientèle, avec nos équipes à vos côtés."),
            ),
        ),
        _section(
            "Questions fréquentes",
            _h("Vos clients doivent-ils installer quelque chose ?"),
            _p(
                "Non : le portail s'ouvre dans un navigateur récent, sur ordinateur, tablette ou mobile. "
                "Seul le second facteur d'authentification peut demander un téléphone ou une application, "
                "selon la méthode retenue avec vous."
            ),
            _h("Un client peut-il transmettre des ordres par le portail ?"),
            _p(
                "Le portail est conçu pour l'information, le partage de documents et l'échange avec le "
                "conseiller. Les modalités de transmission des ordres restent celles que prévoient vos "
                "procédures et vos conventions avec vos clients."
            ),
            _h("Peut-on ouvrir le portail progressivement ?"),
            _p(
                "Oui : les invitations s'envoient client par client ou par groupe, ce qui permet de "
                "commencer par un pilote avant d'étendre l'accès à toute la clientèle."
            ),
            _h("Que se passe-t-il si un client perd son second facteur ?"),
            _p(
                "La réinitialisation suit une procédure de vérification d'identité définie avec vous ; "
                "elle ne s'obtient pas par un simple e-mail."
            ),
            _p(
                "Pour découvrir le portail comme vos clients le verront, réservez une démonstration de "
                "trente minutes avec un consultant, ou démarrez un essai gratuit de 30 jours sur des "
                "données de démonstration."
            ),
        ),
    ],
}

# --------------------------------------------------------------------------- KYC documentation

KYC_DOCUMENTATION = {
    "file": "documentation-kyc.pdf",
    "display_name": f"{B} - Documentation KYC.pdf",
    "label": "Documentation",
    "title": "KYC et entrée en relation digitale",
    "subtitle": (
        f"Le module de conformité {B}, de la checklist documentaire à la mise à jour des profils clients"
    ),
    "sections": [
        _section(
            "Le module de conformité en bref",
            _lead(
                f"Le module de conformité {B} digitalise la connaissance client, de l'entrée en relation à "
                "la mise à jour des profils : collecte des pièces, questionnaires KYC, contrôles et suivi "
                "des anomalies, dans un parcours tracé de bout en bout."
            ),
            _p(
                "Ce document s'adresse aux directions de la conformité et aux RCCI, aux responsables middle "
                "office et back office, aux banquiers privés et aux conseillers en gestion de patrimoine, "
                "ainsi qu'aux dirigeants de family offices et de sociétés de gestion."
            ),
            _h("Le cadre réglementaire"),
            _p(
                "L'entrée en relation et le suivi de la relation répondent à plusieurs corps de règles, que "
                "le module aide à appliquer sans s'y substituer :"
            ),
            _ul(
                (
                    "LCB-FT",
                    "obligations de vigilance prévues par le Code monétaire et financier (articles L.561-1 "
                    "et suivants) : identification du client et, le cas échéant, de son bénéficiaire "
                    "effectif, vérification de leur identité, informations sur l'objet et la nature de la "
                    "relation d'affaires, vigilance constante adaptée au niveau de risque, respect des "
                    "mesures de gel des avoirs.",
                ),
                (
                    "MIF 2",
                    "évaluation de l'adéquation pour le conseil en investissement et la gestion de "
                    "portefeuille (connaissances et expérience, situation financière dont la capacité à "
                    "subir des pertes, objectifs d'investissement dont la tolérance au risque, préférences "
                    "en matière de durabilité), et évaluation du caractère approprié, fondée sur les "
                    "connaissances et l'expérience, pour les autres services.",
                ),
                (
                    "DDA",
                    "pour la distribution d'assurance, recueil des exigences et des besoins du client et, "
                    "pour les produits d'investissement fondés sur l'assurance, évaluation de l'adéquation "
                    "ou du caractère approprié.",
                ),
                (
                    "RGPD",
                    "limitation des données collectées à ce qui est nécessaire, information des personnes, "
                    "durées de conservation définies.",
                ),
            ),
            _p(
                "Les décisions restent celles de votre établissement : acceptation d'un client, "
                "classification de son niveau de risque, mesures de vigilance renforcée, déclaration à "
                "Tracfin le cas échéant. Le module apporte la collecte, les contrôles et la traçabilité qui "
                "éclairent et documentent ces décisions."
            ),
        ),
        _section(
            "Les checklists documentaires",
            _lead(
                "Définissez les pièces attendues pour chaque type de client ; la checklist est envoyée par "
                "e-mail au client, qui dépose ses justificatifs en ligne."
            ),
            _h("Une checklist par typologie de client"),
            _p(
                "Chaque checklist est un modèle que votre conformité définit et fait évoluer sans "
                "développement. Le modèle précise les pièces attendues, leur caractère obligatoire ou "
                "conditionnel, leur durée de validité et les contrôles à appliquer. Par exemple, selon "
                "votre politique :"
            ),
            _ul(
                (
                    "Personne physique",
                    "pièce d'identité en cours de validité, justificatif de domicile récent, justificatifs "
                    "de revenus et de patrimoine, justificatif de l'origine des fonds au-delà d'un seuil que "
                    "vous fixez.",
                ),
                (
                    "Personne morale",
                    "extrait d'immatriculation récent, statuts à jour, identification des bénéficiaires "
                    "effectifs, pièce d'identité du représentant légal, derniers comptes annuels.",
                ),
                (
                    "Indivision ou compte joint",
                    "les pièces de chaque cotitulaire et, le cas échéant, l'acte ou la convention qui "
                    "organise la détention.",
                ),
                ("Client non résident", "pièces complémentaires liées à sa résidence et à sa situation fiscale."),
            ),
            _h("L'envoi au client"),
            _p(
                "Le conseiller choisit le modèle adapté depuis la fiche client. Le client reçoit un e-mail "
                "à l'en-tête de votre établissement, avec un lien vers son espace sécurisé, où il dépose ses "
                "pièces depuis son ordinateur ou son téléphone."
            ),
            _h("Le suivi pièce par pièce"),
            _ul(
                (
                    "Statut",
                    "chaque pièce est attendue, reçue, validée ou refusée ; le motif d'un refus est "
                    "communiqué au client.",
                ),
                (
                    "Échéances",
                    "les dates de validité sont enregistrées : une pièce d'identité qui arrive à expiration "
                    "déclenche une alerte de conformité avant son échéance.",
                ),
                (
                    "Relances",
                    "les relances automatiques se paramètrent (fréquence, nombre, message) et s'arrêtent dès "
                    "que le dossier est complet.",
                ),
                ("Avancement", "le conseiller et la conformité voient en un coup d'œil où en est chaque dossier."),
            ),
        ),
        _section(
            "Les questionnaires KYC personnalisables",
            _lead(
                "Adaptez les questions, les réponses attendues et leur enchaînement à votre politique de "
                "connaissance client et à vos typologies de clientèle."
            ),
            _h("Les rubriques"),
            _p(
                "Un questionnaire se compose de rubriques que vous activez, ordonnez et complétez selon vos "
                "besoins :"
            ),
            _ul(
                "Identité, situation familiale et régime matrimonial",
                "Situation professionnelle et sources de revenus",
                "Patrimoine : composition, montant estimé, charges et endettement",
                "Origine des fonds confiés et origine du patrimoine",
                "Objectifs d'investissement, horizon de placement et besoins de liquidité",
                "Connaissances et expérience en matière d'instruments financiers",
                "Capacité à subir des pertes et tolérance au risque",
                "Préférences en matière de durabilité",
                "Exigences et besoins en matière d'assurance",
                "Qualité de personne politiquement exposée, pour le client et ses proches",
            ),
            _h("Les mécanismes"),
            _ul(
                ("Types de questions", "choix unique ou multiple, montants, dates, texte libre, pièce jointe."),
                (
                    "Questions conditionnelles",
                    "une réponse ouvre ou masque les questions suivantes : un client qui se déclare "
                    "dirigeant d'entreprise voit les questions relatives à sa société.",
                ),
                (
                    "Calcul du profil",
                    "les réponses pondérées produisent un profil investisseur selon la grille de votre "
                    "établissement ; toute dérogation décidée par le conseiller est justifiée et tracée.",
                ),
                (
                    "Versions",
                    "chaque modification d'un questionnaire en crée une nouvelle version ; les réponses d'un "
                    "client restent rattachées à la version à laquelle il a répondu.",
                ),
                (
                    "Archivage",
                    "le questionnaire complété est conservé dans le dossier du client, avec sa date et son "
                    "mode de validation.",
                ),
            ),
            _p(
                "Le questionnaire peut être rempli par le client en autonomie depuis son espace, ou avec son "
                "conseiller lors d'un rendez-vous. Le contenu des questions et la grille de profil relèvent "
                "de votre politique : nos équipes vous aident à les paramétrer, votre conformité les valide."
            ),
        ),
        _section(
            "Les contrôles de conformité et le traitement des anomalies",
            _lead(
                "Vos équipes conformité vérifient en un coup d'œil la complétude et la cohérence de chaque "
                "dossier ; chaque anomalie remonte en alerte au bon interlocuteur."
            ),
            _h("Les contrôles automatiques"),
            _ul(
                ("Complétude", "pièce manquante, question sans réponse, signature attendue."),
                (
                    "Validité",
                    "pièce expirée ou sur le point de l'être, questionnaire dont la date de renouvellement "
                    "est dépassée.",
                ),
                (
                    "Cohérence",
                    "réponses contradictoires entre elles ou avec les pièces fournies : par exemple un "
                    "montant investi sans rapport avec le patrimoine déclaré, ou une expérience déclarée "
                    "incompatible avec les connaissances indiquées.",
                ),
                (
                    "Indicateurs de risque",
                    "réponses qui appellent une vigilance particulière selon vos règles : personne "
                    "politiquement exposée, pays à risque, structure de détention complexe.",
                ),
            ),
            _h("Le circuit de validation"),
            _p(
                "Chaque dossier suit le circuit que vous définissez, par exemple une première revue par le "
                "middle office puis une validation par la conformité pour les dossiers à risque élevé. Le "
                "principe des quatre yeux peut être imposé : la personne qui a constitué un dossier ne peut "
                "pas le valider seule."
            ),
            _h("Le traitement des anomalies"),
            _ul(
                "Chaque anomalie est signalée dans le dossier et confiée à un responsable : le conseiller "
                "pour une pièce à obtenir, la conformité pour un point à analyser.",
                "Elle apparaît dans la to-do list de la personne concernée et parmi les alertes de "
                "conformité du CRM.",
                "Sa résolution est documentée : pièce obtenue, explication recueillie ou dérogation motivée "
                "et validée.",
                "Un tableau de bord recense les dossiers en cours, les anomalies ouvertes et leur ancienneté.",
            ),
            _p(
                "Chaque action est horodatée et attribuée à son auteur. En cas de contrôle interne ou "
                "externe, l'historique complet d'un dossier est consultable et exportable."
            ),
        ),
        _section(
            "La mise à jour périodique des profils",
            _lead(
                "Invitez les clients dont le profil arrive à échéance à confirmer ou modifier leurs "
                "informations ; l'historique des versions est conservé."
            ),
            _p(
                "La connaissance client doit être tenue à jour pendant toute la durée de la relation. Le "
                "module planifie ces mises à jour selon votre politique, par exemple à une fréquence "
                "d'autant plus rapprochée que le niveau de risque du client est élevé."
            ),
            _ul(
                (
                    "Campagnes planifiées",
                    "les clients concernés sont identifiés automatiquement et invités, par e-mail et dans "
                    "leur espace, à revoir leurs informations.",
                ),
                (
                    "Confirmation ou modification",
                    "le client confirme les informations inchangées et modifie les autres ; seules les "
                    "pièces à renouveler lui sont demandées.",
                ),
                (
                    "Mises à jour événementielles",
                    "un changement de situation signalé par le client ou constaté par le conseiller "
                    "(mariage, cession d'entreprise, changement de résidence) déclenche une révision ciblée.",
                ),
                (
                    "Historique",
                    "chaque version du profil est conservée ; le conseiller compare deux versions et voit ce "
                    "qui a changé.",
                ),
                (
                    "Suivi",
                    "un tableau de bord distingue les profils à jour, en cours de révision et échus, par "
                    "conseiller et par niveau de risque.",
                ),
            ),
        ),
        _section(
            "Les options proposées avec nos partenaires",
            _h("Signature électronique"),
            _p(
                "Grâce à l'intégration de prestataires de services de confiance partenaires, conventions "
                "d'ouverture, mandats de gestion, lettres de mission, déclarations d'adéquation et autres "
                "documents réglementaires sont signés à distance. Le niveau de signature (simple, avancée "
                "ou qualifiée au sens du règlement européen eIDAS) se choisit avec vous selon la nature des "
                "documents et votre analyse de risque. Le document signé et son dossier de preuve sont "
                "conservés dans le dossier du client."
            ),
            _h("Filtrage anti-blanchiment automatisé"),
            _p(
                "Le criblage de vos clients et, le cas échéant, de leurs bénéficiaires effectifs sur les "
                "listes de sanctions et de gel des avoirs et sur les bases de personnes politiquement "
                "exposées est automatisé avec nos partenaires spécialisés :"
            ),
            _ul(
                "à l'entrée en relation, avant la validation du dossier ;",
                "dans la durée, lorsque les listes évoluent ou que les informations du client changent ;",
                "chaque correspondance potentielle est présentée à votre équipe conformité, qui l'analyse et "
                "la qualifie (homonymie ou correspondance avérée) ; la décision et sa justification sont "
                "tracées.",
            ),
            _p(
                "Le filtrage automatisé aide à détecter ; il ne remplace pas l'analyse de vos équipes, qui "
                "restent seules juges des suites à donner."
            ),
            _h("Trois vues sur un même dossier"),
            _p("Le module présente à chaque acteur la vue dont il a besoin, sur un dossier unique :"),
            _ul(
                (
                    "Le client",
                    "sa checklist avec les pièces attendues et leur statut, les questionnaires à compléter, "
                    "les documents à signer, et une explication claire lorsqu'une pièce est refusée.",
                ),
                (
                    "Le conseiller",
                    "l'avancement de chaque dossier dans la fiche client 360°, les relances à faire dans sa "
                    "to-do list, les alertes de conformité qui le concernent.",
                ),
                (
                    "L'équipe conformité",
                    "la file des dossiers à valider, les anomalies ouvertes, les correspondances de filtrage "
                    "à analyser, les profils échus et l'historique complet de chaque dossier.",
                ),
            ),
        ),
        _section(
            "Le module dans nos offres et son déploiement",
            _p(
                "Le module de conformité fait partie de l'offre Complete, qui réunit le portail client "
                "(Engage), le CRM du conseiller (Manage) et l'onboarding KYC. Complete est proposée sur "
                "devis, selon vos volumes d'utilisateurs et de clients et les options retenues : agrégation "
                "de comptes externes, optimisation de portefeuille, contrôles automatisés KYC-LAB, ainsi "
                "que la signature électronique et le filtrage anti-blanchiment avec nos partenaires."
            ),
            _h("Les étapes du déploiement"),
            _ul(
                (
                    "Cadrage avec votre conformité",
                    "typologies de clients, pièces attendues, grille de profil, règles de contrôle et "
                    "circuit de validation.",
                ),
                ("Paramétrage", "checklists, questionnaires, relances et modèles d'e-mails à votre en-tête."),
                (
                    "Reprise de l'existant",
                    "import des clients et de leurs pièces avec leurs dates de validité, pour lancer les "
                    "premières campagnes de mise à jour.",
                ),
                ("Recette", "vos équipes déroulent des entrées en relation types et valident les contrôles."),
                (
                    "Mise en service",
                    "formation des conseillers, du middle office et de la conformité, puis ouverture "
                    "progressive.",
                ),
            ),
        ),
        _section(
            "Questions fréquentes",
            _h("Pouvons-nous reprendre nos questionnaires et nos checklists actuels ?"),
            _p(
                "Oui. Le paramétrage part de vos documents existants : vos questions, votre grille de "
                "profil et vos listes de pièces sont reproduites dans le module, puis simplifiées si vous le "
                "souhaitez, avec l'accord de votre conformité."
            ),
            _h("Le module remplace-t-il notre outil de filtrage ou notre prestataire de signature ?"),
            _p(
                "Non. Le filtrage anti-blanchiment et la signature électronique sont des options assurées "
                "avec des partenaires spécialisés. Si vous travaillez déjà avec un prestataire, "
                "l'opportunité d'une intégration s'étudie lors du cadrage."
            ),
            _h("Où sont conservées les pièces et les réponses des clients ?"),
            _p(
                "Dans le dossier du client, sur une plateforme hébergée au Luxembourg, au sein de l'Union "
                "européenne. Les durées de conservation se paramètrent selon vos obligations, par exemple "
                "cinq ans à compter de la fin de la relation d'affaires pour les documents relevant de la "
                "LCB-FT."
            ),
            _h("Le module convient-il à un cabinet de conseil indépendant ?"),
            _p(
                "Oui : checklists et questionnaires s'adaptent à la taille de la structure. Un cabinet de "
                "conseil en gestion de patrimoine peut s'en tenir à un paramétrage simple, une banque "
                "privée mettre en place des circuits de validation à plusieurs niveaux."
            ),
            _p(
                "Pour voir une entrée en relation de bout en bout, de la checklist aux contrôles, réservez "
                "une démonstration de trente minutes avec un consultant."
            ),
        ),
    ],
}

# --------------------------------------------------------------------------- digital subscription journey

SUBSCRIPTION_DOCUMENTATION = {
    "file": "parcours-souscription-digitale.pdf",
    "display_name": f"{B} - Parcours de souscription digitale.pdf",
    "label": "Documentation",
    "title": "Le parcours de souscription digitale",
    "subtitle": (
        "La souscription de produits financiers pas à pas, telle que la vivent l'investisseur, le "
        "conseiller et l'équipe conformité"
    ),
    "sections": [
        _section(
            "La souscription digitale en bref",
            _lead(
                f"{B} accompagne les distributeurs de produits financiers : questionnaire KYC en ligne, "
                "parcours de souscription sans papier et suivi de conformité, de la proposition à la "
                "validation du dossier."
            ),
            _p(
                "Une souscription mobilise trois acteurs : l'investisseur, qui doit comprendre ce qu'il "
                "souscrit et fournir les informations demandées ; le conseiller, qui recommande et "
                "accompagne ; l'équipe conformité, qui s'assure que le dossier est complet et cohérent "
                "avant sa transmission. Sur papier, chaque aller-retour coûte des jours. Ce document décrit "
                "le parcours digital tel que chacun le vit."
            ),
            _h("Pour quels distributeurs et quels produits"),
            _p(
                "La solution est conçue pour les conseillers en gestion de patrimoine indépendants, les "
                "banques, les banques privées et les sociétés de gestion, y compris celles qui distribuent "
                "leurs fonds par l'intermédiaire de partenaires. Elle s'adapte à votre réseau et à vos "
                "produits : parts d'OPC, de SCPI ou de fonds de capital-investissement, contrats "
                "d'assurance-vie ou de capitalisation, produits structurés."
            ),
            _h("Six briques"),
            _ul(
                ("Questionnaire KYC en ligne", "la connaissance client et le profil investisseur, adaptés au produit ;"),
                ("Parcours de souscription digital", "du choix du produit à la signature, sans papier ;"),
                ("Workflow de suivi de conformité", "un circuit de validation défini, avec un statut à chaque étape ;"),
                ("Alertes d'incomplétude et d'incohérence", "les anomalies repérées avant la transmission ;"),
                ("Tableaux de bord commerciaux", "la collecte et les dossiers en cours, par réseau, produit et conseiller ;"),
                ("Portail distributeur", "un espace dédié à vos distributeurs partenaires."),
            ),
        ),
        _section(
            "Le questionnaire KYC en ligne et le profil investisseur",
            _lead(
                "L'investisseur complète sa connaissance client et son profil en ligne, avec des questions "
                "adaptées au produit souscrit."
            ),
            _p(
                "Le questionnaire réunit les informations nécessaires à la connaissance client au titre de "
                "la LCB-FT, à l'évaluation de l'adéquation ou du caractère approprié au titre de MIF 2 et, "
                "pour les contrats d'assurance, au recueil des exigences et des besoins au titre de la DDA. "
                "Les questions s'adaptent au produit : une souscription de parts d'un fonds de "
                "capital-investissement peu liquide appelle par exemple des questions approfondies sur "
                "l'horizon de placement, les besoins de liquidité et la part du patrimoine investie."
            ),
            _h("Le profil investisseur"),
            _ul(
                (
                    "Calculé",
                    "les réponses produisent un profil selon la grille de votre établissement : "
                    "connaissances et expérience, capacité à subir des pertes, tolérance au risque, "
                    "objectifs et horizon de placement.",
                ),
                (
                    "Réutilisé",
                    "un investisseur déjà connu ne ressaisit pas ses informations : il confirme ce qui n'a "
                    "pas changé et complète ce qui manque.",
                ),
                (
                    "Daté",
                    "le profil porte sa date de validité ; un profil échu doit être mis à jour avant toute "
                    "nouvelle souscription.",
                ),
                (
                    "Complet",
                    "les préférences en matière de durabilité sont recueillies et rapprochées des "
                    "caractéristiques des produits proposés.",
                ),
            ),
            _p(
                "Le questionnaire se remplit en autonomie depuis l'espace de l'investisseur ou avec le "
                "conseiller en rendez-vous. Les questions et la grille de profil sont celles que votre "
                "conformité a validées."
            ),
        ),
        _section(
            "Les étapes du parcours de souscription",
            _lead(
                "Du choix du produit à la signature, un parcours guidé sur ordinateur, tablette ou mobile, "
                "sans impression ni envoi postal."
            ),
            _p(
                "Le parcours se déroule en quatre étapes. Il peut être lancé par le conseiller en "
                "rendez-vous puis poursuivi par l'investisseur depuis chez lui, ou l'inverse : l'avancement "
                "est enregistré à chaque étape."
            ),
            _h("Étape 1 : le profil"),
            _p(
                "L'investisseur complète ou met à jour son questionnaire KYC et fournit les pièces "
                "demandées : pièce d'identité, justificatif de domicile et, selon les seuils que vous fixez, "
                "justificatif de l'origine des fonds."
            ),
            _h("Étape 2 : le produit et le montant"),
            _p(
                "Le conseiller sélectionne le produit dans votre catalogue et renseigne le montant, le mode "
                "de versement et, le cas échéant, la répartition entre supports. Le parcours vérifie la "
                "cohérence du choix avec le profil : un produit dont le niveau de risque dépasse la "
                "tolérance déclarée, ou un montant hors de proportion avec le patrimoine déclaré, déclenche "
                "une alerte avant de poursuivre."
            ),
            _h("Étape 3 : les documents"),
            _p(
                "L'investisseur reçoit les documents réglementaires du produit (document d'informations "
                "clés, prospectus, notice ou statuts selon le produit) et, lorsqu'il est conseillé, la "
                "déclaration d'adéquation qui explique en quoi la recommandation correspond à sa situation. "
                "Le bulletin de souscription est prérempli à partir des informations déjà saisies : plus de "
                "ressaisie, moins d'erreurs. La mise à disposition de chaque document est horodatée."
            ),
            _h("Étape 4 : la signature"),
            _p(
                "L'investisseur signe électroniquement le bulletin et les documents associés, grâce à "
                "l'intégration de nos partenaires de signature électronique. Le dossier complet, signé et "
                "horodaté, part alors en contrôle de conformité."
            ),
            _p(
                "Le règlement des fonds et l'enregistrement de la souscription auprès de la société de "
                "gestion, du dépositaire ou de l'assureur suivent les circuits propres à chaque produit ; "
                "le dossier validé leur est transmis sous la forme que vous définissez."
            ),
        ),
        _section(
            "Le workflow de suivi de conformité",
            _lead(
                "Chaque dossier suit un circuit de validation défini, du conseiller à la conformité, avec un "
                "statut visible à chaque étape."
            ),
            _h("Les statuts d'un dossier"),
            _ul(
                ("En cours", "le parcours est commencé ; l'investisseur ou le conseiller le complète."),
                ("Soumis", "le dossier est signé et transmis à la conformité."),
                (
                    "À compléter",
                    "la conformité a relevé un manque ou une incohérence ; le conseiller est prévenu, avec "
                    "le motif.",
                ),
                ("Validé", "le dossier est conforme et prêt à être transmis."),
                ("Transmis", "le dossier a été envoyé à la société de gestion, au dépositaire ou à l'assureur."),
            ),
            _p(
                "Le circuit se paramètre selon vos règles : validation à un ou deux niveaux selon le "
                "montant, le produit ou le profil de l'investisseur, délégation pendant les absences, "
                "délais cibles de traitement. Chaque décision est horodatée et attribuée à son auteur, et le "
                "dossier garde l'historique complet des échanges entre le conseiller et la conformité."
            ),
        ),
        _section(
            "Les alertes d'incomplétude et d'incohérence",
            _lead(
                "Pièce manquante, réponse contradictoire ou montant hors profil : le dossier est signalé "
                "avant sa transmission, pas après."
            ),
            _h("Incomplétude"),
            _ul(
                "Pièce justificative manquante, illisible ou expirée",
                "Question obligatoire sans réponse",
                "Signature manquante sur un document du dossier",
                "Document réglementaire non remis à l'investisseur",
            ),
            _h("Incohérence"),
            _ul(
                "Montant souscrit hors de proportion avec le patrimoine ou les revenus déclarés",
                "Produit dont le niveau de risque excède la tolérance déclarée, ou dont la durée de "
                "placement recommandée dépasse l'horizon de l'investisseur",
                "Produit complexe proposé à un investisseur qui déclare ne pas en connaître le "
                "fonctionnement",
                "Réponses contradictoires entre le questionnaire et les pièces fournies, par exemple sur "
                "l'adresse ou la situation professionnelle",
            ),
            _p(
                "Les règles d'alerte se paramètrent avec votre conformité. Une alerte bloquante empêche la "
                "soumission du dossier ; une alerte d'information demande une justification du conseiller, "
                "conservée dans le dossier. Les alertes signalent les situations à examiner : la décision "
                "reste celle de vos équipes."
            ),
        ),
        _section(
            "Les tableaux de bord commerciaux et le portail distributeur",
            _h("Les tableaux de bord"),
            _p(
                "Suivez les souscriptions en cours, les montants collectés et les dossiers en attente, par "
                "réseau, par produit et par conseiller :"
            ),
            _ul(
                "collecte réalisée et en cours, par période, par produit et par réseau ;",
                "dossiers en attente et leur ancienneté, par statut ;",
                "part des dossiers complets dès la première soumission, pour repérer les besoins de "
                "formation ;",
                "délais entre le début du parcours, la signature et la validation.",
            ),
            _h("Le portail distributeur"),
            _p("Vos distributeurs partenaires disposent d'un espace dédié, à vos couleurs, pour :"),
            _ul(
                "lancer une souscription pour un investisseur et suivre son avancement ;",
                "consulter le statut de leurs dossiers et répondre aux demandes de la conformité ;",
                "accéder à la documentation produit à jour : documents d'informations clés, prospectus, "
                "supports commerciaux validés ;",
                "suivre leur propre activité dans un tableau de bord limité à leur périmètre.",
            ),
            _p(
                "Chaque distributeur ne voit que ses propres investisseurs et dossiers ; vos équipes "
                "conservent la vision d'ensemble du réseau."
            ),
            _h("Pour aller plus loin"),
            _p(
                "Pour dérouler un parcours de bout en bout, du questionnaire KYC à la validation du dossier, "
                "réservez une démonstration de trente minutes avec un consultant."
            ),
        ),
    ],
}

DOCUMENTS: dict[str, dict] = {
    "ebook": EBOOK,
    "white_paper": WHITE_PAPER,
    "portal_documentation": PORTAL_DOCUMENTATION,
    "kyc_documentation": KYC_DOCUMENTATION,
    "subscription_documentation": SUBSCRIPTION_DOCUMENTATION,
}


LANGS = ("fr", "en")


def documents_in(lang: str) -> dict[str, dict]:
    """The five documents in `lang` ("fr" or "en"), by key."""
    if lang == "en":
        # Imported here: the English module builds its documents with this module's helpers.
        from marketing_site.content.downloads_en import DOCUMENTS_EN

        return DOCUMENTS_EN
    return DOCUMENTS


def document_for(key: str, lang: str) -> dict:
    """The document `key` in the language of the page that offers it."""
    return documents_in(lang)[key]


def layout_words(lang: str) -> dict[str, str]:
    """The words the PDF layout adds around a document's text: cover tagline, contents heading."""
    if lang == "en":
        from marketing_site.content.downloads_en import CONTENTS_HEADING_EN, COVER_TAGLINE_EN

        return {"tagline": COVER_TAGLINE_EN, "contents": CONTENTS_HEADING_EN, "pdf_lang": "en-GB"}
    return {"tagline": COVER_TAGLINE, "contents": CONTENTS_HEADING, "pdf_lang": "fr-FR"}
