"""The UI messages (`content/<lang>/messages.yaml`): the same keys in French and English, and no
empty message."""

from marketing_site.content.words import words


def _flat(tree: dict, prefix: str = "") -> dict[str, object]:
    """The messages by their i18n key ("login.title")."""
    flat: dict[str, object] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


FR = _flat(words("fr", "messages"))
EN = _flat(words("en", "messages"))


def test_french_and_english_have_the_same_keys():
    assert sorted(set(FR) - set(EN)) == []
    assert sorted(set(EN) - set(FR)) == []


def test_no_message_is_empty():
    empty = [
        f"{lang}:{key}"
        for lang, messages in (("fr", FR), ("en", EN))
        for key, value in messages.items()
        if not isinstance(value, str) or not value.strip()
    ]
    assert empty == []
