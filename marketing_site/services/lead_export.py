"""Leads and demo bookings as spreadsheet files: the one CSV writer of the console's exports and
`ops export`.

Anyone can store text through the public lead API, and a spreadsheet runs a cell that starts
like a formula (`=1+HYPERLINK(...)`, `+1+cmd|' /C calc'!A0`, `@SUM(...)`). Every cell gets the
OWASP rule: a value starting with `= + - @`, a tab or a carriage return (or the full-width
`＝ ＋ － ＠`, which some spreadsheets read as their ASCII twins) is prefixed with `'`, which
makes the spreadsheet show it as text. The one exception is a phone number that matches the
lead form's phone rule (`+33 1 23 45 67 89`): only digits, spaces and punctuation, nothing a
spreadsheet could call, so it stays readable.

The file opens with a double click in a French Excel: UTF-8 with a byte-order mark (else
accents are read as Windows-1252) and `;` between cells (the list separator of a French
Windows, where `,` is the decimal mark).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from marketing_site.db.leads import Lead
from marketing_site.services.leads import FIELD_NAMES, PHONE_PATTERN

# The columns: the form fields (services.leads.FormFields) in their order, then
# where the visit came from (the content and term tags stay in the console and the mail).
LEAD_COLUMNS = (
    "id",
    "created_at",
    "form",
    "lang",
    *FIELD_NAMES,
    "flags",
    "landing_page",
    "referrer",
    "utm_source",
    "utm_medium",
    "utm_campaign",
)
DELIMITER = ";"
BOM = "\ufeff"
# What a spreadsheet may take for the start of a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_PHONE = re.compile(PHONE_PATTERN)


def csv_cell(value: Any, column: str = "") -> str:
    """One cell's text, never read as a formula by a spreadsheet."""
    text = "" if value is None else str(value)
    if not text.startswith(FORMULA_STARTS):
        return text
    if column == "phone" and _PHONE.fullmatch(text):
        return text
    return "'" + text


def write_rows(out: TextIO, columns: Iterable[str], rows: Iterable[Mapping[str, Any]]) -> int:
    """Rows as CSV (byte-order mark, header, one line per row, every cell through `csv_cell`);
    returns how many rows."""
    columns = tuple(columns)
    out.write(BOM)
    writer = csv.writer(out, delimiter=DELIMITER)
    writer.writerow(columns)
    count = 0
    for row in rows:
        writer.writerow([csv_cell(row.get(column), column) for column in columns])
        count += 1
    return count


def write_leads_csv(out: TextIO, leads: Iterable[Lead]) -> int:
    """Leads as CSV (byte-order mark, header, one row per lead); returns how many rows."""
    return write_rows(out, LEAD_COLUMNS, ({column: getattr(lead, column) for column in LEAD_COLUMNS} for lead in leads))
