# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
torch.manual_seed(0)

flags = SimpleNamespace(z_dim=8, hidden_dim=16, lr=1e-3, l2_reg=1e-3)
num_train_ids = torch.tensor(10)
# stand-in for the VAE latents of the two environments (envs[i]['vaez'] = vae_mu.detach())
envs = [{'vaez': torch.randn(40, flags.z_dim), 'labels': torch.randint(0, 2, (40, 1)).float()}
        for _ in range(2)]

def compute_prob(logits, mode="logistic"):
    return torch.sigmoid(logits)
# %%
class baselinevaeMLP(nn.Module):
    def __init__(self):
        super().__init__()
        lin4 = nn.Linear(flags.z_dim, flags.hidden_dim)
        lin5 = nn.Linear(flags.hidden_dim,  num_train_ids.item())
        for i,lin in enumerate([lin4, lin5]):
            nn.init.xavier_uniform_(lin.weight, 1.)
            nn.init.zeros_(lin.bias)
        self._tvaez = nn.Sequential(lin4, nn.ReLU(True), lin5, nn.ReLU(True))
        self.finallayer = nn.Linear(num_train_ids.item(),  num_train_ids.item())
    def forward(self, vaez):
        features = self._tvaez(vaez)
        logits = self.finallayer(features)
        probs = compute_prob(logits, mode="logistic")
        return features, logits, probs

# neural network for downstream prediction task
class testpredNet(nn.Module):
    def __init__(self, n_feature, n_hidden, n_output):
        super(testpredNet, self).__init__()
        self.hidden = nn.Linear(n_feature, n_hidden)   # hidden layer
        self.predict = nn.Linear(n_hidden, n_output)   # output layer
        for lin in [self.hidden, self.predict]:
            nn.init.xavier_uniform_(lin.weight, 0.01)
            nn.init.zeros_(lin.bias)

    def forward(self, x):
        x = nn.ReLU(True)(self.hidden(x))      # activation function for hidden layer
        x = self.predict(x)             # linear output
        return x
# %%
baselinevaemlp = baselinevaeMLP()
optimizer_baselinevaenll = torch.optim.Adam(baselinevaemlp.parameters(), lr=flags.lr, weight_decay=0.1*flags.l2_reg)

baselinevaetestprednet = testpredNet(n_feature=num_train_ids.item(), n_hidden=16, n_output=1)     # define the network
optimizer_baselinevaetestpred = torch.optim.SGD(baselinevaetestprednet.parameters(), lr=10*flags.lr)

loss_func = torch.nn.BCELoss()
# %%
# below, currently only predict using the learned representation, consider including vaez too.
baselinevaetestpred_trainX, baselinevaetestpred_trainy = baselinevaemlp(envs[1]['vaez'][::2])[0], envs[1]['labels'][::2]
baselinevaetestpred_testX, baselinevaetestpred_testy = baselinevaemlp(envs[1]['vaez'][1::2])[0], envs[1]['labels'][1::2]
# %%
for t in range(200):
    baselinevaeprediction = baselinevaetestprednet(baselinevaetestpred_trainX)     # input x and predict based on x
    baselinevaeloss = loss_func(nn.Sigmoid()(baselinevaeprediction), baselinevaetestpred_trainy)     # must be (1. nn output, 2. target)
    optimizer_baselinevaetestpred.zero_grad()   # clear gradients for next train
    baselinevaeloss.backward(retain_graph=True)         # backpropagation, compute gradients
    optimizer_baselinevaetestpred.step()        # apply gradients

testpred_baselinevaetestacc = ((nn.Sigmoid()(baselinevaetestprednet(baselinevaetestpred_testX)) > 0.5).float() == baselinevaetestpred_testy).float().mean()
print(testpred_baselinevaetestacc.item())
