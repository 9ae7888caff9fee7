# expert fix of n4-function-mrdbourke-train-step-loss-tensor
# %%
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)

train_dataloader_simple = DataLoader(TensorDataset(torch.rand(16, 3, 8, 8), torch.randint(0, 3, (16,))), batch_size=8, shuffle=True)
test_dataloader_simple = DataLoader(TensorDataset(torch.rand(8, 3, 8, 8), torch.randint(0, 3, (8,))), batch_size=8)

class TinyVGG(nn.Module):
    def __init__(self, input_shape, hidden_units, output_shape):
        super().__init__()
        self.conv_block_1 = nn.Sequential(nn.Conv2d(input_shape, hidden_units, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.conv_block_2 = nn.Sequential(nn.Conv2d(hidden_units, hidden_units, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(hidden_units * 2 * 2, output_shape))

    def forward(self, x):
        return self.classifier(self.conv_block_2(self.conv_block_1(x)))
# %%
def train_step(model, dataloader, loss_fn, optimizer):
    # Put model in train mode
    model.train()
    # Setup train loss and train accuracy values
    train_loss, train_acc = 0, 0
    # Loop through data loader data batches
    for batch, (X, y) in enumerate(dataloader):
        # 1. Forward pass
        y_pred = model(X)
        # 2. Calculate and accumulate loss
        loss = loss_fn(y_pred, y)
        train_loss += loss.item()
        # 3. Optimizer zero grad
        optimizer.zero_grad()
        # 4. Loss backward
        loss.backward()
        # 5. Optimizer step
        optimizer.step()
        # Calculate and accumulate accuracy metric across all batches
        y_pred_class = torch.argmax(torch.softmax(y_pred, dim=1), dim=1)
        train_acc += (y_pred_class == y).sum().item() / len(y_pred)
    # Adjust metrics to get average loss and accuracy per batch
    train_loss = train_loss / len(dataloader)
    train_acc = train_acc / len(dataloader)
    return train_loss, train_acc

def test_step(model, dataloader, loss_fn):
    model.eval()
    test_loss, test_acc = 0, 0
    with torch.inference_mode():
        for batch, (X, y) in enumerate(dataloader):
            test_pred_logits = model(X)
            loss = loss_fn(test_pred_logits, y)
            test_loss += loss.item()
            test_pred_labels = test_pred_logits.argmax(dim=1)
            test_acc += ((test_pred_labels == y).sum().item() / len(test_pred_labels))
    return test_loss / len(dataloader), test_acc / len(dataloader)

def train(model, train_dataloader, test_dataloader, optimizer, loss_fn=nn.CrossEntropyLoss(), epochs=5):
    results = {"train_loss": [], "train_acc": [], "test_loss": [], "test_acc": []}
    for epoch in range(epochs):
        train_loss, train_acc = train_step(model, train_dataloader, loss_fn, optimizer)
        test_loss, test_acc = test_step(model, test_dataloader, loss_fn)
        print(f"Epoch: {epoch+1} | train_loss: {train_loss:.4f} | train_acc: {train_acc:.4f} | test_loss: {test_loss:.4f} | test_acc: {test_acc:.4f}")
        results["train_loss"].append(train_loss)
        results["train_acc"].append(train_acc)
        results["test_loss"].append(test_loss)
        results["test_acc"].append(test_acc)
    return results
# %%
model_0 = TinyVGG(input_shape=3, hidden_units=4, output_shape=3)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(params=model_0.parameters(), lr=0.001)
model_0_results = train(model=model_0, train_dataloader=train_dataloader_simple, test_dataloader=test_dataloader_simple,
                        optimizer=optimizer, loss_fn=loss_fn, epochs=3)
# %%
def plot_loss_curves(results):
    loss = results["train_loss"]
    test_loss = results["test_loss"]
    epochs = range(len(results["train_loss"]))
    # plt.plot(epochs, loss) / plt.plot(epochs, test_loss) convert the lists with numpy; printed as text here
    for label, values in (("train_loss", loss), ("test_loss", test_loss)):
        ys = np.asarray(values, dtype=float)
        print(label, list(epochs), ys.round(4))
# %%
plot_loss_curves(model_0_results)
