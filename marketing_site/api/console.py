"""The console's downloads: leads as CSV (the current filter), the demo bookings as CSV and one
person's data as JSON.

    GET  /api/console/leads.csv?<filter>   the leads of the filter (services.console.LeadFilter)
    GET  /api/console/bookings.csv         every demo booking (services.console_bookings)
    POST /api/console/subject.json         form field `email`: everything held for it

Each checks the console role from the session cookie on every request (401 without a
session, 403 without the role) and are written to the audit log. The subject's email is
posted, not put in the URL, so it stays out of access logs and history.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from anyio import to_thread
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from marketing_site import routes
from marketing_site.services import console, console_bookings

SUBJECT_JSON = "/api/console/subject.json"
NO_STORE = {"Cache-Control": "no-store"}


def _refused(access: str) -> Response:
    status = 401 if access == "anonymous" else 403
    return PlainTextResponse("login required" if status == 401 else "console role required", status, headers=NO_STORE)


def _attachment(body: str, media_type: str, filename: str) -> Response:
    headers = {**NO_STORE, "Content-Disposition": f'attachment; filename="{filename}"'}
    return Response(body, media_type=media_type, headers=headers)


async def leads_csv(request: Request) -> Response:
    access, operator = await to_thread.run_sync(console.access_of, request.headers.get("cookie"))
    if operator is None:
        return _refused(access)
    try:
        f = console.LeadFilter.parse(request.query_params)
    except console.FilterError as error:
        return PlainTextResponse(f"invalid filter: {error.field}", 400, headers=NO_STORE)
    body, count = await to_thread.run_sync(console.export_leads_csv, f)
    await to_thread.run_sync(console.audit_export, operator, f, count)
    return _attachment(body, "text/csv; charset=utf-8", f"leads-{datetime.now(UTC):%Y%m%d-%H%M}.csv")


async def bookings_csv(request: Request) -> Response:
    access, operator = await to_thread.run_sync(console.access_of, request.headers.get("cookie"))
    if operator is None:
        return _refused(access)
    body, _count = await to_thread.run_sync(console_bookings.export_bookings_csv, operator)
    return _attachment(body, "text/csv; charset=utf-8", f"bookings-{datetime.now(UTC):%Y%m%d-%H%M}.csv")


async def subject_json(request: Request) -> Response:
    access, operator = await to_thread.run_sync(console.access_of, request.headers.get("cookie"))
    if operator is None:
        return _refused(access)
    form = await request.form()
    email = form.get("email")
    try:
        found = await to_thread.run_sync(
            console.subject_data, operator, email if isinstance(email, str) else "", "download"
        )
    except console.SubjectError:
        return PlainTextResponse("invalid email address", 400, headers=NO_STORE)
    body = json.dumps({"email": console.normalise_email(str(email)), "data": found}, ensure_ascii=False, indent=2)
    return _attachment(body, "application/json", "data-subject.json")


ROUTES = [
    Route(routes.CONSOLE_LEADS_CSV, leads_csv, methods=["GET"]),
    Route(routes.CONSOLE_BOOKINGS_CSV, bookings_csv, methods=["GET"]),
    Route(SUBJECT_JSON, subject_json, methods=["POST"]),
]
