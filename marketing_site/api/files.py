"""GET /files/<name>: the downloadable documents, saved under their display names."""

from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from marketing_site.content.downloads import LANGS, document_for, documents_in
from marketing_site.settings import PROJECT_ROOT

FILES_DIR = PROJECT_ROOT / "files"
PREFIX = "/files/"
# Every document in every language (the French and English files have different names).
_BY_FILE = {doc["file"]: doc for lang in LANGS for doc in documents_in(lang).values()}


def file_url(document_key: str, lang: str = "fr") -> str:
    return PREFIX + quote(document_for(document_key, lang)["file"])


async def download(request: Request) -> Response:
    document = _BY_FILE.get(request.path_params["name"])
    if document is None:
        return PlainTextResponse("Not found", 404)
    display = document["display_name"]
    ascii_name = display.encode("ascii", "replace").decode().replace('"', "")
    return FileResponse(
        FILES_DIR / document["file"],
        media_type="application/pdf",
        headers={
            "Content-Disposition": f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(display)}",
            "Cache-Control": "public, max-age=86400",
        },
    )


ROUTES = [Route(PREFIX + "{name}", download, methods=["GET", "HEAD"])]
