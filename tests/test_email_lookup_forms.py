"""The forms under which the site may hold an address (`leads.email_lookup_forms`), the set a
data-subject lookup or erasure searches: known answers for each way of writing an address that
intake or a mail header may have stored (letter case, NFD, blanks around it, punycode or
Unicode domain, IDNA 2003's ß → ss and ς → σ), and what comes back for what no form can hold.
A form missing from the set is a person's row an erasure leaves behind; a form too many is
someone else's row it deletes. tests/test_erasure_idna.py follows the same writings through
the console's lookup and erasure on stored leads."""

from __future__ import annotations

import unicodedata

import pytest

from marketing_site.services.leads import _idna2003_forms, email_lookup_forms

FASS = {"ada@faß.example", "ada@xn--fa-hia.example", "ada@fass.example"}
ELLAS = {"zoe@ελλάς.example", "zoe@xn--hxarsa0b.example", "zoe@ελλάσ.example", "zoe@xn--hxarsa5b.example"}


@pytest.mark.parametrize(
    ("given", "forms"),
    [
        # IDNA 2008 (what intake stores: ß kept), its ASCII form, IDNA 2003's mapping of it.
        ("Ada@Faß.Example", FASS),
        ("ada@xn--fa-hia.example", FASS),
        ("ADA@XN--FA-HIA.EXAMPLE", FASS),
        # The final sigma: ς kept by IDNA 2008, σ by IDNA 2003, each with its ASCII form.
        ("zoe@ελλάς.example", ELLAS),
        ("ZOE@XN--HXARSA0B.EXAMPLE", ELLAS),
        # NFD typed (é as e and a combining accent): the NFC forms intake stores.
        (unicodedata.normalize("NFD", "Zoé@Café.example"), {"zoé@café.example", "zoé@xn--caf-dma.example"}),
        # Blanks a paste brings (tab, no-break spaces, a line break) are not part of the address.
        ("\tAda@fass.example \u00a0\u202f\r\n", {"ada@fass.example"}),
        (" \u00a0ada@fass.example", {"ada@fass.example"}),
        # Only blanks are taken off the ends: letters stay, whatever they are.
        ("Xavier@Example.X", {"xavier@example.x"}),
        # IDNA 2003 has no form of ß's ss: nothing is added, nothing lost.
        ("ada@fass.example", {"ada@fass.example"}),
    ],
)
def test_every_form_of_an_address_is_found_from_any_writing_of_it(given, forms):
    assert email_lookup_forms(given) == forms


@pytest.mark.parametrize(
    ("given", "forms"),
    [
        # A provider's claim the form would refuse: its own lower-case self.
        ("User@LocalHost", {"user@localhost"}),
        # Punycode that does not decode: kept as written, no IDNA 2003 form.
        ("Ada@XN--ZZ.example", {"ada@xn--zz.example"}),
        # A label over 63 characters: no IDNA form of either age.
        ("ada@" + "A" * 64 + ".example", {"ada@" + "a" * 64 + ".example"}),
        ("No-At-All", {"no-at-all"}),
    ],
)
def test_an_address_no_mail_header_can_carry_still_gives_its_lower_case_self(given, forms):
    assert email_lookup_forms(given) == forms


@pytest.mark.parametrize("given", ["", None, " \u00a0\u202f\t\r\n"])
def test_nothing_given_finds_nothing(given):
    assert email_lookup_forms(given) == frozenset()


@pytest.mark.parametrize(
    ("domain", "forms"),
    [
        ("faß.example", {"fass.example"}),  # nameprep maps ß to ss: ASCII and readable are one
        ("xn--fa-hia.example", {"fass.example"}),  # punycode read first, then mapped
        ("FASS.Example", {"fass.example"}),
        ("ελλάς.example", {"xn--hxarsa5b.example", "ελλάσ.example"}),
        ("xn--hxarsa0b.example", {"xn--hxarsa5b.example", "ελλάσ.example"}),
        ("Café.Example", {"xn--caf-dma.example", "café.example"}),
        ("xn--zz.example", set()),  # not punycode of anything: no form
        ("a" * 64 + ".example", set()),  # over a label's 63 characters
    ],
)
def test_the_idna_2003_forms_of_a_domain(domain, forms):
    assert _idna2003_forms(domain) == forms
