"""The in-memory sliding window counts from the oldest hit it holds, and the per-email lead
limit counts an address whatever its letter case.

A window counted from the newest hit would never let a busy office's next hit in while its
colleagues keep submitting; an address keyed as typed would give `A@x` and `a@x` a budget each.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lead_payloads import lead_payload

from marketing_site.services.rate_limit import RateLimiter


def test_the_window_slides_from_the_oldest_hit():
    limiter = RateLimiter(limit=3, window=10)
    assert [limiter.hit("k", now=t) for t in (0, 4, 8)] == [None, None, None]
    assert limiter.hit("k", now=9) == pytest.approx(1)  # the hit at 0 leaves the window at 10
    # Hits keep coming every few seconds; each one frees a place as its oldest neighbour leaves.
    assert limiter.hit("k", now=10) is None
    assert limiter.hit("k", now=13) == pytest.approx(1)  # 4, 8, 10 in the window: 4 leaves at 14
    assert limiter.hit("k", now=14) is None
    assert limiter.hit("k", now=18) is None
    assert limiter.hit("k", now=19) == pytest.approx(1)


def test_a_hit_exactly_one_window_old_has_left_it():
    limiter = RateLimiter(limit=1, window=60)
    assert limiter.hit("k", now=100) is None
    assert limiter.hit("k", now=159.999) == pytest.approx(0.001)
    assert limiter.hit("k", now=160) is None


def test_keys_and_tokens_count_apart():
    limiter = RateLimiter(limit=1, window=60)
    assert limiter.hit("a", now=0) is None
    assert limiter.hit("b", now=0) is None
    assert limiter.hit("a", now=1) is not None
    # The same submission arriving twice (its token) is let through without counting again.
    tokened = RateLimiter(limit=2, window=60)
    assert tokened.hit("k", token="t1", now=0) is None
    assert tokened.hit("k", token="t1", now=1) is None
    assert tokened.hit("k", token="t2", now=2) is None
    assert tokened.hit("k", token="t3", now=3) == pytest.approx(57)


@given(st.lists(st.floats(min_value=0, max_value=5, allow_nan=False), min_size=1, max_size=40))
def test_never_more_than_the_limit_in_any_window_and_the_wait_is_exact(gaps):
    """Whatever the rhythm of the hits: a hit is allowed exactly when fewer than `limit` allowed
    hits lie in the last `window` seconds, and a refused one is told when the oldest leaves."""
    limit, window = 3, 10.0
    limiter = RateLimiter(limit, window)
    allowed: list[float] = []
    now = 0.0
    for gap in gaps:
        now += gap
        inside = [t for t in allowed if t > now - window]
        wait = limiter.hit("k", now=now)
        if len(inside) < limit:
            assert wait is None
            allowed.append(now)
        else:
            assert wait == pytest.approx(max(min(inside) + window - now, 0.001))


def test_the_email_limit_counts_an_address_whatever_its_letter_case(service):
    """RATE_LIMIT_PER_EMAIL is 3 in the `service` fixture; each lead comes from its own address
    (under the per-IP limit) with other details (not a duplicate of the one before)."""
    spellings = ["Jeanne.Martin@example.com", "jeanne.martin@example.com", "JEANNE.MARTIN@example.com"]
    for number, email in enumerate(spellings):
        result = service.submit_lead(lead_payload(email=email, company=f"Banque {number}"), f"10.0.1.{number}")
        assert result.status == "accepted", email
    refused = service.submit_lead(lead_payload(email="jEANNE.mARTIN@example.com", company="Banque 9"), "10.0.1.9")
    assert refused.status == "rate_limited" and refused.retry_after > 0
    other = service.submit_lead(lead_payload(email="paul.martin@example.com", company="Banque 9"), "10.0.1.10")
    assert other.status == "accepted"
