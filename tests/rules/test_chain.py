"""The persistent list the match states share their rounds through."""

import pytest

from rules.chain import EMPTY, Chain


def test_a_chain_reads_like_the_tuple_of_its_items():
    c = EMPTY.push("a").push("b").push("c")
    assert len(c) == 3 and c[0] == "a" and c[-1] == "c" and c[1] == "b"
    assert list(c) == ["a", "b", "c"] and list(reversed(c)) == ["c", "b", "a"]
    assert c[1:] == ("b", "c") and c[-2:] == ("b", "c") and c[::-1] == ("c", "b", "a")
    assert c[5:] == () and c == ("a", "b", "c") and c == Chain("abc")
    assert hash(c) == hash(("a", "b", "c"))
    assert not EMPTY and c
    with pytest.raises(IndexError):
        c[3]
    with pytest.raises(IndexError):
        _ = EMPTY.last


def test_changing_the_end_makes_a_new_chain_sharing_the_rest():
    c = Chain([1, 2, 3])
    d = c.with_last(9)
    assert c == (1, 2, 3) and d == (1, 2, 9)
    assert d.rest is c.rest, "everything before the last item is shared, not copied"
    assert c.push(4).rest is c
    assert c != d and c != Chain([1, 2]) and c != "abc"
    with pytest.raises(AttributeError):
        c._size = 0  # type: ignore[misc]
