"""The testimonials' language-neutral facts (SPEC §3: image, person, company logo); the quotes,
jobs and carousel labels are in `content/<lang>/testimonials.yaml`.

The person and the firm are fictional; the portrait and the logo are our own drawings.
"""

# Seconds between two testimonials when the carousel turns by itself; None (or 0) keeps it still.
# When set, the carousel shows a Pause/Play button (WCAG 2.2.2) and waits while the pointer or the
# focus is on it; a visitor who asks for reduced motion gets it paused (Play to start it). It
# turns only with two testimonials or more. Five seconds or more leaves time to read a quote.
AUTOPLAY_SECONDS: float | None = None

# Key (named by `testimonial` in content/<lang>/testimonials.yaml) -> the facts of one testimonial.
TESTIMONIALS: dict[str, dict[str, str]] = {
    "claire_martineau": {
        "image": "/illustrations/home/portrait-claire-martineau.svg",
        "name": "Claire Martineau",
        "company": "Corvelle Patrimoine",
        "logo": "/illustrations/home/logo-corvelle.svg",
    },
}
