# source: https://github.com/pytorch/pytorch/issues/165621 ("Feedback about RNN": the "Efficient implementation equivalent to the following with bidirectional=False" code of the torch.nn.RNN docstring "doesn't work with backward"; the reporter's snippet run as notebook cells, the docstring's forward defined in its own cell and called in a later one, then a CrossEntropyLoss against target = torch.ones_like(output) as in the fix PRs' test plan; torch.manual_seed added)
# scenario: earlier_function
# cause: inplace_modified_saved_tensor
# root: cell 2 line 13
# expert: forward() writes every layer's new state into h_t in place (h_t[layer] = ...), but the previous layer's state h_t[layer - 1] was just saved by the matmul that feeds the next layer, so the write bumps the saved tensor's version and backward fails. As the issue and its fix PRs (#173888, #184817) settle, build the states of each time step as a fresh Python list (h_t = []; h_t.append(torch.tanh(...))), take output.append(h_t[-1]), set h_t_minus_1 = h_t, and torch.stack(h_t) at the end, with no in-place writes or clones.
# %%
import torch
import torch.nn as nn

torch.manual_seed(0)
# %%
# Efficient implementation equivalent to the following with bidirectional=False
rnn = nn.RNN(10, 20, 2)
params = dict(rnn.named_parameters())
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
# %%
target = torch.ones_like(output)
loss = nn.CrossEntropyLoss()(output, target)
loss.backward()
print(loss.item(), params["weight_ih_l0"].grad.abs().sum().item())
