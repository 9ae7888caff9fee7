# source: variant of https://bobbyhadz.com/blog/runtime-error-trying-to-backward-through-the-graph-a-second-time
# scenario: stored_activations
# cause: double_backward
# root: cell 2 line 1
# expert: computed_loss is made once in the forward cell and kept; the first backward() in the gradient cell frees its graph, so calling computed_loss.backward() again in the later cell fails; the post's fix is to pass retain_graph=True to every backward() call but the last.
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
computed_loss.backward()
for p in model.parameters():
    print(p.grad)
# %%
# check the gradients once more
computed_loss.backward()
for p in model.parameters():
    print(p.grad)
