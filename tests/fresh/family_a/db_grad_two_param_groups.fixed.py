import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(5, 6)
dec = nn.Linear(6, 5)

for it in range(3):
    x = torch.randn(10, 5)
    recon = dec(torch.relu(enc(x)))
    loss = ((recon - x) ** 2).mean()
    dec_params = list(dec.parameters())
    enc_params = list(enc.parameters())
    grads = torch.autograd.grad(loss, dec_params + enc_params)
    g_dec, g_enc = grads[:len(dec_params)], grads[len(dec_params):]
    with torch.no_grad():
        for p, g in zip(dec.parameters(), g_dec):
            p -= 0.1 * g
        for p, g in zip(enc.parameters(), g_enc):
            p -= 0.01 * g
    print(it, loss.item())
