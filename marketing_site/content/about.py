"""The about page's language-neutral facts (the words are in `content/<lang>/about.yaml`)."""

ART = "/illustrations/home"
# Each feature's illustration, by its anchor id (fixed by SPEC §2).
FEATURE_IMAGES = {
    "todo": f"{ART}/about-tasks.svg",
    "Rdv": f"{ART}/about-calendar.svg",
    "ficheClient": f"{ART}/about-client-file.svg",
    "reporting": f"{ART}/about-reporting.svg",
    "dashboard": f"{ART}/about-dashboard.svg",
}
