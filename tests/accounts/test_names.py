"""Look-alike names share a key (accounts.names)."""
import string
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from accounts.names import name_key


@given(st.text(alphabet=string.ascii_letters + string.digits + " ._-'", max_size=30))
def test_case_and_separators_do_not_matter(name):
    assert name_key(name) == name_key(name.swapcase())
    assert name_key(name) == name_key(name.replace(" ", "").replace(".", "_"))


@given(st.text(max_size=30))
def test_compatibility_forms_fold_alike(name):
    assert name_key(name) == name_key(unicodedata.normalize("NFKC", name))


@given(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=20))
def test_full_width_and_cyrillic_look_alikes_share_the_key(name):
    full_width = "".join(chr(ord(char) - ord("a") + ord("ａ")) for char in name)
    cyrillic = name.translate(str.maketrans("aeopcxy", "аеорсху"))
    assert name_key(full_width) == name_key(cyrillic) == name_key(name)
