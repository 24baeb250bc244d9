"""Message catalogues: same keys in both languages, English fallback for a missing key."""

from marketing_site import i18n


def test_catalogues_hold_the_same_keys():
    assert set(i18n.FR) == set(i18n.EN)
    assert all(value.strip() for value in [*i18n.FR.values(), *i18n.EN.values()])


def test_missing_key_falls_back_to_english(monkeypatch):
    monkeypatch.setitem(i18n.CATALOGUES, "fr", {})
    assert i18n.lookup("fr", "not_found.home") == i18n.EN["not_found.home"]
    assert i18n.lookup("de", "not_found.home") == i18n.EN["not_found.home"]
