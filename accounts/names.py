"""When two names would look the same at a table.

:func:`name_key` folds a name to what a reader sees: Unicode compatibility forms (full-width
"Ａ" is "A"), case, letters of other scripts drawn like Latin ones (Cyrillic "а" is "a", from
Unicode's confusables list as shipped by ``confusable_homoglyphs``), the digits 0 and 1 read
as "o" and "l", and the separators . _ - ' and spaces. Two names with the same key are the
same name.

>>> name_key("Alice") == name_key("аlice") == name_key("Ａlice") == name_key("A1ice") == name_key("a.lice")
True
>>> name_key("Alice") == name_key("Alina")
False
"""
import functools
import unicodedata

from confusable_homoglyphs import confusables

_SEPARATORS = set(" ._-'")
_READ_ALIKE = {"0": "o", "1": "l"}


@functools.lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    """``char``, or the plain ASCII letter or digit it is drawn like."""
    if char.isascii():
        return char
    for homoglyph in confusables.confusables_data.get(char, ()):
        if homoglyph["c"].isascii() and homoglyph["c"].isalnum():
            return homoglyph["c"]
    return char


def name_key(name: str) -> str:
    """The form of ``name`` two look-alike names share (see the module docstring)."""
    out = []
    for char in unicodedata.normalize("NFKC", name or ""):
        if char in _SEPARATORS or unicodedata.category(char).startswith("Z"):
            continue
        for folded in _latin(char).casefold():  # before casefolding: "В" is drawn like "B", "в" is not
            out.append(_READ_ALIKE.get(folded, folded))
    return "".join(out)
