# source: variant of https://randommemory.hatenablog.com/entry/2020/06/24/224322 (the post's SimpleRNN, which keeps its hidden state in self.hidden between calls, and its to_torch helper, trained like deep-learning-from-scratch-3 steps/step59.py that the post imitates: noisy sine-curve prediction with truncated BPTT every bptt_length steps. The post does not show its training loop, so the loop here is step59's ported to PyTorch with the accumulated loss reset after each update, as DeZero's loss.unchain_backward() does; a numpy sine curve stands in for dezero.datasets.SinCurve, 3 epochs, hidden size 16)
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 2 line 15
# expert: SimpleRNN.__call__ stores the new hidden state, self.hidden, with its graph, so the next truncated-BPTT segment chains onto the segment whose graph the previous loss.backward() already freed, and the second loss.backward() fails. As the post concludes from the PyTorch forum answer ("The solution is to save hidden.detach()"), store the detached state: h, hidden = self.rnn(x, self.hidden); self.hidden = hidden.detach().
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
# %%
# stand-in for dezero.datasets.SinCurve(train=True): (x_t, x_{t+1}) pairs of a noisy sine curve
num_data = 200
x = np.linspace(0, 2 * np.pi, num_data)
y = np.sin(x) + np.random.uniform(-0.05, 0.05, size=x.shape)
train_set = [(y[i], y[i + 1]) for i in range(num_data - 1)]
# %%
def to_torch(x):
    return torch.from_numpy(x.astype(np.float32)).clone()

class SimpleRNN(nn.Module):
    def __init__(self, hidden_size, out_size):
        super(SimpleRNN, self).__init__()
        self.rnn = nn.RNN(out_size, hidden_size, nonlinearity="tanh")
        self.fc = nn.Linear(hidden_size, out_size)
        self.reset_state()

    def reset_state(self):
        self.hidden = None

    def __call__(self, x):
        h, self.hidden = self.rnn(x, self.hidden)
        y = self.fc(h)
        return y
# %%
max_epoch = 3
hidden_size = 16
bptt_length = 30
seqlen = len(train_set)

model = SimpleRNN(hidden_size, 1)
optimizer = torch.optim.Adam(model.parameters())
# %%
for epoch in range(max_epoch):
    model.reset_state()
    loss, count = 0, 0

    for x, t in train_set:
        x = to_torch(np.array(x).reshape(1, 1))
        x.unsqueeze_(dim=0)
        y = model(x)
        loss += F.mse_loss(y, to_torch(np.array(t).reshape(1, 1, 1)))
        count += 1

        if count % bptt_length == 0 or count == seqlen:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            avg_loss = float(loss.data) / bptt_length
            loss = 0

    print('| epoch %d | loss %f' % (epoch + 1, avg_loss))
