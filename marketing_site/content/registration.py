"""Words of account-creation step 2 (/registration/2 and /en/registration/2)."""

from marketing_site.brand import BRAND_NAME

FR = {
    "step": "Étape 2 sur 2",
    "title": "Finalisez la création de votre compte",
    "lead": f"Encore quelques informations et votre espace {BRAND_NAME} est prêt.",
    "form_label": "Création de compte",
    "fields": {
        "name": "Nom & Prénom",
        "company": "Société",
        "tel": "Téléphone",
        "password1": "Mot de passe",
        "passwordconfirm": "Confirmez votre mot de passe",
    },
    "validate": "Valider",
    "aside_title": "Ce qui vous attend",
    "aside_items": [
        "Votre portail client à vos couleurs, prêt à être présenté à vos clients",
        "Un CRM pensé pour le quotidien des conseillers",
        "Un accompagnement à la prise en main par nos consultants",
    ],
}

EN = {
    "step": "Step 2 of 2",
    "title": "Finish creating your account",
    "lead": f"A few more details and your {BRAND_NAME} space is ready.",
    "form_label": "Account creation",
    "fields": {
        "name": "Name & Firstname",
        "company": "Company",
        "tel": "Phone",
        "password1": "Password",
        "passwordconfirm": "Confirm your password",
    },
    "validate": "Validate",
    "aside_title": "What awaits you",
    "aside_items": [
        "Your client portal in your colours, ready to show your clients",
        "A CRM designed around advisers' daily work",
        "Hands-on onboarding support from our consultants",
    ],
}
