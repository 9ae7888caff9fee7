# source: https://github.com/meta-llama/llama/pull/304
# scenario: rerun
# cause: tensor_reused_across_iterations
# root: file model.py line 95
# order: 0 1 2 3 3
# expert: Attention.forward writes xk/xv into the persistent self.cache_k/self.cache_v buffers with autograd tracking, so after the first fwd-bwd the cache carries a CopySlices graph whose saved tensors were freed, and the second training step (re-running the step cell) backpropagates into it; the PR wraps the two cache writes in torch.no_grad() (as pytorch/benchmark's llama model.py does), so the cache never holds a graph.
# %%
import torch
import torch.nn.functional as F
from model import ModelArgs, Transformer
torch.manual_seed(0)
# %%
# random-weight LLaMA, tiny config (training benchmark: weights are not public)
model_args = ModelArgs(dim=32, n_layers=2, n_heads=4, vocab_size=32, multiple_of=16,
                       max_batch_size=2, max_seq_len=8)
model = Transformer(model_args)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
# %%
example_inputs = [torch.tensor([[1, 1], [1, 1]], dtype=torch.int)]
targets = torch.tensor([3, 5])
# %%
# one training step: forward + backward (run it again for the next step)
model.train()
optimizer.zero_grad()
pred = model(example_inputs[0], 0)
loss = F.cross_entropy(pred, targets)
loss.backward()
optimizer.step()
print("loss", loss.item())
