"""Error message -> symptom id. One table, matched in order; None when not ours."""
from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS: tuple[tuple[str, str], ...] = (
    ("second_backward", r"Trying to backward through the graph a second time|saved tensors after they have already been freed"),
    ("inplace_modified", r"modified by an inplace operation"),
    ("no_grad_fn", r"does not require grad and does not have a grad_fn"),
    ("non_scalar", r"grad can be implicitly created only for (real )?scalar outputs"),
    ("leaf_inplace", r"a leaf Variable that requires grad (is being|has been) used in an in-place operation"),
    ("numpy_on_grad", r"Can't call numpy\(\) on Tensor that requires grad"),
    ("device_mismatch", r"Expected all tensors to be on the same device"),
)
_VERSIONS = re.compile(r"is at version (\d+); expected version (\d+)")
_TENSOR = re.compile(r"\[(torch\.\S+ \[[^\]]*\])\]")
_DEVICES = re.compile(r"found at least two devices, (\S+?) and (\S+?)[!.]")


@dataclass(frozen=True)
class Symptom:
    id: str
    details: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str = "") -> str:
        return dict(self.details).get(key, default)


def classify(error_type: str, message: str) -> Symptom | None:
    """Which autograd symptom a (type, message) pair is, with what the message says."""
    if error_type not in {"RuntimeError", "ValueError", "TypeError"}:
        return None
    for symptom, pattern in _PATTERNS:
        if re.search(pattern, message):
            details = []
            if m := _VERSIONS.search(message):
                details += [("version_now", m.group(1)), ("version_expected", m.group(2))]
            if m := _TENSOR.search(message):
                details.append(("tensor", m.group(1)))
            if m := _DEVICES.search(message):
                details += [("device_a", m.group(1)), ("device_b", m.group(2))]
            return Symptom(symptom, tuple(details))
    return None
