# source: https://devgem.io/posts/understanding-pytorch-s-runtimeerror-backward-through-the-graph-a-second-time (the training loop quoted in the post, a classifier trained on features encoded by a previously trained autoencoder; random data instead of the original dataset, small MLPs, two iterations of the outer loop)
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 2 line 2
# expert: the encoded training features are computed in a setup cell with autograd on, so every X_train_tensor slice in the classifier loop hangs on the one encoder graph: the first loss.backward() goes through the encoder and frees it, and the next mini-batch's backward reaches the freed graph; as the post says, encode the data under torch.no_grad() (the classifier only needs the encoded values).
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

X_train = torch.randn(96, 20)
y_train_tensor = (X_train[:, :5].sum(1) > 0).long()
X_val = torch.randn(32, 20)
# %%
class AutoEncoder(nn.Module):
    def __init__(self, n_in=20, n_code=6):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_in, 12), nn.ReLU(), nn.Linear(12, n_code))
        self.decoder = nn.Sequential(nn.Linear(n_code, 12), nn.ReLU(), nn.Linear(12, n_in))

    def forward(self, x):
        code = self.encoder(x)
        loss = F.mse_loss(self.decoder(code), x)
        return code, loss

autoencoder = AutoEncoder()
ae_optimizer = torch.optim.Adam(autoencoder.parameters(), lr=1e-2)
for step in range(20):
    _, ae_loss = autoencoder(X_train)
    ae_optimizer.zero_grad()
    ae_loss.backward()
    ae_optimizer.step()
print('autoencoder loss', ae_loss.item())
# %%
autoencoder.eval()
X_train_tensor, loss = autoencoder(X_train)
X_val_encoded, loss = autoencoder(X_val)
# %%
class Classifier(nn.Module):
    def __init__(self, n_in=6, n_classes=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.Linear(16, n_classes))

    def forward(self, x, targets):
        out = self.net(x)
        loss = F.cross_entropy(out, targets)
        accuracy = (out.argmax(1) == targets).float().mean()
        return out, loss, accuracy

model = Classifier()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
max_iters, batch_size = 2, 32
# %%
for iter in range(max_iters):
    start_ix = 0
    loss = None

    while start_ix < len(X_train_tensor):
        loss = None
        end_ix = min(start_ix + batch_size, len(X_train_tensor))
        out, loss, accuracy = model(X_train_tensor[start_ix:end_ix], y_train_tensor[start_ix:end_ix])

        optimizer.zero_grad(set_to_none=True)
        print(iter, start_ix, X_train_tensor.requires_grad, y_train_tensor.requires_grad, loss.requires_grad)
        loss.backward()
        optimizer.step()
        start_ix = end_ix + 1
