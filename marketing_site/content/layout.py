"""The language-neutral facts of the navbar and footer (the words are in
`content/<lang>/layout.yaml`)."""

SOCIAL_LINKS = [
    {"label": "LinkedIn", "href": "https://www.linkedin.com/company/nereo-wealth", "icon": "linkedin"},
    {"label": "X", "href": "https://x.com/nereo_wealth", "icon": "x"},
    {"label": "YouTube", "href": "https://www.youtube.com/@nereo-wealth", "icon": "youtube"},
]

# Recognition strip and footer badges; the artwork is ours (assets/badges/). Each key names
# the badge's alt text under `prizes` in the language files.
PRIZES = {
    "fintech_innovation": "/badges/fintech-innovation.svg",
    "wealthtech_100": "/badges/wealthtech-100.svg",
    "private_banking_award": "/badges/private-banking-award.svg",
}
