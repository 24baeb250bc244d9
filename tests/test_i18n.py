"""UI messages: same keys in both languages, English fallback for a missing key."""

from marketing_site import i18n
from marketing_site.content import words as words_module


def _keys(tree: dict, prefix: str = "") -> set[str]:
    """The i18n keys ("login.title") of a messages file."""
    keys: set[str] = set()
    for key, value in tree.items():
        keys |= _keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key}
    return keys


def test_catalogues_hold_the_same_keys():
    fr, en = _keys(words_module.words("fr", "messages")), _keys(words_module.words("en", "messages"))
    assert fr == en
    assert all(i18n.lookup(lang, key).strip() for lang in ("fr", "en") for key in fr)


def test_missing_key_falls_back_to_english(monkeypatch):
    english = i18n.lookup("en", "not_found.home")
    read = words_module._yaml_file
    # As if the French file lacked every message.
    monkeypatch.setattr(
        words_module, "_yaml_file", lambda lang, name: {} if (lang, name) == ("fr", "messages") else read(lang, name)
    )
    assert i18n.lookup("fr", "not_found.home") == english
    assert i18n.lookup("de", "not_found.home") == english
