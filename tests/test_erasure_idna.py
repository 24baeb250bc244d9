"""Issue 39, finding 7: the IDNA 2008 and IDNA 2003 writings of a domain missed the person at
erasure. IDNA 2008 (what intake stores) keeps ß and the final sigma ς; IDNA 2003 maps them to ss
and σ, so `ada@faß.example` and `ada@fass.example` are one mailbox to a mail program of either
age. Whichever of them the person gives, the console's lookup and erasure reach every row held
under any of them (leads.email_lookup_forms, console._with_stored_writings), and nobody else's."""

from __future__ import annotations

import pytest
from lead_payloads import lead_payload, stored_rows


def _operator():
    from marketing_site.services.console import Operator

    return Operator(sub="ops@example.test", email="ops@example.test")


WRITINGS = {
    # stored by intake (each a lead, a sales mail whose Reply-To names it in IDNA form)
    "ada": ["ada@faß.example", "ada@fass.example", "ADA@FASS.EXAMPLE"],
    "zoe": ["zoe@ελλάς.example", "zoe@ελλάσ.example"],
}


OTHERS_WITH_THE_LOCAL_PART = ("ada@other.example", "zoe@other.example")


@pytest.fixture
def people(service):
    for number, writings in enumerate(WRITINGS.values()):
        for index, email in enumerate(writings):
            payload = lead_payload(email=email, company=f"Banque {number}-{index}")
            assert service.submit_lead(payload, f"10.0.9.{number * 10 + index}").status == "accepted"
    # Someone else at the same domains, or with the same local part elsewhere: never reached.
    for index, email in enumerate(
        ("bob@faß.example", "bob@fass.example", "adam@fass.example", *OTHERS_WITH_THE_LOCAL_PART)
    ):
        assert service.submit_lead(lead_payload(email=email, company=f"Autre {index}"), f"10.0.8.{index}").status == (
            "accepted"
        )


@pytest.mark.parametrize(
    ("person", "asked"),
    [
        ("ada", "ada@fass.example"),  # IDNA 2003's writing; intake stored ß for the first lead
        ("ada", "Ada@FAß.example"),
        ("ada", "ada@xn--fa-hia.example"),  # IDNA 2008's ASCII form of faß
        ("zoe", "zoe@ελλάσ.example"),  # σ asked for, ς stored
        ("zoe", "ZOE@ΕΛΛΆΣ.EXAMPLE"),
        ("zoe", "zoe@xn--hxarsa0b.example"),  # ελλάς in IDNA 2008
    ],
)
def test_every_writing_of_the_domain_reaches_the_person_and_nobody_else(people, person, asked):
    from marketing_site.db.leads import Lead, OutboxMessage
    from marketing_site.services.console import erase_subject, subject_data

    theirs = len(WRITINGS[person])
    assert len(subject_data(_operator(), asked, "lookup")["lead"]) == theirs
    assert len(subject_data(_operator(), asked, "lookup")["outbox_message"]) == theirs
    erased = erase_subject(_operator(), asked)
    assert (erased["lead"], erased["outbox_message"]) == (theirs, theirs)
    left = {lead.email for lead in stored_rows(Lead)}
    assert not [email for email in left if email.startswith(f"{person}@") and not email.endswith("@other.example")]
    assert {"bob@faß.example", "bob@fass.example", "adam@fass.example", *OTHERS_WITH_THE_LOCAL_PART} <= left
    theirs_left = [m for m in stored_rows(OutboxMessage) if m.reply_to.lower().startswith(f"{person}@")]
    assert [m.reply_to.lower() for m in theirs_left] == [f"{person}@other.example"]
