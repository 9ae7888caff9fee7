# %%
import torch
from botorch_lite import SingleTaskGP, ModelListGP, SumMarginalLogLikelihood, fit_gpytorch_mll
torch.manual_seed(0)
# %%
train_x = torch.randn(30, 6, requires_grad=True)

train_obj = 3*train_x + train_x**2
train_con = 4*train_x - train_x**3

print(train_obj.grad_fn)
print(train_con.grad_fn)
# %%
model_obj = SingleTaskGP(train_x.detach(), train_obj.detach()).to(train_x)
model_con = SingleTaskGP(train_x.detach(), train_con.detach()).to(train_x)

model = ModelListGP(model_obj, model_con)
mll = SumMarginalLogLikelihood(model.likelihood, model)
# %%
fit_gpytorch_mll(mll)
print(-mll().item())
