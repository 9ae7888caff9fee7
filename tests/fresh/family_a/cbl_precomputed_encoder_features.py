# cause: computed_before_loop
# line: 15
# why: features are computed once by the trainable encoder before the epoch loop, so the second epoch's backward re-enters the encoder graph freed by the first.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
classifier = nn.Linear(16, 3)
X = torch.randn(20, 10)
y = torch.randint(0, 3, (20,))
opt = torch.optim.SGD(list(encoder.parameters()) + list(classifier.parameters()), lr=0.1)

features = encoder(X)
for epoch in range(5):
    logits = classifier(features)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
