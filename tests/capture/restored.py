"""What a watcher must leave behind once it stops: torch exactly as it was."""
from __future__ import annotations

import torch
import torch.optim.optimizer as optim_hooks

from nb_autograd.capture import marks
from nb_autograd.capture.backwards import RECORDER

ORIGINAL_ZERO_GRAD = (torch.optim.Optimizer.__dict__["zero_grad"], torch.nn.Module.__dict__["zero_grad"])


def assert_torch_restored() -> None:
    assert torch._C._len_torch_function_stack() == 0
    assert torch._C._autograd._top_saved_tensors_default_hooks(False) is None
    assert (torch.optim.Optimizer.__dict__["zero_grad"], torch.nn.Module.__dict__["zero_grad"]) == ORIGINAL_ZERO_GRAD
    assert "zero_" not in torch.Tensor.__dict__  # the patch for `p.grad.zero_()` is gone
    assert not optim_hooks._global_optimizer_pre_hooks and not optim_hooks._global_optimizer_post_hooks
    assert RECORDER.listeners == []
    assert marks._LISTENERS == []
