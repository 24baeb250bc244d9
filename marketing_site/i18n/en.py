"""English UI messages (same keys as `fr.py`)."""

MESSAGES: dict[str, str] = {
    "not_found.message": "Oops! We are sorry, the page you asked for does not exist",
    "not_found.home": "Back to the home page",
    "not_found.demo": "Book a demo",
    "not_found.offer": "See our offers",
}
