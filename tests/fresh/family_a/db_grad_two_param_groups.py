# cause: double_backward
# line: 16
# why: torch.autograd.grad is called twice on the same reconstruction loss (once per parameter group); the first call freed the graph.
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(5, 6)
dec = nn.Linear(6, 5)

for it in range(3):
    x = torch.randn(10, 5)
    recon = dec(torch.relu(enc(x)))
    loss = ((recon - x) ** 2).mean()
    g_dec = torch.autograd.grad(loss, list(dec.parameters()))
    g_enc = torch.autograd.grad(loss, list(enc.parameters()))
    with torch.no_grad():
        for p, g in zip(dec.parameters(), g_dec):
            p -= 0.1 * g
        for p, g in zip(enc.parameters(), g_enc):
            p -= 0.01 * g
    print(it, loss.item())
