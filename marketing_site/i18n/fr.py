"""Messages de l'interface en français (mêmes clés que `en.py`)."""

MESSAGES: dict[str, str] = {
    "not_found.message": "Oops ! Nous sommes désolés, la page demandée n'existe pas",
    "not_found.home": "Retour à l'accueil",
    "not_found.demo": "Demander une démo",
    "not_found.offer": "Découvrir nos offres",
}
