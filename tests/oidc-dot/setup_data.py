"""Users, groups (= roles) and the site's client. Run: manage.py shell < setup_data.py

DOT_SITE_URL is the site's origin (http://127.0.0.1:<port>): the client's redirect URI is its
/auth/callback, its post-logout redirect URI its home page with the trailing slash.
"""

import os

from django.contrib.auth.models import Group, User
from oauth2_provider.models import get_application_model

Application = get_application_model()
SITE = os.environ["DOT_SITE_URL"].rstrip("/")


def user(username, password, first, last, email, roles):
    u, _ = User.objects.get_or_create(username=username)
    u.first_name, u.last_name, u.email = first, last, email
    u.set_password(password)
    u.save()
    u.groups.set([Group.objects.get_or_create(name=r)[0] for r in roles])
    return u


user("camille", "camille-pass-1", "Camille", "Durand", "camille.durand@example.test", ["ADVISOR"])
user("alex", "alex-pass-1", "Alex", "Martin", "alex.martin@example.test", ["SITE_ADMIN"])
user("nina", "nina-pass-1", "", "", "nina@example.test", [])

Application.objects.filter(client_id="nereo-site").delete()
app = Application(
    name="Nereo marketing site",
    client_id="nereo-site",
    client_secret="dot-secret-9f2c7a1e4b6d8f0a",
    client_type=Application.CLIENT_CONFIDENTIAL,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
    redirect_uris=f"{SITE}/auth/callback",
    post_logout_redirect_uris=f"{SITE}/",
    algorithm=Application.RS256_ALGORITHM,
    skip_authorization=False,
)
app.save()
print("client", app.client_id, "for", SITE)
