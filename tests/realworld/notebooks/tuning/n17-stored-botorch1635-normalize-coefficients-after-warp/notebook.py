# source: https://github.com/meta-pytorch/botorch/issues/1635 (the reporter's reproduction: a Warp input transform followed by Normalize on a SingleTaskGP, fit, then optimizing test_X with loss.backward(); the BoTorch pieces cut down into botorch.py next to the notebook: Warp, AffineInputTransform/Normalize as before PR #1642, a small exact GP instead of SingleTaskGP/gpytorch, fit_gpytorch_mll as an Adam loop)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: file botorch.py line 70
# expert: with learned bounds, Normalize recomputes its _offset / _coefficient buffers from the inputs every time it runs in train mode; behind a Warp with learned parameters those inputs are part of the graph, so the buffers kept after fitting are tensors of the last fitting step's graph, which that step's backward freed, and the backward through the eval-mode transform of test_X reaches them; BoTorch's fix (PR #1642, 'Detach coefficient and offset in AffineTransform') stores the bounds detached (the reporter's PatchedNormalize workaround does the same).
# %%
import torch
from botorch import Warp, Normalize, ChainedInputTransform, SingleTaskGP, fit_gpytorch_mll
torch.manual_seed(0)

train_X = torch.tensor([[0., 0.],
                        [0.1, 0.1],
                        [0.5, 0.5]])
train_Y = torch.tensor([[0.1],
                        [0.5],
                        [1.0]])
test_X = torch.tensor([[0.3, 0.3]])
# %%
input_transform = ChainedInputTransform(
    warp=Warp(indices=[0, 1]),
    normalize=Normalize(d=2),
)
model = SingleTaskGP(train_X, train_Y, input_transform=input_transform)
# %%
fit_gpytorch_mll(model)
print(model.input_transform.transforms['normalize'].coefficient)
# %%
X = test_X.clone().requires_grad_(True)
optimizer = torch.optim.Adam([X], lr=0.01)
for _ in range(5):
    optimizer.zero_grad()
    loss = -model.posterior_mean(X).sum()
    loss.backward()
    optimizer.step()
print(X)
