# cause: inplace_modified_saved_tensor
# line: 15
# why: Assigning probs[:, pad] = 0 writes in place into the softmax output that SoftmaxBackward saved.
import torch
import torch.nn as nn

torch.manual_seed(0)
PAD = 0
scorer = nn.Linear(4, 6)
opt = torch.optim.SGD(scorer.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(5, 4)
    target = torch.randint(1, 6, (5,))
    probs = torch.softmax(scorer(x), dim=-1)
    probs[:, PAD] = 0.0
    loss = -torch.log(probs.gather(1, target[:, None]) + 1e-8).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
