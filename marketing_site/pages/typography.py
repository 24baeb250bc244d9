"""French typography for page copy: no-break spaces before « : ; ! ? % » and after « and n°.

Amounts keep their plain spaces ("2 147 001,10 €"), as they are written and searched for.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_FRENCH_SPACES = re.compile(r" (?=[:;!?%»])|(?<=«) |(?<=n°) ")


def french_spacing(value, keep: Collection[str] = ()):
    """`value` (a string, or a dict or list of them, nested) with French no-break spaces.

    Values under a key in `keep` (attribute values, mail subjects) stay as written;
    anything that is not text (a route, a number) is returned unchanged.
    """
    if isinstance(value, str):
        return _FRENCH_SPACES.sub("\u00a0", value)
    if isinstance(value, list):
        return [french_spacing(item, keep) for item in value]
    if isinstance(value, dict):
        return {k: v if k in keep else french_spacing(v, keep) for k, v in value.items()}
    return value
