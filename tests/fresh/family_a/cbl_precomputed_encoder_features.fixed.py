import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
classifier = nn.Linear(16, 3)
X = torch.randn(20, 10)
y = torch.randint(0, 3, (20,))
opt = torch.optim.SGD(list(encoder.parameters()) + list(classifier.parameters()), lr=0.1)

for epoch in range(5):
    features = encoder(X)
    logits = classifier(features)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
