# source: variant of https://github.com/pytorch/pytorch/issues/165621 (the torch.nn.RNN docstring's "Efficient implementation" forward in the autograd-compatible form the issue and its fix PRs settled on, defined in its own cell; here it classifies short random sequences from the last output step with a linear head, and the epoch loss is kept as a running total started in the setup cell and backpropagated in the training loop, one batch at a time)
# scenario: running_total
# cause: accumulated_loss_backward_in_loop
# root: cell 4 line 5
# expert: epoch_loss = epoch_loss + loss keeps every earlier batch's graph inside the running total, and calling epoch_loss.backward() in the loop backpropagates through the previous batch's graph, which the last backward already freed. Backpropagate the batch loss itself (loss.backward()) and keep the running total as a number, epoch_loss += loss.item().
# %%
import torch
import torch.nn as nn

torch.manual_seed(0)
# %%
# Efficient implementation equivalent to the following with bidirectional=False
rnn = nn.RNN(10, 20, 2)
params = dict(rnn.named_parameters())
head = nn.Linear(20, 4)
optimizer = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-2)
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
batches = [(torch.randn(6, 8, 10), torch.randint(0, 4, (8,))) for _ in range(4)]
epoch_loss = 0
# %%
for x, y in batches:
    output, hn = forward(x)
    logits = head(output[-1])
    loss = nn.functional.cross_entropy(logits, y)
    epoch_loss = epoch_loss + loss
    optimizer.zero_grad()
    epoch_loss.backward()
    optimizer.step()
print(float(epoch_loss) / len(batches))
