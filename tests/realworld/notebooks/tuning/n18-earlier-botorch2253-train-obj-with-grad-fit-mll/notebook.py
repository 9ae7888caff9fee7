# source: https://github.com/meta-pytorch/botorch/issues/2253
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 1 line 3
# expert: train_obj and train_con are computed from train_x (requires_grad=True) in an earlier cell, so the training targets handed to SingleTaskGP carry that cell's graph; every step of fit_gpytorch_mll's optimization loop backpropagates through them again and the second step finds the graph freed. As the BoTorch maintainers explain for this error (meta-pytorch/botorch#2370), model training inputs should not require gradients: detach the training data before building the models.
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
model_obj = SingleTaskGP(train_x, train_obj).to(train_x)
model_con = SingleTaskGP(train_x, train_con).to(train_x)

model = ModelListGP(model_obj, model_con)
mll = SumMarginalLogLikelihood(model.likelihood, model)
# %%
fit_gpytorch_mll(mll)
print(-mll().item())
