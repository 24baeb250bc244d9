"""Hypothesis strategies for IP addresses in every form a server or a proxy writes them (a helper
module, not a test module): tests/test_client_address.py and tests/test_logging.py draw from them."""

from __future__ import annotations

import ipaddress

from hypothesis import strategies as st

ports = st.integers(1, 65535)


def ipv6_forms(address: ipaddress.IPv6Address) -> st.SearchStrategy[str]:
    """Every way a server or a proxy writes an IPv6 address."""
    plain = [address.compressed, address.exploded, address.compressed.upper(), address.exploded.upper()]
    low = int(address) & 0xFFFFFFFF
    high = ipaddress.IPv6Address(int(address) - low).exploded.rsplit(":", 2)[0]
    plain.append(f"{high}:{ipaddress.IPv4Address(low)}")  # the last 32 bits as a dotted quad
    return st.one_of(
        st.sampled_from(plain),
        st.builds(lambda text, zone: f"{text}%{zone}", st.sampled_from(plain), st.sampled_from(["eth0", "1", "en0.1"])),
        st.builds(lambda text, port: f"[{text}]:{port}", st.sampled_from(plain), ports),
        st.builds(lambda text: f"[{text}]", st.sampled_from(plain)),
    )


def ipv4_forms(address: ipaddress.IPv4Address) -> st.SearchStrategy[str]:
    """Every way a server or a proxy writes an IPv4 address, the dual-stack mapped ones included."""
    mapped = ipaddress.IPv6Address(f"::ffff:{address}")
    return st.one_of(
        st.sampled_from([str(address), f"::ffff:{address}", f"::FFFF:{address}", mapped.exploded]),
        st.builds(lambda port: f"{address}:{port}", ports),
        st.builds(lambda port: f"[::ffff:{address}]:{port}", ports),
    )


# Global unicast space without the IPv4-mapped block (those are IPv4 visitors).
ipv6_addresses = st.integers(0x2000 << 112, (0x4000 << 112) - 1).map(ipaddress.IPv6Address)
ipv4_addresses = st.integers(0x01000000, 0xDFFFFFFF).map(ipaddress.IPv4Address)
