# source: variant of https://github.com/pytorch/pytorch/issues/165621 (the torch.nn.RNN docstring's "Efficient implementation" forward in the autograd-compatible form the issue and its fix PRs settled on, fresh per-step lists and torch.stack, defined in its own cell; here it drives truncated-BPTT training over chunks of one long random sequence, the final hidden state hn handed from one run of the training cell to the next, as one does to keep context across chunks; an SGD optimizer on rnn.parameters() and a linear read-out are added)
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 4 line 2
# order: 0 1 2 3 4 4
# expert: hn comes out of forward() still attached to the graph of the chunk it was computed on; the first run of the training cell frees that graph with loss.backward(), and the second run feeds hn back in as the initial state, so backward walks into the freed graph. Detach the carried state (truncated BPTT): hn = hn.detach() after the update, keeping its values as the next chunk's initial state but cutting the graph at the chunk boundary.
# %%
import torch
import torch.nn as nn

torch.manual_seed(0)
# %%
# Efficient implementation equivalent to the following with bidirectional=False
rnn = nn.RNN(10, 20, 2)
params = dict(rnn.named_parameters())
readout = nn.Linear(20, 1)
optimizer = torch.optim.SGD(list(rnn.parameters()) + list(readout.parameters()), lr=0.05)
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
# one long sequence (seq, batch, features), cut into chunks of 5 steps
sequence = torch.randn(40, 3, 10)
targets = sequence[:, :, :1].roll(-1, dims=0)
chunks = list(zip(sequence.split(5), targets.split(5)))
hn = torch.zeros(2, 3, 20)
i = 0
# %%
x, y = chunks[i]
output, hn = forward(x, hn)
loss = nn.functional.mse_loss(readout(output), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
i += 1
print(i, loss.item())
