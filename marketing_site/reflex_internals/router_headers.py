"""What a websocket event knows of the connection's peer.

Reflex's `router.session.client_ip` is the peer, or with `trusted_proxy_hops` set, an entry of
X-Forwarded-For. The site resolves the client itself (`services.client_address`, its own trusted
proxies), so it reads the raw peer, which Reflex 0.10.1 keeps only as the header-like entry
`asgi-scope-client` it adds to the connection's headers (`EventNamespace._build_static_router_data`).
A Reflex that drops that entry makes this fall back to `client_ip`; the tripwire test
(tests/test_reflex_internals.py) fails first.
"""

from __future__ import annotations

from typing import Any

PEER_ENTRY = "asgi-scope-client"


def peer_and_forwarded(router: Any) -> tuple[str, str]:
    """(the socket's peer address, its X-Forwarded-For header) from a state's `self.router`."""
    headers = router.headers.raw_headers
    return headers.get(PEER_ENTRY) or router.session.client_ip, headers.get("x-forwarded-for", "")
