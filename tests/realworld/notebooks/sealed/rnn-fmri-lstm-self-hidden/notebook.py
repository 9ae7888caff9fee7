# source: https://github.com/sgadgil6/cnslab_fmri/issues/4
# scenario: rnn_across_cells
# cause: recurrent_state_not_detached
# root: cell 1 line 16
# expert: forward stores the LSTM state in self.hidden and feeds it to the next batch, so the second batch backpropagates into the first batch's freed graph; do not carry the state (lstm_out, _ = self.lstm(x), as the merged fix PR #5 does), or detach it
# %%
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
device = torch.device('cpu')
# %%
class fMRI_LSTM(nn.Module):
    def __init__(self, hidden_dim, input_dim, target_size, batch_size):
        super(fMRI_LSTM, self).__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.hidden = self.init_hidden(batch_size=batch_size)
        self.dropout = nn.Dropout(p=0.5)
        self.target_size = target_size

    def init_hidden(self, batch_size):
        return (torch.randn(1, batch_size, self.hidden_dim).to(device),
                torch.randn(1, batch_size, self.hidden_dim).to(device))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x, self.hidden)
        lstm_out = lstm_out[:, -1, :]
        out = self.dropout(lstm_out)
        linear_output = self.linear(out)
        final_output = torch.sigmoid(linear_output)
        return final_output
# %%
batch_size = 8
num_timesteps = 12
# stand-in for the fMRI ROI time series: (subjects, timesteps, 22 ROIs)
batches = [(torch.randn(batch_size, num_timesteps, 22), torch.randint(0, 2, (batch_size, 1)).float())
           for _ in range(4)]
# %%
model = fMRI_LSTM(32, 22, 1, batch_size).to(device)
loss_function = nn.BCELoss()
optimizer = optim.Adagrad(model.parameters(), lr=0.1)
# %%
for epoch in range(2):
    epoch_loss = 0.0
    for x, y in batches:
        model.train()
        model.zero_grad()
        predicted_prob = model(x)
        loss = loss_function(predicted_prob, y)
        epoch_loss += loss.item()
        loss.backward()
        optimizer.step()
    print("Epoch: {}, loss: {}".format(epoch, epoch_loss / len(batches)))
