"""Who the visitor is for the rate limits: the peer, or the last hop before our trusted proxies,
counted per IPv4 address and per IPv6 network (RATE_LIMIT_IPV6_PREFIX, a /64 by default).

An IPv6 subscriber is handed a whole /64 at least (RFC 6177), and picks any address in it at
will: counted per address, one visitor would be 2^64 visitors. Every per-address limit (leads,
bookings, password resets, audience beacons, connection reports) takes its key from
`visitor_address`, in memory and in Redis alike.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from marketing_site.settings import get_settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_address(text: str) -> Address | None:
    """An IP address in any form a server or a proxy writes it, or None.

    Accepted: IPv4 (`203.0.113.7`, `203.0.113.7:443`), IPv6 compressed or full, any case, with
    a zone (`fe80::1%eth0`) or an embedded IPv4, bracketed with or without a port
    (`[2001:db8::1]:443`). An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, what a dual-stack
    socket reports for an IPv4 client) is that IPv4 address.
    """
    text = text.strip()
    if text.startswith("["):
        host, closed, rest = text[1:].partition("]")
        if not closed or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        text = host
    elif text.count(":") == 1:  # IPv4 with a port
        host, _, port = text.partition(":")
        if not port.isdigit():
            return None
        text = host
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def rate_limit_client(address: Address, ipv6_prefix: int) -> str:
    """The key one visitor's address is counted under: an IPv4 address itself, an IPv6
    address's network of `ipv6_prefix` leading bits (`2001:db8:1:2::/64`), zone dropped."""
    if isinstance(address, ipaddress.IPv4Address):
        return str(address)
    host_bits = 128 - ipv6_prefix
    return str(ipaddress.IPv6Network(((int(address) >> host_bits) << host_bits, ipv6_prefix)))


def visitor_address(
    peer: str,
    forwarded_for: Iterable[str],
    trusted_proxies: Iterable[Network],
    ipv6_prefix: int | None = None,
) -> str:
    """Who the rate limits count (see `rate_limit_client`): the peer, unless the peer is one
    of our trusted proxies.

    Then it is the last X-Forwarded-For hop that is not itself a trusted proxy: each proxy
    appends the address it saw, so the hops before it are whatever the visitor wrote. A peer
    that is no address at all (a test client) is counted under its name.
    """
    if ipv6_prefix is None:
        ipv6_prefix = get_settings().rate_limit_ipv6_prefix
    trusted = tuple(trusted_proxies)

    def is_trusted(address: Address | None) -> bool:
        return address is not None and any(address in network for network in trusted)

    peer_address = parse_address(peer)
    if peer_address is None:
        return peer
    counted = peer_address
    if is_trusted(peer_address):
        hops = [hop.strip() for header in forwarded_for for hop in header.split(",") if hop.strip()]
        for hop in reversed(hops):
            hop_address = parse_address(hop)
            if not is_trusted(hop_address):
                # Nothing usable from the proxy: count the proxy, never a made-up value.
                counted = hop_address or peer_address
                break
    return rate_limit_client(counted, ipv6_prefix)
