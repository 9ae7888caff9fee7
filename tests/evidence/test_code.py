"""The code facts' own readings: how a stored value holds its tensors."""
from nb_autograd.evidence.code import Store, item_kind


def _store(method: str) -> Store:
    return Store(line=3, container="outputs", method=method, reads=frozenset({"step"}))


def test_an_appended_value_is_one_level_inside_its_container():
    assert item_kind({"list>dict"}, _store("append")) == "dict"
    assert item_kind({"dict>tuple"}, _store("setitem")) == "tuple"
    assert item_kind({"list"}, _store("append")) == ""           # a plain tensor appended
    assert item_kind({"list>dict", "list>tuple"}, _store("append")) == ""  # not one kind


def test_without_a_store_the_name_itself_is_read():
    assert item_kind({"tuple"}, None) == "tuple"
    assert item_kind({"tensor"}, None) == ""
    assert item_kind(set(), None) == ""
