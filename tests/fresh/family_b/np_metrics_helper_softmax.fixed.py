import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


def top1_and_confidence(logits, y):
    probs = torch.softmax(logits.detach(), dim=1).numpy()
    acc = float((probs.argmax(1) == y.numpy()).mean())
    return acc, float(probs.max(1).mean())


model = nn.Linear(5, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(8, 5), torch.randint(0, 3, (8,))
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, top1_and_confidence(logits, y))
