"""Who the visitor is for the rate limits: the peer, or the last hop before our trusted proxies."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable


def visitor_address(
    peer: str, forwarded_for: Iterable[str], trusted_proxies: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]
) -> str:
    """Who the rate limits count: the peer, unless the peer is one of our trusted proxies.

    Then it is the last X-Forwarded-For hop that is not itself a trusted proxy: each proxy
    appends the address it saw, so the hops before it are whatever the visitor wrote.
    """
    trusted = tuple(trusted_proxies)

    def is_trusted(address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in trusted)

    if not is_trusted(peer):
        return peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer
    return peer
