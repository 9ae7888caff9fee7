"""The tensors a value holds, as the user's code names them: the walk that finds which variable,
attribute, container or closure keeps a graph (read at a failure and by the watcher's samples)."""
from __future__ import annotations

import ast
import re
import types

import torch

from .user_code import MAX_ITEMS, NOT_OBJECTS, hooks, user_class


def tensor_values(path: str, value, idents: set[str], depth: int = 0):
    """(path, tensor) pairs inside a value: tensors, sequences, dicts, object attributes."""
    if isinstance(value, torch.Tensor):
        yield path, value
    elif depth > 1:
        if depth == 2 and (isinstance(value, list) or type(value).__name__ == "deque"):
            yield from _transitions(path, value)
        elif depth == 2 and isinstance(value, tuple) and len(value) <= 8:  # a transition in an object's list
            yield from ((f"{path}[{j}]", t) for j, t in enumerate(value) if isinstance(t, torch.Tensor))
        return
    elif isinstance(value, (list, tuple)) or type(value).__name__ == "deque":
        for i, item in _sampled(value):
            yield from tensor_values(f"{path}[{i}]", item, idents, depth + 1)
    elif isinstance(value, dict):
        for key in list(value)[:MAX_ITEMS]:
            yield from tensor_values(f"{path}[{key!r}]", value[key], idents, depth + 1)
    elif isinstance(value, torch.nn.Module):  # a module keeps tensors of its own (a target, a history)
        for sub_path, module in list(value.named_modules())[:MAX_ITEMS]:
            own = user_class(type(module))  # a class in a user file: its attribute names are the user's too
            if not own and (wanted := _attribute_names(idents)).isdisjoint(module.__dict__) and wanted.isdisjoint(module._buffers):
                names = ()  # torch's own module, no attribute the user names (most of a model: read on sampled steps)
            else:
                attrs = {**vars(module), **module._buffers}  # a history kept as a buffer and reassigned
                names = [a for a in attrs if (a in idents or own) and a not in _MODULE_OWN]
            for name in [a for a in names if _tensors_only(attrs[a]) or _logged(attrs[a]) or _user_object(attrs[a])][:MAX_ITEMS]:
                where = f"{path}.{sub_path}.{name}" if sub_path else f"{path}.{name}"
                if isinstance(attrs[name], torch.Tensor):
                    yield where, attrs[name]
                elif _user_object(attrs[name]):  # a statistic the module keeps in an object of the user's class
                    yield from ((f"{where}.{k}", t) for k, t in list(vars(attrs[name]).items())[:MAX_ITEMS]
                                if isinstance(t, torch.Tensor) and k in idents)
                elif _listed(attrs[name]):  # outputs kept for the epoch's end (`self.step_outputs.append(log)`)
                    yield from _logged_values(where, attrs[name])
                elif isinstance(attrs[name], dict):  # a cache of results by key (`self.cache[word]`)
                    yield from ((f"{where}[{k!r}]", t) for k, t in list(attrs[name].items())[:MAX_ITEMS])
                else:  # a state kept as a pair (`self.hidden = (h, c)`)
                    yield from ((f"{where}[{i}]", t) for i, t in enumerate(attrs[name]))
            for hook in hooks(module):
                yield from _closure_values(hook, idents, depth)
    elif isinstance(value, types.FunctionType):  # a hook or helper that closes over a list
        yield from _closure_values(value, idents, depth)
    elif depth <= 1 and hasattr(value, "__dict__") and not isinstance(value, NOT_OBJECTS):  # pipe.scheduler.ets
        try:
            attrs = vars(value)
        except TypeError:
            return
        for name in [a for a in attrs if a in idents][:MAX_ITEMS]:
            yield from tensor_values(f"{path}.{name}", attrs[name], idents, depth + 1)


_MODULE_OWN = frozenset(vars(torch.nn.Module())) - {"training"}  # torch's own bookkeeping in every module's __dict__
_ATTRIBUTE_NAMES: list = [None, frozenset()]  # the last identifiers read, and those a module attribute may hold a tensor under


def _attribute_names(idents) -> frozenset:
    """`idents` less torch's bookkeeping and the `training` flag, computed once per cell's names."""
    if _ATTRIBUTE_NAMES[0] is not idents:
        _ATTRIBUTE_NAMES[:] = [idents, frozenset(idents) - _MODULE_OWN - {"training"}]
    return _ATTRIBUTE_NAMES[1]


def _sampled(value):
    """(index, item) of a sequence's first and last MAX_ITEMS items (all of a short one)."""
    items = list(value)
    n = len(items)
    indexes = range(n) if n <= 2 * MAX_ITEMS else [*range(MAX_ITEMS), *range(n - MAX_ITEMS, n)]
    return [(i, items[i]) for i in indexes]


def _transitions(path: str, value):
    """The tensors of a list kept on an object, or of its short tuples (a meter's running sums,
    `self._sum[idx] += v`; a replay memory's transitions, `self.memory.append((state, log_prob,
    reward))`): one level deeper than other containers."""
    for i, item in _sampled(value):
        if isinstance(item, torch.Tensor):
            yield f"{path}[{i}]", item
        elif isinstance(item, tuple) and len(item) <= 8:
            yield from ((f"{path}[{i}][{j}]", t) for j, t in enumerate(item) if isinstance(t, torch.Tensor))


def _logged(value) -> bool:
    """A list (or deque) a module fills with tensors, with dicts holding some (a Lightning
    module's `training_step_outputs`) or with short tuples (a policy's `(reward, prob)`
    transitions, a memory bank's named tuples), read on its first and last items."""
    if not _listed(value) or not value:
        return False
    return all(isinstance(v, torch.Tensor) or isinstance(v, dict) and any(isinstance(t, torch.Tensor) for t in v.values())
               or isinstance(v, tuple) and len(v) <= 8 and any(isinstance(t, torch.Tensor) for t in v)
               for v in (value[0], value[-1]))


def _listed(value) -> bool:
    """A list, or a deque (a memory bank of the last n estimates: `deque(maxlen=n)`)."""
    return isinstance(value, list) or type(value).__name__ == "deque"


def _logged_values(path: str, value: list):
    for i, item in _sampled(value):
        if isinstance(item, torch.Tensor):
            yield f"{path}[{i}]", item
        elif isinstance(item, dict):
            yield from ((f"{path}[{i}][{k!r}]", t) for k, t in list(item.items())[:MAX_ITEMS] if isinstance(t, torch.Tensor))
        elif isinstance(item, tuple):  # a transition (`self.data.append((r, prob[a]))`)
            yield from ((f"{path}[{i}][{j}]", t) for j, t in enumerate(item) if isinstance(t, torch.Tensor))


def _user_object(value) -> bool:
    """An instance of a class the user wrote, not a module (`self.tensor_s = TensorStatistic(...)`)."""
    return not isinstance(value, (torch.nn.Module, torch.Tensor, *NOT_OBJECTS)) and hasattr(value, "__dict__") \
        and user_class(type(value))


def _tensors_only(value) -> bool:
    """A tensor, a short tuple of tensors, or a dict of tensors."""
    if isinstance(value, dict):
        return 0 < len(value) and all(isinstance(t, torch.Tensor) for t in list(value.values())[:MAX_ITEMS])
    return isinstance(value, torch.Tensor) or isinstance(value, tuple) and 0 < len(value) <= 4 and all(
        isinstance(t, torch.Tensor) for t in value)


def _closure_values(fn, idents: set[str], depth: int):
    """Tensors in the variables a function closes over, named as the code names them."""
    code, cells = getattr(fn, "__code__", None), getattr(fn, "__closure__", None) or ()
    if code is None or depth > 0:
        return
    for name, cell in zip(code.co_freevars, cells):
        if name not in idents:
            continue
        try:
            content = cell.cell_contents
        except ValueError:  # not bound yet
            continue
        if not isinstance(content, (types.FunctionType, torch.nn.Module)):
            yield from tensor_values(name, content, idents, depth + 1)


def container_of(value, path: str) -> str:
    """How `path` holds its tensor, outermost first, joined by ">": "namedtuple" for `state[0]`
    of a NamedTuple, "dict>tuple" for `states[0][1]` of a dict of (h, c) pairs, "tensor" for a
    plain name. Read from instance dicts and the containers themselves (no user code runs)."""
    base, _, indexes = path.partition("[")
    for attr in base.split(".")[1:]:
        own = getattr(value, "__dict__", None)
        buffers = own.get("_buffers") if isinstance(own, dict) else None
        if isinstance(own, dict) and attr in own:
            value = own[attr]
        elif isinstance(buffers, dict) and attr in buffers:
            value = buffers[attr]
        else:
            return ""
    kinds = [_kind(value)]
    for key in _INDEX.findall("[" + indexes if indexes else ""):
        try:
            value = value[ast.literal_eval(key)]
        except Exception:
            return ">".join(kinds)
        if isinstance(value, torch.Tensor):
            break
        kinds.append(_kind(value))
    return ">".join(kinds)


_INDEX = re.compile(r"\[([^\]]*)\]")


def _kind(value) -> str:
    if isinstance(value, torch.Tensor):
        return "tensor"
    if isinstance(value, tuple):
        return "namedtuple" if hasattr(type(value), "_fields") else "tuple"
    if isinstance(value, (list, dict)):
        return "list" if isinstance(value, list) else "dict"
    return "deque" if type(value).__name__ == "deque" else "object"
