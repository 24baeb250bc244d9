"""POST /api/v1/mail/send: the lead forms' JSON API (SPEC §7), and its OpenAPI schema.

200 accepted · 413 body too large · 415 not JSON · 422 per-field errors, or a string that is no
text anywhere in the body · 429 Retry-After · 503 Retry-After: the database cannot be reached
(api/unavailable.py; nothing stored, the same request may be sent again).
Only the status matters to the site's forms; the JSON bodies help other clients.
"""

from __future__ import annotations

import json

from anyio import to_thread
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from marketing_site import routes
from marketing_site.content.lead_forms import DOWNLOAD_FORMS
from marketing_site.db.leads import ATTRIBUTION
from marketing_site.services.client_address import visitor_address
from marketing_site.services.contact_patterns import first_non_text
from marketing_site.services.leads import HONEYPOT_FIELD, MAX_TEXT_LENGTH, fields_json_schema, submit_lead
from marketing_site.settings import get_settings

PATH = "/api/v1/mail/send"
MAX_BODY_BYTES = 16 * 1024
NOT_TEXT_MESSAGE = "not text (a lone surrogate such as \\ud800, or a noncharacter such as \\uffff)."


async def _read_limited(request: Request) -> bytes | None:
    """The body, or None once it exceeds MAX_BODY_BYTES (read no further)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return None
    return bytes(body)


async def read_json_object(request: Request) -> dict | JSONResponse:
    """The JSON object a POST carries, or the response refusing it (415, 400, 413, 422): not
    JSON, not an object, or a string in it (a key or a value, at any depth) that is not text.

    Every JSON door of the site (leads, bookings) reads its body here: same limits, same answers.
    """
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        return JSONResponse({"error": "The body must be JSON (Content-Type: application/json)."}, 415)
    try:
        body = await _read_limited(request)
    except ClientDisconnect:
        return JSONResponse({"error": "The request was interrupted."}, 400)
    if body is None:
        return JSONResponse({"error": f"The body must be at most {MAX_BODY_BYTES} bytes."}, 413)
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return JSONResponse({"errors": {"body": "Not valid JSON."}}, 422)
    except RecursionError:  # `[` x 5000 fits in the size limit and nests past the parser's stack
        return JSONResponse({"errors": {"body": "Nested too deeply."}}, 422)
    if not isinstance(payload, dict):
        return JSONResponse({"errors": {"body": "Must be a JSON object."}}, 422)
    # Valid JSON, and yet no text: "\ud800" decodes to a lone surrogate, which no database, log
    # or mail can carry. Whatever field holds it, known or not, nothing of the body goes further.
    where = first_non_text(payload)
    if where is not None:
        return JSONResponse({"errors": {"body": f"{where}: {NOT_TEXT_MESSAGE}"}}, 422)
    return payload


def client_ip(request: Request) -> str:
    peer = request.client.host if request.client else "unknown"
    return visitor_address(peer, request.headers.getlist("x-forwarded-for"), get_settings().trusted_proxies)


async def send_mail(request: Request) -> JSONResponse:
    payload = await read_json_object(request)
    if isinstance(payload, JSONResponse):
        return payload
    result = await to_thread.run_sync(submit_lead, payload, client_ip(request), request.headers.get("idempotency-key"))
    if result.status == "rate_limited":
        return JSONResponse(
            {"error": f"Too many requests. Try again in {result.retry_after} seconds."},
            429,
            headers={"Retry-After": str(result.retry_after)},
        )
    if result.status == "invalid":
        return JSONResponse({"errors": result.errors}, 422)
    return JSONResponse({"status": "accepted"}, 200)


def _lead_schema() -> dict:
    """The request body: the download forms' fields (services.leads.FormFields), then what the
    API adds (the document, the page's language, the SPEC §7 flags, anti-bot signals)."""
    contact = fields_json_schema(DOWNLOAD_FORMS)
    fields = contact["properties"]
    return {
        "type": "object",
        # The first name may come as `nom` instead (the generic form of the original).
        "required": [name for name in contact["required"] if name != "firstname"] + ["subject"],
        "properties": {
            **fields,
            "nom": {**fields["firstname"], "description": "The first name, as the generic form calls it."},
            "subject": {"type": "string", "enum": [f["subject"] for f in DOWNLOAD_FORMS.values()]},
            "text": {"type": "string", "maxLength": MAX_TEXT_LENGTH},
            "mailSent": {"type": "boolean", "nullable": True},
            "error": {"type": "boolean", "nullable": True},
            "lang": {
                "type": "string",
                "enum": list(routes.LANGS),
                "description": "Language of the page: of the document mailed about and of the 422 messages.",
            },
            "elapsedMs": {
                "type": "number",
                "description": "Time spent filling the form; below LEAD_MIN_FILL_SECONDS, missing, null "
                "or not finite, the lead is accepted and flagged `fast` (autofill is fast too).",
            },
            HONEYPOT_FIELD: {
                "type": "string",
                "description": "Should stay empty; a value flags the lead (autofill may fill it).",
            },
            "attribution": {
                "type": "object",
                "description": "Where the visit came from: its first page of the site, the referring "
                "site's host and the UTM tags of the address it landed on. Values that do not fit are "
                "dropped, never refused.",
                "properties": {key: {"type": "string"} for key in ATTRIBUTION},
            },
        },
    }


OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Nereo marketing site API", "version": "1.0.0"},
    "paths": {
        PATH: {
            "post": {
                "summary": "Request a document: store the lead and mail the sales team.",
                "operationId": "sendMail",
                "parameters": [
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string", "maxLength": 200},
                        "description": "The same key again means the same lead.",
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Lead"}}},
                },
                "responses": {
                    "200": {"description": "Accepted: the lead is stored and its mail queued."},
                    "413": {"description": "Body larger than 16 KiB."},
                    "415": {"description": "Body is not JSON."},
                    "422": {
                        "description": "Invalid fields (messages on the contact fields are in `lang`), or a "
                        "string that is no text anywhere in the body (a lone surrogate, a noncharacter).",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
                    },
                    "429": {
                        "description": "Too many requests from this address or for this email; retry "
                        "after Retry-After seconds.",
                        "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                    },
                    "503": {
                        "description": "The database cannot be reached for a moment: nothing was stored; send "
                        "the same request again (with its Idempotency-Key) after Retry-After seconds.",
                        "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                    },
                },
            }
        },
        "/api/v1/health": {
            "get": {
                "summary": "Readiness: should a load balancer send this machine visitors? Its status only.",
                "operationId": "health",
                "responses": {
                    "200": {
                        "description": "Serving (`degraded`: Redis unreachable, or mail failed in the last "
                        "hours, or is late: leads are still taken).",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}},
                    },
                    "503": {
                        "description": "Not ready: `down` (database unreachable) or `draining` (an operator "
                        "is taking the machine out).",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}},
                    },
                },
            }
        },
        "/api/v1/health/live": {
            "get": {
                "summary": "Liveness: is the process answering? Touches no database (for supervisors).",
                "operationId": "liveness",
                "responses": {"200": {"description": "Alive."}},
            }
        },
    },
    "components": {
        "schemas": {
            "Lead": _lead_schema(),
            "Health": {
                "type": "object",
                "required": ["status"],
                "properties": {"status": {"type": "string", "enum": ["ok", "degraded", "draining", "down"]}},
            },
            "Errors": {
                "type": "object",
                "properties": {"errors": {"type": "object", "additionalProperties": {"type": "string"}}},
            },
        }
    },
}


async def openapi(_: Request) -> JSONResponse:
    return JSONResponse(OPENAPI)


ROUTES = [
    Route(PATH, send_mail, methods=["POST"]),
    Route("/api/v1/openapi.json", openapi, methods=["GET"]),
]
