# source: https://php.bkmy88.com/faq/1835025.html
# style: tabular
# cause: no_grad_fn
# line: 40
# expert: feed the logits to the loss (CrossEntropyLoss on train_logits with integer labels); keep softmax().argmax() only for the accuracy metric, since argmax cuts the graph
import torch
from torch import nn

torch.manual_seed(42)

X_train = torch.randn(40, 4)
y_train = torch.randint(0, 3, (40,)).type(torch.float32)


class MultiClassModel(nn.Module):
    def __init__(self, input_features=4, output_features=3, hidden_units=8):
        super().__init__()
        self.linear_layer_stack = nn.Sequential(
            nn.Linear(input_features, hidden_units), nn.ReLU(),
            nn.Linear(hidden_units, hidden_units), nn.ReLU(),
            nn.Linear(hidden_units, output_features))

    def forward(self, x):
        return self.linear_layer_stack(x)


def accuracy(y_true, y_pred):
    correct = torch.eq(y_true, y_pred).sum().item()
    return (correct / len(y_pred)) * 100


model = MultiClassModel()
loss_fn = nn.MSELoss()
optimiser = torch.optim.SGD(model.parameters(), lr=0.1)
Epochs = 5

for epoch in range(Epochs):
    model.train()
    train_logits = model(X_train)
    train_preds_probs = torch.softmax(train_logits, dim=1).argmax(dim=1).type(torch.float32)
    loss = loss_fn(train_preds_probs, y_train)
    train_accu = accuracy(y_train, train_preds_probs)
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    print(epoch, loss.item(), train_accu)
