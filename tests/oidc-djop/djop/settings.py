"""A minimal django-oidc-provider 0.9.0 project: the third real provider of the site's tests.

tests/test_auth_djop.py runs the login suite against it; tests/servers.py DjopProvider starts
it with `manage.py runserver 127.0.0.1:<port>` from the virtualenv `make test` builds
(tests/oidc-djop/requirements.txt), its database in DJOP_DATA_DIR.

Knobs come from the environment (read at start):
  DJOP_PORT          port the provider answers on (9740); the issuer is http://127.0.0.1:<port>/openid
  DJOP_DATA_DIR      where db.sqlite3 lives (this folder)
  DJOP_TOKEN_TTL     OIDC_TOKEN_EXPIRE, access-token lifetime in seconds (3600, the library default)
  DJOP_IDTOKEN_TTL   OIDC_IDTOKEN_EXPIRE (600, the library default)
  DJOP_SKEW          seconds added to the clock used for the ID token's iat/exp (0)
  DJOP_TAMPER        one of aud, iss, nonce, sub, expired, replay: the ID token of a code exchange
                     is altered that way before it is signed (empty: none)
  DJOP_INCLUDE_CLAIMS  "1": OIDC_IDTOKEN_INCLUDE_CLAIMS (profile/email claims in the ID token too)
  DJOP_SESSION_MGMT  "1": OIDC_SESSION_MANAGEMENT_ENABLE
"""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DJOP_DATA_DIR", BASE_DIR))
PORT = int(os.environ.get("DJOP_PORT", "9740"))

SECRET_KEY = "djop-interop-only-not-a-secret-7d1c4b"
DEBUG = os.environ.get("DJOP_DEBUG", "0") == "1"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "oidc_provider",
    "djop",
]

MIDDLEWARE = [
    "djop.requestlog.RequestLog",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
if os.environ.get("DJOP_SESSION_MGMT") == "1":
    MIDDLEWARE.append("oidc_provider.middleware.SessionManagementMiddleware")

ROOT_URLCONF = "djop.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "djop" / "templates"],
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

# The site runs on the same host (127.0.0.1, other port): cookies are per host, not per port.
SESSION_COOKIE_NAME = "djop_sessionid"
CSRF_COOKIE_NAME = "djop_csrftoken"
# Fast password hashing: the test users log in often; nothing here protects a real password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/done/"

# --- django-oidc-provider -------------------------------------------------------------------
SITE_URL = f"http://127.0.0.1:{PORT}"  # else the issuer follows each request's Host header
OIDC_TOKEN_EXPIRE = int(os.environ.get("DJOP_TOKEN_TTL", "3600"))
OIDC_IDTOKEN_EXPIRE = int(os.environ.get("DJOP_IDTOKEN_TTL", "600"))
OIDC_USERINFO = "djop.claims.userinfo"
OIDC_IDTOKEN_PROCESSING_HOOK = "djop.claims.idtoken_hook"
OIDC_IDTOKEN_INCLUDE_CLAIMS = os.environ.get("DJOP_INCLUDE_CLAIMS") == "1"
OIDC_SESSION_MANAGEMENT_ENABLE = os.environ.get("DJOP_SESSION_MGMT") == "1"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"oidc_provider": {"handlers": ["console"], "level": "INFO"}},
}

# The clock skew knob (DJOP_SKEW) is applied in djop/apps.py once the apps are loaded.
