"""The testimonial carousel: its labels and its entries (SPEC §3: image, quote, person, job, company logo).

The person and the firm are fictional; the portrait and the logo are our own drawings.
"""

PORTRAIT = "/illustrations/home/portrait-claire-martineau.svg"
COMPANY_LOGO = "/illustrations/home/logo-corvelle.svg"
COMPANY = "Corvelle Patrimoine"
PERSON = "Claire Martineau"

FR = {
    "label": "Témoignages clients",
    "previous": "Témoignage précédent",
    "next": "Témoignage suivant",
    "items": [
        {
            "image": PORTRAIT,
            "quote": (
                "Nos clients consultent désormais leurs portefeuilles et déposent leurs justificatifs "
                "sur un portail à nos couleurs. Au cabinet, la to-do list et les alertes nous disent "
                "chaque matin qui appeler et pourquoi : nos revues annuelles se préparent en quelques "
                "clics, et plus personne ne court après une pièce d'identité expirée."
            ),
            "name": PERSON,
            "job": "Associée fondatrice",
            "company": COMPANY,
            "logo": COMPANY_LOGO,
        }
    ],
}

EN = {
    "label": "Client testimonials",
    "previous": "Previous testimonial",
    "next": "Next testimonial",
    "items": [
        {
            "image": PORTRAIT,
            "quote": (
                "Our clients now check their portfolios and upload their supporting documents on a "
                "portal in our own colours. In the office, the to-do list and the alerts tell us every "
                "morning whom to call and why: annual reviews take a few clicks to prepare, and nobody "
                "chases an expired ID document any more."
            ),
            "name": PERSON,
            "job": "Founding Partner",
            "company": COMPANY,
            "logo": COMPANY_LOGO,
        }
    ],
}
