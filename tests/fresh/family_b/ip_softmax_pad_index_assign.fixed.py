import torch
import torch.nn as nn

torch.manual_seed(0)
PAD = 0
scorer = nn.Linear(4, 6)
opt = torch.optim.SGD(scorer.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(5, 4)
    target = torch.randint(1, 6, (5,))
    logits = scorer(x)
    logits = logits.masked_fill(torch.arange(6) == PAD, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    loss = -torch.log(probs.gather(1, target[:, None]) + 1e-8).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
