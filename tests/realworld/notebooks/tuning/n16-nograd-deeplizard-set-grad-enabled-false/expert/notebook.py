# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(0)
# stand-in for FashionMNIST: 1x28x28 images with labels
train_set = [(torch.rand(1, 28, 28), int(torch.randint(0, 10, ()))) for _ in range(20)]
train_loader = torch.utils.data.DataLoader(train_set, batch_size=10)
# %%
class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels=1, out_channels=6, kernel_size=5)
        self.conv2 = nn.Conv2d(in_channels=6, out_channels=12, kernel_size=5)

        self.fc1 = nn.Linear(in_features=12 * 4 * 4, out_features=120)
        self.fc2 = nn.Linear(in_features=120, out_features=60)
        self.out = nn.Linear(in_features=60, out_features=10)

    def forward(self, t):
        t = F.relu(self.conv1(t))
        t = F.max_pool2d(t, kernel_size=2, stride=2)
        t = F.relu(self.conv2(t))
        t = F.max_pool2d(t, kernel_size=2, stride=2)
        t = t.reshape(-1, 12 * 4 * 4)
        t = F.relu(self.fc1(t))
        t = F.relu(self.fc2(t))
        t = self.out(t)
        return t
# %%
torch.set_grad_enabled(False)
network = Network()
sample = next(iter(train_set))
image, label = sample
pred = network(image.unsqueeze(0))
print(pred.shape, pred.argmax(dim=1), label)
print(F.softmax(pred, dim=1).sum())
# %%
torch.set_grad_enabled(True)
network = Network()
optimizer = optim.Adam(network.parameters(), lr=0.01)

for epoch in range(2):
    total_loss = 0
    total_correct = 0
    for batch in train_loader:
        images, labels = batch
        preds = network(images)
        loss = F.cross_entropy(preds, labels)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        total_loss += loss.item()
        total_correct += preds.argmax(dim=1).eq(labels).sum().item()
    print("epoch:", epoch, "total_correct:", total_correct, "loss:", total_loss)
