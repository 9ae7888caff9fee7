"""Running patched code for the fix tests: exec in a fresh namespace, then read back what
training left in it (every module's parameters and every leaf tensor, with its gradient)."""
from __future__ import annotations

import contextlib
import io

import torch


def run(source: str) -> dict:
    """Execute `source` like a cell (its prints swallowed), from the same seed every time, so
    two runs differ only by what the code does; exceptions propagate."""
    torch.manual_seed(0)
    namespace: dict = {"__name__": "__nb_autograd_fix_test__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<patched>", "exec"), namespace)
    return namespace


def trained_state(namespace: dict) -> dict[str, torch.Tensor]:
    """name -> tensor for every parameter of every Module, and every leaf tensor that
    requires grad (value and .grad), found in `namespace`."""
    out: dict[str, torch.Tensor] = {}
    for name, value in sorted(namespace.items()):
        if isinstance(value, torch.nn.Module):
            for pname, p in value.named_parameters():
                out[f"{name}.{pname}"] = p.detach().clone()
                if p.grad is not None:
                    out[f"{name}.{pname}.grad"] = p.grad.detach().clone()
        elif isinstance(value, torch.Tensor) and value.is_leaf and value.requires_grad:
            out[name] = value.detach().clone()
            if value.grad is not None:
                out[f"{name}.grad"] = value.grad.detach().clone()
    return out


def same_training(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    return all(a[k].shape == b[k].shape and torch.allclose(a[k], b[k], atol=1e-6) for k in a)
