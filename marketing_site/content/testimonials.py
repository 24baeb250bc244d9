"""The testimonials' language-neutral facts (SPEC §3: image, person, company logo); the quotes,
jobs and carousel labels are in `content/<lang>/testimonials.yaml`.

The person and the firm are fictional; the portrait and the logo are our own drawings.
"""

TESTIMONIALS = {
    "claire_martineau": {
        "image": "/illustrations/home/portrait-claire-martineau.svg",
        "name": "Claire Martineau",
        "company": "Corvelle Patrimoine",
        "logo": "/illustrations/home/logo-corvelle.svg",
    },
}
