"""Words of the legal-document frame (table of contents, language note), per language."""

FR = {
    "toc_title": "Sommaire",
    "back_to_toc": "Retour au sommaire",
    "original_language_note": "Ce document est rédigé en français ; seule cette version fait foi.",
}

EN = {
    "toc_title": "Contents",
    "back_to_toc": "Back to contents",
    "original_language_note": (
        "These terms of sale are published in French, the language of the contract: "
        "the French text below is the only binding version."
    ),
}
