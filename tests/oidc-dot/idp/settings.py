"""A minimal Django project serving django-oauth-toolkit 3.4.1 with OpenID Connect under /o/.

The second real provider of the tests (tests/test_auth_dot.py; tests/servers.py DotProvider
starts it with `manage.py runserver 127.0.0.1:<port>`), as the team first set it up by hand:
RS256, PKCE S256 only, UserInfo with names, email and a `roles` claim (the user's groups),
RP-Initiated Logout, rotating refresh tokens and the RFC 9207 `iss` parameter.

Environment, read at start:
  DOT_DATA_DIR              folder of its SQLite database and RSA key (oidc.key); required
  DOT_ACCESS_TTL            access token lifetime in seconds (default 3600)
  DOT_OFFLINE_ACCESS_SCOPE  1: `offline_access` is a registered scope (default 1); 0 as on
                            many real deployments (the scope is then refused: invalid_scope)
  DOT_ISS_PARAM             1: RFC 9207 `iss` in the authorization response (default 1)
  DOT_APPROVAL              force (its consent page at every login, DOT's default) or auto
  DOT_LOGOUT_PROMPT         1: ask before every logout (DOT's default) or 0
  DOT_GRACE                 seconds a rotated refresh token is still accepted (default 0)
  DOT_SILENT_FIX            1: implement the two validator methods prompt=none needs (not
                            DOT's default: without it a logged-in user's prompt=none is a 500)
"""

import os
from pathlib import Path

DATA_DIR = Path(os.environ["DOT_DATA_DIR"])
SECRET_KEY = "dot-test-only-not-secret-0123456789abcdefghijklmnopqrstuvwxyz"
DEBUG = False  # its 500 page is then the one a real deployment shows
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "oauth2_provider",
    "idp",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "idp.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DATA_DIR / "db.sqlite3"}}
USE_TZ = True
TIME_ZONE = "UTC"
STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "/accounts/login/"
# The provider's own session cookie must not collide with the site's (both on 127.0.0.1).
SESSION_COOKIE_NAME = "dot_sessionid"
CSRF_COOKIE_NAME = "dot_csrftoken"
# Fast password hashing: the test users log in often; nothing here protects a real password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

SCOPES = {
    "openid": "OpenID Connect",
    "profile": "Your name",
    "email": "Your email address",
}
if os.environ.get("DOT_OFFLINE_ACCESS_SCOPE", "1") == "1":
    SCOPES["offline_access"] = "Stay signed in (refresh tokens)"

KEY_FILE = DATA_DIR / "oidc.key"
OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": KEY_FILE.read_text() if KEY_FILE.exists() else "",
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": os.environ.get("DOT_LOGOUT_PROMPT", "1") == "1",
    "SCOPES": SCOPES,
    "DEFAULT_SCOPES": ["openid"],
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("DOT_ACCESS_TTL", "3600")),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": int(os.environ.get("DOT_GRACE", "0")),
    "REQUEST_APPROVAL_PROMPT": os.environ.get("DOT_APPROVAL", "force"),
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": os.environ.get("DOT_ISS_PARAM", "1") == "1",
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "OAUTH2_VALIDATOR_CLASS": "idp.validators.NereoValidator",
}

# One line per request on standard error ("GET /o/authorize/?… 302"), read by the tests.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "oauth2_provider": {"handlers": ["console"], "level": "INFO"},
        "oauthlib": {"handlers": ["console"], "level": "INFO"},
        "django.request": {"handlers": ["console"], "level": "ERROR"},
    },
}
