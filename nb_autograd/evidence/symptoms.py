"""Error message -> symptom id. One table, matched in order; None when not ours.

The messages also carry facts the rules quote back (versions, the tensor, its producer, the
devices and the argument): they are read here once, so rules never parse messages."""
from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS: tuple[tuple[str, str], ...] = (
    ("second_backward", r"Trying to backward through the graph a second time|saved tensors after they have already been freed"),
    ("inplace_modified", r"modified by an inplace operation"),
    ("no_grad_fn", r"does not require grad and does not have a grad_fn"),
    ("no_grad_fn", r"Inference tensors cannot be saved for backward"),  # made under inference_mode, read by training
    ("non_scalar", r"grad can be implicitly created only for (real )?scalar outputs"),
    ("leaf_inplace", r"a (view of a )?leaf Variable that requires grad (is being|has been) used in an in-place operation"),
    ("numpy_on_grad", r"Can't call numpy\(\) on Tensor that requires grad"),
    ("device_mismatch", r"Expected all tensors to be on the same device"),
    ("ddp_unused", r"Expected to have finished reduction in the prior iteration"),
    ("ddp_ready_twice", r"Expected to mark a variable ready only once"),
)
_UNUSED = re.compile(r"Parameter indices which did not receive grad for rank \d+: ([\d ]+)")
_VERSIONS = re.compile(r"is at version (\d+); expected version (\d+)")
_TENSOR = re.compile(r"\[(torch\.\S+ \[[^\]]*\])\]")
_PRODUCER = re.compile(r"which is output (\d+) of (?:\w+::)*(\w+)")  # torch::autograd::CopySlices
_VIEW = re.compile(r"a view of a leaf Variable")
# The three wordings torch 2.x uses (TensorIterator, ATen/core/adaption.cpp, CPU addmm).
_DEVICES = re.compile(r"found at least two devices, (\S+?) and (\S+?)[!.](?: \(when checking argument for argument (\w+) in method (\w+)\))?")
_GOT = re.compile(r"but got (\w+) is on (\S+?), different from other tensors on (\S+?)(?: \(when checking argument in method (\w+)\))?$")
_ADDMM = re.compile(r"(\w+): expected '(\w+)' to be a? ?(\w+) tensor, but got tensor on (\S+)")


@dataclass(frozen=True)
class Symptom:
    id: str
    details: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str = "") -> str:
        return dict(self.details).get(key, default)


def _device_details(message: str) -> list[tuple[str, str]]:
    """device_a/device_b (a: the odd one out when the message says), argument, method."""
    if m := _DEVICES.search(message):
        out = [("device_a", m.group(1)), ("device_b", m.group(2))]
        return out + [(k, v) for k, v in (("argument", m.group(3)), ("method", m.group(4))) if v]
    if m := _GOT.search(message.strip()):
        out = [("argument", m.group(1)), ("device_a", m.group(2)), ("device_b", m.group(3))]
        return out + ([("method", m.group(4))] if m.group(4) else [])
    if m := _ADDMM.search(message):
        return [("method", m.group(1)), ("argument", m.group(2)), ("device_a", m.group(4)),
                ("device_b", m.group(3).lower())]
    return []


_TYPES = frozenset({"RuntimeError", "ValueError", "TypeError"})


def is_autograd_error(error, message: str | None = None) -> bool:
    """The one judgement of "is this ours", shared by the IPython hook, `diagnose()`, the CLI
    and notebooks: True when the error is one of the autograd symptoms above.

    `error` is an exception, its class, or its class name (as `Failure.error_type` and a
    kernel's `ename` hold it); `message` defaults to `str(error)` for an exception. Anything
    else (a ValueError, an IndexError, a shape mismatch, the user's own RuntimeError) is not
    ours: it keeps its traceback and gets no diagnosis."""
    if isinstance(error, BaseException):
        name, message = type(error).__name__, str(error) if message is None else message
    else:
        name = error.__name__ if isinstance(error, type) else str(error)
    return classify(name, message or "") is not None


def classify(error_type: str, message: str) -> Symptom | None:
    """Which autograd symptom a (type, message) pair is, with what the message says."""
    if error_type not in _TYPES:
        return None
    for symptom, pattern in _PATTERNS:
        if re.search(pattern, message):
            details = []
            if m := _VERSIONS.search(message):
                details += [("version_now", m.group(1)), ("version_expected", m.group(2))]
            if m := _TENSOR.search(message):
                details.append(("tensor", m.group(1)))
            if m := _PRODUCER.search(message):
                details += [("output", m.group(1)), ("producer", m.group(2))]
            if _VIEW.search(message):
                details.append(("view", "1"))
            if symptom == "device_mismatch":
                details += _device_details(message)
            if m := _UNUSED.search(message):
                details.append(("unused_indices", " ".join(m.group(1).split())))
            return Symptom(symptom, tuple(details))
    return None
