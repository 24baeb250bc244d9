"""Words of the general terms of sale (CGV).

The spec serves them in French on both sites (/cgv and /en/cgv show the French text), so
`EN` is the French text itself; the English page marks it `lang="fr"` and introduces it
with a note in English (`marketing_site.content.legal_document`).
"""

from marketing_site import routes
from marketing_site.brand import BRAND_NAME as B
from marketing_site.content import legal_entity

_fr = legal_entity.FR
EMAIL = {"label": "", "to": "email", "anchor": ""}
PRICING = {"label": "Nos offres & tarifs", "to": routes.PRICING, "anchor": ""}

FR = {
    "eyebrow": "Conditions contractuelles",
    "title": "Conditions générales de vente",
    "lead": (
        f"Les conditions applicables aux abonnements à la plateforme {B} souscrits par les "
        "professionnels de la gestion de patrimoine."
    ),
    "sections": [
        {
            "id": "objet",
            "title": "Objet et champ d'application",
            "blocks": [
                {
                    "text": (
                        "Les présentes conditions générales de vente (les « CGV ») régissent la fourniture, par "
                        f"{_fr['company']}, société par actions simplifiée au capital de {_fr['share_capital']}, "
                        f"dont le siège social est situé {_fr['head_office']}, immatriculée au {_fr['rcs']} "
                        f"(« {B} »), de sa plateforme logicielle accessible en ligne et des services associés."
                    )
                },
                {
                    "text": (
                        "Elles s'adressent exclusivement aux professionnels (établissements bancaires, "
                        "sociétés de gestion de portefeuille, conseillers en gestion de patrimoine, family "
                        "offices et autres intermédiaires financiers) agissant dans le cadre de leur activité "
                        "(le « Client »). Elles ne s'appliquent pas aux consommateurs."
                    )
                },
                {
                    "text": (
                        "Toute commande emporte l'acceptation sans réserve des CGV, qui prévalent sur les "
                        "conditions d'achat du Client, sauf accord écrit contraire. Les documents contractuels "
                        "sont, par ordre de priorité décroissant : le bon de commande ou le contrat particulier "
                        "signé, l'accord de traitement des données, les présentes CGV et la documentation de la "
                        "Solution."
                    )
                },
            ],
        },
        {
            "id": "definitions",
            "title": "Définitions",
            "blocks": [
                {
                    "terms": True,
                    "items": [
                        f"Solution : la plateforme logicielle éditée par {B} et fournie en mode SaaS, qui "
                        "comprend le portail client en marque blanche, le CRM destiné aux conseillers et, "
                        "selon l'Offre, les modules d'entrée en relation et de KYC.",
                        "Offre : l'une des formules Engage (portail client), Manage (CRM conseiller), "
                        "Interact (Engage et Manage) ou Complete (Interact et KYC).",
                        "Utilisateur : toute personne physique habilitée par le Client à accéder à la "
                        "Solution en qualité de conseiller ou de collaborateur.",
                        "Client final : tout client du Client (investisseur) disposant d'un accès au portail.",
                        "Données Client : les données, documents et contenus saisis, importés ou générés dans "
                        "la Solution par le Client, ses Utilisateurs et ses Clients finaux.",
                        "Abonnement : le droit d'accès à la Solution souscrit par le Client pour une Offre, "
                        "ses options, un volume d'Utilisateurs et de Clients finaux et une durée.",
                    ]
                },
            ],
        },
        {
            "id": "description-des-services",
            "title": "Description des services",
            "blocks": [
                {
                    "text": (
                        "La Solution est accessible en ligne, 24 heures sur 24, depuis un navigateur récent et, "
                        "pour le portail, depuis l'application mobile lorsque cette option est souscrite."
                    )
                },
                {
                    "text": (
                        "Le contenu de chaque Offre et des options disponibles (application mobile, agrégation "
                        "de comptes externes, reporting de portefeuille, optimisation de portefeuille, contrôles "
                        "KYC automatisés) est décrit sur la page "
                    ),
                    "link": PRICING,
                    "tail": ", dans sa version en vigueur à la date de la commande.",
                },
                {
                    "text": (
                        "Le filtrage automatisé en matière de lutte contre le blanchiment et la signature "
                        "électronique sont fournis par l'intermédiaire de partenaires spécialisés ; leur "
                        "utilisation peut être soumise à l'acceptation des conditions de ces partenaires."
                    )
                },
                {
                    "text": (
                        f"{B} propose également des prestations complémentaires, facturées en sus : support "
                        "premium, accompagnement personnalisé à la mise en route, reprise et nettoyage des "
                        "données existantes."
                    )
                },
                {
                    "text": (
                        f"{B} fait évoluer la Solution en continu. Les mises à jour sont incluses dans "
                        "l'Abonnement et ne peuvent pas réduire de manière substantielle les fonctionnalités "
                        "de l'Offre souscrite."
                    )
                },
            ],
        },
        {
            "id": "essai-gratuit",
            "title": "Essai gratuit",
            "blocks": [
                {
                    "text": (
                        "Le Client peut tester la Solution gratuitement pendant trente (30) jours, sans "
                        "communiquer de moyen de paiement. L'environnement d'essai donne accès à l'ensemble "
                        "des fonctionnalités, avec des données de démonstration, un espace de stockage de 5 Go "
                        "et le nombre d'Utilisateurs indiqué sur la page des offres lors de l'inscription."
                    )
                },
                {
                    "text": (
                        "L'essai est réservé à l'évaluation de la Solution : il ne doit pas servir à traiter "
                        "les données réelles de Clients finaux. Pendant l'essai, la Solution est fournie en "
                        "l'état, sans engagement de niveau de service."
                    )
                },
                {
                    "text": (
                        "À l'issue de l'essai, l'accès est suspendu, sans frais ni reconduction automatique. "
                        "Le Client qui souhaite poursuivre souscrit un Abonnement ; à défaut, l'environnement "
                        "d'essai et son contenu sont supprimés dans les trente (30) jours suivant la fin de "
                        "l'essai."
                    )
                },
            ],
        },
        {
            "id": "commande",
            "title": "Commande et entrée en vigueur",
            "blocks": [
                {
                    "text": (
                        "L'Abonnement est souscrit par la signature d'un bon de commande ou d'un contrat "
                        "particulier qui précise l'Offre, les options, le volume d'Utilisateurs et de Clients "
                        "finaux, la durée et le prix. Le contrat entre en vigueur à la date de sa signature."
                    )
                },
                {
                    "text": (
                        "Les accès sont ouverts dans les cinq (5) jours ouvrés qui suivent la signature, ou à la "
                        "date de mise en production convenue lorsqu'un accompagnement est prévu."
                    )
                },
            ],
        },
        {
            "id": "prix",
            "title": "Prix",
            "blocks": [
                {"text": "Les prix applicables sont ceux de la page ", "link": PRICING, "tail": (
                    " à la date de la commande, ou ceux de la proposition commerciale acceptée par le Client. "
                    "Ils sont exprimés en euros hors taxes ; la TVA au taux en vigueur s'y ajoute."
                )},
                {
                    "items": [
                        "Engage est facturé par Client final et par mois, Manage par Utilisateur et par mois, "
                        "Interact par Utilisateur et par mois auxquels s'ajoute un prix par Client final et "
                        "par mois ; Complete fait l'objet d'un devis.",
                        "Les tarifs sont dégressifs à partir de 200 Clients finaux et de 5 Utilisateurs, selon "
                        "les paliers indiqués sur la page des offres.",
                        "Les options et prestations complémentaires sont facturées selon la proposition "
                        "commerciale.",
                    ]
                },
                {
                    "text": (
                        "Le volume d'Utilisateurs et de Clients finaux actifs est constaté chaque mois. Tout "
                        "dépassement du volume souscrit est facturé au tarif en vigueur, au prorata de la "
                        "période restant à courir."
                    )
                },
                {
                    "text": (
                        "Les prix peuvent être révisés à chaque date anniversaire, dans la limite de la "
                        "variation de l'indice Syntec sur les douze derniers mois. Toute autre évolution "
                        "tarifaire est notifiée au Client au moins trois (3) mois avant le renouvellement ; le "
                        "Client qui la refuse peut mettre fin à l'Abonnement à cette échéance."
                    )
                },
            ],
        },
        {
            "id": "facturation-et-paiement",
            "title": "Facturation et paiement",
            "blocks": [
                {
                    "text": (
                        "L'Abonnement est facturé d'avance, mensuellement ou annuellement selon le bon de "
                        "commande. Les prestations complémentaires sont facturées à leur réalisation ou selon "
                        "l'échéancier convenu."
                    )
                },
                {
                    "text": (
                        "Les factures sont payables à trente (30) jours à compter de leur date d'émission, par "
                        "virement ou par prélèvement SEPA. Aucun escompte n'est accordé en cas de paiement "
                        "anticipé."
                    )
                },
                {
                    "text": (
                        "Tout retard de paiement entraîne de plein droit l'application de pénalités égales à "
                        "trois fois le taux d'intérêt légal, ainsi qu'une indemnité forfaitaire pour frais de "
                        "recouvrement de 40 €, conformément aux articles L.441-10 et D.441-5 du Code de commerce."
                    )
                },
                {
                    "text": (
                        f"Quinze (15) jours après une mise en demeure restée sans effet, {B} peut suspendre "
                        "l'accès à la Solution jusqu'au paiement complet des sommes dues."
                    )
                },
            ],
        },
        {
            "id": "duree-et-resiliation",
            "title": "Durée, renouvellement et résiliation",
            "blocks": [
                {
                    "text": (
                        "Sauf stipulation contraire du bon de commande, l'Abonnement est conclu pour une durée "
                        "initiale de douze (12) mois à compter de son entrée en vigueur. Il est ensuite "
                        "renouvelé tacitement par périodes successives de douze (12) mois."
                    )
                },
                {
                    "text": (
                        "Chaque partie peut s'opposer au renouvellement par lettre recommandée avec accusé de "
                        "réception, ou par courrier électronique avec accusé de réception, au moins trois (3) "
                        "mois avant l'échéance en cours."
                    )
                },
                {
                    "text": (
                        "Le Client peut à tout moment augmenter son volume d'Utilisateurs ou de Clients finaux, "
                        "ou passer à une Offre supérieure ; une réduction du volume souscrit prend effet à "
                        "l'échéance suivante."
                    )
                },
                {
                    "text": (
                        "En cas de manquement grave de l'une des parties à ses obligations, auquel il n'est "
                        "pas remédié dans les trente (30) jours suivant une mise en demeure, l'autre partie "
                        "peut résilier le contrat de plein droit, sans préjudice des dommages et intérêts "
                        "auxquels elle pourrait prétendre."
                    )
                },
                {
                    "text": (
                        "La résiliation ne donne lieu à aucun remboursement des sommes versées pour la période "
                        f"en cours, sauf lorsqu'elle résulte d'un manquement de {B}."
                    )
                },
            ],
        },
        {
            "id": "reversibilite",
            "title": "Réversibilité",
            "blocks": [
                {
                    "text": (
                        "Pendant les trente (30) jours qui suivent la fin du contrat, le Client peut exporter "
                        "les Données Client dans un format standard et structuré (CSV pour les données, format "
                        f"d'origine pour les documents). Sur demande, {B} l'assiste dans sa migration vers une "
                        "autre solution, sur devis."
                    )
                },
                {
                    "text": (
                        "À l'issue de cette période, les Données Client sont supprimées des environnements de "
                        "production dans un délai de trente (30) jours, et des sauvegardes au terme de leur "
                        f"cycle de rotation, qui n'excède pas quatre-vingt-dix (90) jours. {B} en délivre "
                        "l'attestation sur demande."
                    )
                },
            ],
        },
        {
            "id": "niveau-de-service-et-support",
            "title": "Niveau de service et support",
            "blocks": [
                {
                    "text": (
                        f"{B} s'engage sur une disponibilité de la Solution de 99,5 % par mois, hors "
                        "maintenance planifiée. Les opérations de maintenance planifiée sont annoncées au moins "
                        "soixante-douze (72) heures à l'avance et réalisées, sauf urgence, en dehors des jours "
                        "ouvrés entre 8 h et 20 h (heure de Paris)."
                    )
                },
                {
                    "text": (
                        "Le support est joignable par courrier électronique et depuis la Solution, les jours "
                        "ouvrés de 9 h à 18 h (heure de Paris). Les demandes sont prises en charge selon leur "
                        "criticité :"
                    )
                },
                {
                    "terms": True,
                    "items": [
                        "anomalie bloquante (Solution indisponible ou fonction essentielle inutilisable, sans "
                        "contournement possible) : prise en charge sous 2 heures ouvrées et solution de "
                        "contournement recherchée sous 8 heures ouvrées ;",
                        "anomalie majeure (fonction dégradée, avec contournement possible) : prise en charge "
                        "sous 4 heures ouvrées ;",
                        "anomalie mineure ou demande d'assistance : prise en charge sous 2 jours ouvrés.",
                    ]
                },
                {
                    "text": (
                        "L'option de support premium étend les horaires du support, désigne un interlocuteur "
                        "dédié et réduit les délais de prise en charge, selon la proposition commerciale."
                    )
                },
                {
                    "text": (
                        "Si la disponibilité mensuelle est inférieure à l'engagement, le Client bénéficie, sur "
                        "demande formulée dans les trente (30) jours, d'un avoir de 5 % de la redevance "
                        "mensuelle par tranche entamée de 0,5 % d'indisponibilité supplémentaire, dans la "
                        "limite de 25 % de cette redevance. Cet avoir indemnise forfaitairement "
                        "l'indisponibilité."
                    )
                },
            ],
        },
        {
            "id": "obligations-du-client",
            "title": "Obligations du Client",
            "blocks": [
                {"text": "Le Client s'engage à :"},
                {
                    "items": [
                        "désigner des Utilisateurs habilités et veiller à la confidentialité de leurs "
                        "identifiants, toute action réalisée avec ceux-ci étant réputée effectuée par le Client ;",
                        "activer l'authentification à deux facteurs pour ses Utilisateurs ;",
                        "utiliser la Solution conformément à sa documentation, aux présentes CGV et aux lois et "
                        "règlements applicables ;",
                        "disposer des droits et informations nécessaires sur les Données Client, notamment à "
                        "l'égard de ses Clients finaux ;",
                        "ne pas porter atteinte à la sécurité ou à l'intégrité de la Solution, ni chercher à en "
                        "extraire le code ou les données d'autres clients.",
                    ]
                },
                {
                    "text": (
                        "La Solution est un outil au service de l'activité du Client. Le Client demeure seul "
                        "responsable du respect de ses obligations réglementaires, notamment en matière de "
                        "connaissance client, de lutte contre le blanchiment des capitaux et le financement du "
                        "terrorisme, d'adéquation des conseils et de conservation des documents, ainsi que des "
                        "décisions d'investissement et des informations qu'il communique à ses Clients finaux."
                    )
                },
            ],
        },
        {
            "id": "donnees-personnelles",
            "title": "Protection des données personnelles",
            "blocks": [
                {
                    "text": (
                        "Pour les données personnelles contenues dans les Données Client, le Client agit en "
                        f"qualité de responsable de traitement et {B} en qualité de sous-traitant, au sens de "
                        "l'article 28 du règlement (UE) 2016/679 (RGPD)."
                    )
                },
                {
                    "text": (
                        "Les engagements des parties figurent dans l'accord de traitement des données (Data "
                        "Processing Agreement) annexé au contrat, qui précise notamment :"
                    )
                },
                {
                    "items": [
                        "l'objet, la durée, la nature et la finalité des traitements, ainsi que les catégories "
                        "de données et de personnes concernées ;",
                        "le traitement des données sur instruction documentée du Client uniquement ;",
                        "l'hébergement des données dans l'Union européenne, au Luxembourg ;",
                        "la liste des sous-traitants ultérieurs et l'information préalable du Client sur tout "
                        "changement, auquel il peut s'opposer ;",
                        "les mesures de sécurité techniques et organisationnelles ;",
                        "la notification de toute violation de données dans les quarante-huit (48) heures "
                        "suivant sa découverte ;",
                        "l'assistance apportée au Client pour répondre aux demandes d'exercice des droits et "
                        "pour ses analyses d'impact ;",
                        "le sort des données en fin de contrat et les modalités d'audit.",
                    ]
                },
                {
                    "text": (
                        f"Les données personnelles des interlocuteurs du Client, que {B} traite pour la gestion "
                        "de la relation commerciale, le sont conformément à sa "
                    ),
                    "link": {"label": "politique de confidentialité", "to": routes.PRIVACY, "anchor": ""},
                    "tail": ".",
                },
            ],
        },
        {
            "id": "confidentialite-et-securite",
            "title": "Confidentialité et sécurité",
            "blocks": [
                {
                    "text": (
                        "Chaque partie garde confidentielles les informations de toute nature reçues de l'autre "
                        "partie à l'occasion du contrat, et ne les utilise que pour son exécution, pendant toute "
                        "la durée du contrat et cinq (5) ans après son terme."
                    )
                },
                {
                    "text": (
                        f"{B} est informée que les Données Client peuvent être couvertes par le secret "
                        "professionnel auquel le Client est tenu. Elle impose des engagements de "
                        "confidentialité écrits à ses collaborateurs et sous-traitants, et réserve l'accès aux "
                        "Données Client aux seules personnes qui en ont besoin pour exécuter le contrat."
                    )
                },
                {
                    "text": (
                        f"{B} met en œuvre les mesures de sécurité décrites dans l'accord de traitement des "
                        "données, parmi lesquelles le chiffrement des données en transit et au repos, "
                        "l'authentification à deux facteurs, la détection d'intrusion, la journalisation des "
                        "accès et des sauvegardes quotidiennes."
                    )
                },
            ],
        },
        {
            "id": "propriete-intellectuelle",
            "title": "Propriété intellectuelle",
            "blocks": [
                {
                    "text": (
                        f"{B} est et demeure titulaire de l'ensemble des droits de propriété intellectuelle sur "
                        "la Solution, sa documentation et leurs évolutions. Le Client bénéficie, pour la durée "
                        "de l'Abonnement et dans la limite du volume souscrit, d'un droit d'utilisation "
                        "personnel, non exclusif et non cessible de la Solution, pour ses besoins propres et "
                        "ceux de la relation avec ses Clients finaux."
                    )
                },
                {
                    "text": (
                        "Le Client demeure propriétaire des Données Client. Il autorise "
                        f"{B} à les héberger et à les traiter pour les seuls besoins de l'exécution du contrat."
                    )
                },
                {
                    "text": (
                        f"Pour le portail en marque blanche, le Client autorise {B} à reproduire ses marques, "
                        "logos et éléments de charte graphique dans la Solution, pour la durée du contrat et à "
                        "cette seule fin."
                    )
                },
            ],
        },
        {
            "id": "responsabilite",
            "title": "Responsabilité",
            "blocks": [
                {
                    "text": (
                        f"{B} est tenue d'une obligation de moyens. Elle n'est pas responsable des dommages "
                        "résultant d'une utilisation de la Solution non conforme à sa documentation, d'une "
                        "défaillance des réseaux de télécommunication ou des équipements du Client, ni du "
                        "contenu des Données Client."
                    )
                },
                {
                    "text": (
                        "Aucune des parties n'est responsable des dommages indirects subis par l'autre, tels "
                        "que perte de chiffre d'affaires, de clientèle, de données ou atteinte à l'image."
                    )
                },
                {
                    "text": (
                        f"La responsabilité totale de {B}, toutes causes confondues, est limitée au montant hors "
                        "taxes effectivement payé par le Client au titre de l'Abonnement au cours des douze (12) "
                        "mois précédant le fait générateur. Cette limite ne s'applique pas en cas de faute "
                        "lourde ou dolosive, ni aux dommages corporels."
                    )
                },
                {
                    "text": (
                        "Les services fournis par des partenaires (filtrage anti-blanchiment, signature "
                        "électronique, agrégation de comptes) relèvent de la responsabilité de ces partenaires "
                        f"dans les conditions qui leur sont propres ; {B} répond de leur bonne intégration dans "
                        "la Solution."
                    )
                },
            ],
        },
        {
            "id": "force-majeure",
            "title": "Force majeure",
            "blocks": [
                {
                    "text": (
                        "Aucune partie n'est responsable d'un manquement résultant d'un cas de force majeure au "
                        "sens de l'article 1218 du Code civil. Les obligations affectées sont suspendues pendant "
                        "la durée de l'événement ; s'il dure plus de soixante (60) jours, chaque partie peut "
                        "résilier le contrat sans indemnité, par lettre recommandée avec accusé de réception."
                    )
                },
            ],
        },
        {
            "id": "references-commerciales",
            "title": "Références commerciales",
            "blocks": [
                {
                    "text": (
                        f"{B} ne peut citer le nom ou le logo du Client comme référence commerciale qu'avec son "
                        "accord écrit préalable."
                    )
                },
            ],
        },
        {
            "id": "dispositions-generales",
            "title": "Dispositions générales",
            "blocks": [
                {
                    "terms": True,
                    "items": [
                        "Cession : le contrat ne peut être cédé par une partie sans l'accord écrit de l'autre, "
                        "sauf à une société qu'elle contrôle ou qui la contrôle, ou dans le cadre d'une fusion, "
                        "sur simple notification écrite.",
                        f"Sous-traitance : {B} peut recourir à des sous-traitants dans le respect de l'accord de "
                        "traitement des données ; elle demeure responsable de leurs prestations.",
                        "Non-renonciation : le fait pour une partie de ne pas se prévaloir d'un manquement ne "
                        "vaut pas renonciation à s'en prévaloir ultérieurement.",
                        "Divisibilité : si une stipulation est déclarée nulle, les autres conservent leur plein "
                        "effet.",
                        f"Modification des CGV : {B} peut modifier les présentes CGV ; les nouvelles conditions "
                        "s'appliquent aux contrats en cours à leur renouvellement suivant, après information du "
                        "Client au moins trois (3) mois à l'avance.",
                        "Convention de preuve : les enregistrements électroniques conservés dans les systèmes "
                        f"de {B} dans des conditions raisonnables de sécurité font foi des échanges et des "
                        "actions réalisées dans la Solution.",
                    ]
                },
            ],
        },
        {
            "id": "droit-applicable",
            "title": "Droit applicable et litiges",
            "blocks": [
                {
                    "text": (
                        "Les présentes CGV et les contrats qu'elles régissent sont soumis au droit français. "
                        "Elles sont rédigées en langue française, seule version faisant foi."
                    )
                },
                {
                    "text": (
                        "En cas de différend, les parties recherchent une solution amiable pendant trente (30) "
                        "jours à compter de sa notification par l'une d'elles."
                    )
                },
                {
                    "text": (
                        "À défaut d'accord, tout litige relatif à la formation, à l'interprétation, à "
                        "l'exécution ou à la cessation du contrat relève de la compétence exclusive des "
                        "juridictions du ressort de la cour d'appel de Paris, y compris en cas de pluralité "
                        "de défendeurs ou d'appel en garantie."
                    )
                },
            ],
        },
        {
            "id": "contact",
            "title": "Contact",
            "blocks": [
                {
                    "text": "Pour toute question relative aux présentes CGV, écrivez à ",
                    "link": EMAIL,
                    "tail": f", ou par courrier à {_fr['company']}, {_fr['head_office']}.",
                },
            ],
        },
    ],
}

# The English route shows the French text (SPEC §2): same words, same keys.
EN = FR
