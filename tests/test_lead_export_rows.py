"""The CSV file as a whole (beside test_lead_export.py, which holds each cell's rule): a byte-order
mark, the header, one row per lead with every cell through the formula rule and the phone column's
exception applied to that column only, `;` between cells, and the count of rows returned."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from marketing_site.db.leads import Lead
from marketing_site.services.lead_export import BOM, LEAD_COLUMNS, write_leads_csv


def _lead(number: int, **values) -> Lead:
    fields = {
        "id": number,
        "created_at": datetime(2026, 11, 27, 9, 0, tzinfo=UTC),
        "form": "ebook",
        "lang": "fr",
        "name": "Durand",
        "firstname": "Camille",
        "phone": "+33 1 23 45 67 89",
        "company": "Banque Delta",
        "email": f"camille.{number}@example.com",
        "idempotency_key": f"key-{number}",
    }
    return Lead(**(fields | values))


def test_the_file_has_its_mark_header_and_one_neutralised_row_per_lead():
    out = io.StringIO()
    leads = [_lead(1), _lead(2, name='=HYPERLINK("https://evil.example")', company="+33 1 23 45 67 89")]
    assert write_leads_csv(out, leads) == 2
    text = out.getvalue()
    assert text.startswith(BOM) and not text.startswith(BOM * 2)
    rows = list(csv.reader(io.StringIO(text.removeprefix(BOM)), delimiter=";"))
    assert rows[0] == list(LEAD_COLUMNS) and len(rows) == 3
    first, second = (dict(zip(LEAD_COLUMNS, row, strict=True)) for row in rows[1:])
    assert (first["id"], first["email"], first["phone"]) == ("1", "camille.1@example.com", "+33 1 23 45 67 89")
    assert second["name"] == '\'=HYPERLINK("https://evil.example")'
    # A phone number is left as it is in the phone column only: elsewhere `+` starts a formula.
    assert (second["phone"], second["company"]) == ("+33 1 23 45 67 89", "'+33 1 23 45 67 89")


def test_an_empty_export_is_its_mark_and_header():
    out = io.StringIO()
    assert write_leads_csv(out, []) == 0
    assert out.getvalue() == BOM + ";".join(LEAD_COLUMNS) + "\r\n"
