"""A third language is one entry in the route table and one copied folder, translated.

This module does what a maintainer would, in a copy of the project: adds German to
`routes.LANGUAGES`, copies `content/en/` to `content/de/`, translates the demo page's title,
then makes a production build (in a web folder of its own, REFLEX_WEB_WORKDIR, ~1 min) and
serves it. Nothing else of the code changes.
"""

from __future__ import annotations

import re
import shutil

import httpx
import pytest

from servers import ROOT, SiteServer, build_in_own_web_folder, free_port

ROUTE_TABLE_ENTRY = 'LANGUAGES: dict[str, str] = {"fr": "", "en": "/en"}'
GERMAN_TITLE = "Buchen Sie Ihre 30-minütige {{brand}}-Demo"
# The project's own files a build and a server read; the rest is linked, not copied.
COPIED = ("marketing_site", "assets", "rxconfig.py", "alembic", "alembic.ini")
LINKED = (".venv", ".tools", "files")


@pytest.fixture(scope="module")
def german_site(workdir):
    project = workdir / "third-language"
    project.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, project / name)
    for name in LINKED:
        if (ROOT / name).exists():
            (project / name).symlink_to((ROOT / name).resolve())

    # 1. One entry in the route table.
    routes = project / "marketing_site" / "routes.py"
    table = routes.read_text(encoding="utf-8")
    assert ROUTE_TABLE_ENTRY in table, "the route table's language entry moved: update this test"
    routes.write_text(table.replace(ROUTE_TABLE_ENTRY, ROUTE_TABLE_ENTRY[:-1] + ', "de": "/de"}'), encoding="utf-8")
    # 2. One copied folder, 3. translated (one sentence is enough to prove the wiring).
    content = project / "marketing_site" / "content"
    shutil.copytree(content / "en", content / "de")
    demo = content / "de" / "demo.yaml"
    words = demo.read_text(encoding="utf-8")
    english_title = re.search(r"^  title: (Book your .*)$", words, re.M)
    assert english_title, "the English demo title moved: update this test"
    demo.write_text(words.replace(english_title.group(0), f"  title: {GERMAN_TITLE}"), encoding="utf-8")

    web = project / ".web"
    server = SiteServer(free_port(), workdir, root=project, REFLEX_WEB_WORKDIR=str(web))
    build_in_own_web_folder(server, web, root=project)
    server.migrate()
    server.start()
    yield server
    server.stop()


def test_a_third_language_is_served_under_its_prefix_in_its_words(german_site):
    page = httpx.get(german_site.url + "/de/demo-nereo")
    assert page.status_code == 200
    assert '<html lang="de"' in page.text
    assert "Buchen Sie Ihre 30-minütige Nereo-Demo" in page.text
    # What is not translated yet reads as in the copied folder (here English).
    assert "Choose your 30-minute slot" in page.text
    # The two existing languages are untouched.
    french = httpx.get(german_site.url + "/demo-nereo")
    assert "Réservez votre démonstration Nereo de 30 minutes" in french.text
    assert "Buchen" not in french.text and '<html lang="fr"' in french.text
