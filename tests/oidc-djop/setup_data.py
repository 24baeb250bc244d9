"""Users, groups, the site's client and an RSA key (run with manage.py shell < setup_data.py)."""

import os

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from oidc_provider.models import Client, ResponseType, RSAKey

SITE = os.environ.get("DJOP_SITE_URL", "http://127.0.0.1:8740")
for name in ("ADVISOR", "INVESTOR", "SITE_ADMIN"):
    Group.objects.get_or_create(name=name)
USERS = [
    ("camille", "camille-pass-1", "Camille", "Durand", "camille.durand@example.test", ["ADVISOR"]),
    ("alex", "alex-pass-1", "Alex", "Martin", "alex.martin@example.test", ["SITE_ADMIN"]),
    ("nina", "nina-pass-1", "", "", "nina@example.test", []),
    ("zoe", "zoe-pass-1", "Zoé", "Leroy", "zoe.leroy@example.test", ["INVESTOR"]),
]
for username, password, first, last, email, groups in USERS:
    user, _ = User.objects.get_or_create(username=username)
    user.first_name, user.last_name, user.email, user.is_active = first, last, email, True
    user.set_password(password)
    user.save()
    user.groups.set(Group.objects.filter(name__in=groups))
if not User.objects.filter(username="admin").exists():
    User.objects.create_superuser("admin", "admin@example.test", "admin-pass-1")

client, _ = Client.objects.get_or_create(client_id="nereo-site")
client.name = "Nereo marketing site"
client.client_type = "confidential"
client.client_secret = os.environ.get("DJOP_CLIENT_SECRET", "djop-secret-5c1e9a7f3b2d4e60")
client.jwt_alg = os.environ.get("DJOP_JWT_ALG", "RS256")
client.redirect_uris = [SITE + "/auth/callback"]
client.post_logout_redirect_uris = [SITE + "/"]
client.require_consent = True  # the library's defaults
client.reuse_consent = True
client.save()
client.response_types.set(ResponseType.objects.filter(value="code"))
if not RSAKey.objects.exists():
    call_command("creatersakey")
print("client", client.client_id, client.jwt_alg, client.redirect_uris, client.post_logout_redirect_uris)
print("keys", [k.kid for k in RSAKey.objects.all()])
