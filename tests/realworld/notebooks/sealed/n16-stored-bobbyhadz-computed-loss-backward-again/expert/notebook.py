# %%
import torch
torch.manual_seed(0)

in_dim, out_dim = (5, 2)
inputs = torch.randn(in_dim)
target = torch.tensor([1, 2], dtype=torch.float32)
model = torch.nn.Linear(in_dim, out_dim, bias=True)
# %%
out = model(inputs)
loss = torch.nn.CrossEntropyLoss()
computed_loss = loss(out, target)
print(computed_loss)
# %%
computed_loss.backward(retain_graph=True)
for p in model.parameters():
    print(p.grad)
# %%
# check the gradients once more
computed_loss.backward()
for p in model.parameters():
    print(p.grad)
