# source: https://github.com/pytorch/examples/blob/main/vae/main.py
# style: vision
# expert: correct VAE training loop: zero_grad every batch, one backward, train_loss accumulated with loss.item(), evaluation under torch.no_grad()
import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F

torch.manual_seed(1)


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-3)


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


train_data = torch.rand(64, 1, 8, 8)
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(train_data, torch.zeros(64)), batch_size=16, shuffle=True)
test_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.rand(32, 1, 8, 8), torch.zeros(32)), batch_size=16)


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(train_loader.dataset)))


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
    print('====> Test set loss: {:.4f}'.format(test_loss / len(test_loader.dataset)))


for epoch in range(1, 4):
    train(epoch)
    test(epoch)
    with torch.no_grad():
        sample = model.decode(torch.randn(8, 4))
