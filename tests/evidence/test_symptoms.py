"""Error messages -> symptoms, with the facts the messages carry."""
from __future__ import annotations

import pytest
import torch

from nb_autograd.evidence.symptoms import classify


def _message(code: str) -> str:
    with pytest.raises(RuntimeError) as info:
        exec(code, {"torch": torch})
    return str(info.value)


def test_real_torch_messages_map_to_their_symptoms():
    cases = {
        "second_backward": "w = torch.ones(2, requires_grad=True); l = w.exp().sum(); l.backward(); l.backward()",
        "no_grad_fn": "torch.ones(2).sum().backward()",
        "non_scalar": "(torch.ones(2, requires_grad=True) * 2).backward()",
        "leaf_inplace": "torch.ones(2, requires_grad=True).add_(1)",
        "numpy_on_grad": "torch.ones(2, requires_grad=True).numpy()",
        "inplace_modified": "w = torch.ones(2, requires_grad=True); y = w.tanh(); y.mul_(2); y.sum().backward()",
    }
    for symptom, code in cases.items():
        assert classify("RuntimeError", _message(code)).id == symptom, symptom


def test_versions_and_devices_are_read_from_the_message():
    message = _message("w = torch.ones(2, requires_grad=True); y = w.tanh(); y.mul_(2); y.sum().backward()")
    s = classify("RuntimeError", message)
    assert (s.get("version_now"), s.get("version_expected")) == ("1", "0")
    cuda = ("Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! "
            "(when checking argument for argument mat1 in method wrapper_CUDA_addmm)")
    s = classify("RuntimeError", cuda)
    assert s.id == "device_mismatch" and {s.get("device_a"), s.get("device_b")} == {"cuda:0", "cpu"}


def test_other_errors_are_not_ours():
    assert classify("RuntimeError", "boom") is None
    assert classify("KeyError", "Trying to backward through the graph a second time") is None


def test_is_autograd_error_is_one_judgement_for_exceptions_classes_and_names():
    from nb_autograd.evidence.symptoms import is_autograd_error

    ours = RuntimeError("Trying to backward through the graph a second time (or directly access saved tensors)")
    assert is_autograd_error(ours)
    assert is_autograd_error(RuntimeError, str(ours)) and is_autograd_error("RuntimeError", str(ours))
    for foreign in (ValueError("bad config"), IndexError("index 5 is out of bounds"), RuntimeError("checkpoint missing"),
                    RuntimeError("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
                    KeyError("Trying to backward through the graph a second time")):
        assert not is_autograd_error(foreign), foreign
        assert not is_autograd_error(type(foreign).__name__, str(foreign))


def test_diagnose_leaves_a_foreign_error_alone():
    from nb_autograd.pipeline import diagnose

    report = diagnose("raise RuntimeError('checkpoint missing')\n", watch=False)
    assert report.error == "RuntimeError: checkpoint missing"
    assert (report.diagnoses, report.findings, report.unrecognised) == ((), (), "")
