# source: variant of https://github.com/pytorch/pytorch/issues/165621 (the torch.nn.RNN docstring's "Efficient implementation" forward in the autograd-compatible form the issue and its fix PRs settled on, fresh per-step lists and torch.stack, defined in its own cell; a training cell that draws a batch, runs forward from a fresh h0, takes the CrossEntropyLoss against target = torch.ones_like(output) and steps an SGD optimizer, run three times as one re-runs a cell to train longer)
# scenario: clean
# order: 0 1 2 3 3 3
# expert: nothing to fix: forward() writes no tensor in place and keeps no state between calls, and the training cell builds output, loss and the graph anew on every run from a fresh input and a fresh h0, so each backward frees only its own graph.
# %%
import torch
import torch.nn as nn

torch.manual_seed(0)
# %%
# Efficient implementation equivalent to the following with bidirectional=False
rnn = nn.RNN(10, 20, 2)
params = dict(rnn.named_parameters())
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.1)
# %%
def forward(x, hx=None, batch_first=False):
    if batch_first:
        x = x.transpose(0, 1)
    seq_len, batch_size, _ = x.size()
    if hx is None:
        hx = torch.zeros(rnn.num_layers, batch_size, rnn.hidden_size)
    h_t_minus_1 = hx
    h_t = hx
    output = []
    for t in range(seq_len):
        h_t = []
        for layer in range(rnn.num_layers):
            input_t = x[t] if layer == 0 else h_t[layer - 1]
            h_t.append(torch.tanh(
                input_t @ params[f"weight_ih_l{layer}"].T
                + h_t_minus_1[layer] @ params[f"weight_hh_l{layer}"].T
                + params[f"bias_hh_l{layer}"]
                + params[f"bias_ih_l{layer}"]
            ))
        output.append(h_t[-1])
        h_t_minus_1 = h_t
    output = torch.stack(output)
    if batch_first:
        output = output.transpose(0, 1)
    h_t = torch.stack(h_t)
    return output, h_t
# %%
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
output, hn = forward(input, h0)

target = torch.ones_like(output)
loss = nn.CrossEntropyLoss()(output, target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
