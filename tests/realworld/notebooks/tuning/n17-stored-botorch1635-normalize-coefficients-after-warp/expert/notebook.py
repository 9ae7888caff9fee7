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
