"""The walk that names where a value keeps its tensors."""
import types

import torch

from nb_autograd.capture.tensor_values import container_of, tensor_values


class Meter:
    def __init__(self):
        self.sums = [torch.zeros(()), torch.ones(())]


def test_paths_follow_the_code_that_names_them():
    x = torch.ones(2)
    found = dict(tensor_values("state", {"h": x, "pair": (x, x)}, {"state"}))
    assert set(found) == {"state['h']", "state['pair'][0]", "state['pair'][1]"}
    assert all(t is x for t in found.values())


def test_object_attributes_are_read_only_under_names_the_code_uses():
    meter = Meter()
    assert [p for p, _ in tensor_values("meter", meter, {"meter", "sums"})] == ["meter.sums[0]", "meter.sums[1]"]
    assert list(tensor_values("meter", meter, {"meter"})) == []


def test_a_replay_buffers_transitions_on_a_plain_object_are_read():
    buf = types.SimpleNamespace(data=[(torch.ones(2), 3, torch.zeros(2))])
    assert [p for p, _ in tensor_values("buf", buf, {"buf", "data"})] == ["buf.data[0][0]", "buf.data[0][2]"]


def test_a_module_attribute_the_user_names_is_read():
    lin = torch.nn.Linear(2, 2)
    lin.history = torch.zeros(3)
    assert [p for p, _ in tensor_values("model", lin, {"model", "history"})] == ["model.history"]


def test_how_a_path_holds_its_tensor_is_read_from_the_values_themselves():
    x = torch.ones(2)
    outputs = [{"loss": x, "metrics": {}}]
    assert container_of(outputs, "outputs[0]['loss']") == "list>dict"
    assert container_of((x, x), "pair[1]") == "tuple"
    assert container_of(x, "x") == "tensor"
    meter = Meter()
    assert container_of(meter, "meter.sums[0]") == "list"
    assert container_of(meter, "meter.missing[0]") == ""


def test_a_memory_bank_kept_as_a_deque_of_named_tuples_is_read():
    import collections

    Entry = collections.namedtuple("Entry", ["estimate", "event"])
    lin = torch.nn.Linear(2, 2)
    lin.memory_q = collections.deque([Entry(torch.ones(()), torch.zeros(())) for _ in range(3)], maxlen=4)
    paths = [p for p, _ in tensor_values("model", lin, {"model", "memory_q"})]
    assert paths == [f"model.memory_q[{i}][{j}]" for i in range(3) for j in range(2)]


class Statistic:
    def __init__(self):
        self._tensor = torch.zeros(2)
        self.samples = 3


def test_a_statistic_a_module_keeps_in_an_object_of_the_users_class_is_read():
    lin = torch.nn.Linear(2, 2)
    lin.tensor_s = Statistic()
    found = [p for p, _ in tensor_values("net", lin, {"net", "tensor_s", "_tensor", "samples"})]
    assert found == ["net.tensor_s._tensor"]
    assert [p for p, _ in tensor_values("net", lin, {"net", "tensor_s"})] == []  # `_tensor` named nowhere
