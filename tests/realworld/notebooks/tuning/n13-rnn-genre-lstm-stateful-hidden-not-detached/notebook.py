# source: variant of https://github.com/ruohoruotsi/LSTM-Music-Genre-Classification/pull/13
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 3 line 20
# expert: with stateful = True the (h, c) returned for one minibatch is fed into the next one, but it is still attached to the graph that minibatch's loss.backward() freed, so the second minibatch's backward fails; the PR that made the LSTM stateful between batches detaches the carried state in place before it is reused (h_0.detach_(), c_0.detach_())
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(0)

# tiny stand-in for GenreFeatureData: (examples, sequence_length, 33 features), one-hot genres
train_X = torch.randn(70, 12, 33)
train_Y = F.one_hot(torch.randint(0, 8, (70,)), 8)
# %%
class LSTM(nn.Module):
    def __init__(self, input_dim, hidden_dim, batch_size, output_dim=8, num_layers=2):
        super(LSTM, self).__init__()
        self.input_dim = input_dim
        self.hidden_dim = hidden_dim
        self.batch_size = batch_size
        self.num_layers = num_layers

        # setup LSTM layer
        self.lstm = nn.LSTM(self.input_dim, self.hidden_dim, self.num_layers)

        # setup output layer
        self.linear = nn.Linear(self.hidden_dim, output_dim)

    def forward(self, input, hidden=None):
        # lstm step => then ONLY take the sequence's final timetep to pass into the linear/dense layer
        lstm_out, hidden = self.lstm(input, hidden)
        logits = self.linear(lstm_out[-1])              # equivalent to return_sequences=False from Keras
        genre_scores = F.log_softmax(logits, dim=1)
        return genre_scores, hidden

    def get_accuracy(self, logits, target):
        """ compute accuracy for training round """
        corrects = (
                torch.max(logits, 1)[1].view(target.size()).data == target.data
        ).sum()
        accuracy = 100.0 * corrects / self.batch_size
        return accuracy.item()
# %%
batch_size = 35  # num of training examples per minibatch
num_epochs = 2

model = LSTM(input_dim=33, hidden_dim=16, batch_size=batch_size, output_dim=8, num_layers=2)
loss_function = nn.NLLLoss()  # expects ouputs from LogSoftmax
optimizer = optim.Adam(model.parameters(), lr=0.001)

# keep the LSTM stateful between batches
stateful = True

num_batches = int(train_X.shape[0] / batch_size)
# %%
for epoch in range(num_epochs):

    train_running_loss, train_acc = 0.0, 0.0

    # Init hidden state - if you don't want a stateful LSTM (between epochs)
    hidden_state = None
    for i in range(num_batches):

        # zero out gradient, so they don't accumulate btw batches
        model.zero_grad()

        X_local_minibatch, y_local_minibatch = (
            train_X[i * batch_size: (i + 1) * batch_size, ],
            train_Y[i * batch_size: (i + 1) * batch_size, ],
        )

        X_local_minibatch = X_local_minibatch.permute(1, 0, 2)
        y_local_minibatch = torch.max(y_local_minibatch, 1)[1]

        y_pred, hidden_state = model(X_local_minibatch, hidden_state)  # forward pass

        # Stateful = False for training. Do we go Stateful = True during inference/prediction time?
        if not stateful:
            hidden_state = None

        loss = loss_function(y_pred, y_local_minibatch)  # compute loss
        loss.backward()  # backward pass
        optimizer.step()  # parameter update

        train_running_loss += loss.detach().item()  # unpacks the tensor into a scalar value
        train_acc += model.get_accuracy(y_pred, y_local_minibatch)

    print(
        "Epoch:  %d | NLLoss: %.4f | Train Accuracy: %.2f"
        % (epoch, train_running_loss / num_batches, train_acc / num_batches)
    )
