"""The return path's bound and character rule at their exact edges (beside test_return_paths.py,
which holds every open-redirect shape): a value of exactly MAX_LENGTH characters is kept whole,
query included; a longer one loses everything from its first `?` or `#`, however many follow; the
printable ASCII just above the space is kept."""

from __future__ import annotations

import pytest

from marketing_site.services.return_paths import MAX_LENGTH, safe_return_path


def test_a_value_of_exactly_the_bound_keeps_its_query_and_fragment():
    for tail in ("?q=1", "#top"):
        value = "/" + "a" * (MAX_LENGTH - 1 - len(tail)) + tail
        assert len(value) == MAX_LENGTH
        assert safe_return_path(value) == value


@pytest.mark.parametrize(
    "extra", ["?q=1?r=" + "x" * 600, "?q=" + "x" * 600 + "?r", "#a#" + "x" * 600, "#" + "x" * 600 + "#b"]
)
def test_an_over_long_value_is_cut_at_its_first_query_or_fragment_mark(extra):
    path = "/" + "a" * (MAX_LENGTH - 1)
    assert safe_return_path(path + extra) == path


@pytest.mark.parametrize("value", ["/a!b", '/say"hi"', "/p?x=!"])
def test_printable_characters_just_above_the_space_are_kept(value):
    assert safe_return_path(value) == value
