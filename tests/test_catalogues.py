"""The UI message catalogues: the same keys in French and English, and no empty message."""

from marketing_site.i18n.en import MESSAGES as EN
from marketing_site.i18n.fr import MESSAGES as FR


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
