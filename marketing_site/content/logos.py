"""A logo as the logo row shows it (components/logo_row.py): partners, clients, certifications."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Logo:
    # The organisation's name: the logo's text alternative (and the link's name when it links).
    name: str
    # Its file under assets/ ("/partners/acme.svg"), drawn inside the row's box (160×64, kept whole).
    image: str
    # Its site, when the logo links there (an https address).
    url: str = ""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError(f"logo {self.image!r}: a logo needs its organisation's name (its text alternative)")
        if not self.image.startswith("/"):
            raise ValueError(f"logo {self.name!r}: the image is a path under assets/, starting with /")
        if self.url and not self.url.startswith("https://"):
            raise ValueError(f"logo {self.name!r}: its link is an https address, not {self.url!r}")
