# source: https://github.com/BaiTheBest/SparseLLM/issues/13
# style: optim
# cause: leaf_inplace
# line: 37
# expert: s_batch is a leaf created with requires_grad_(True), and the manual gradient step `s_batch -= lr * s_batch.grad` runs with grad mode on, so it is an in-place op on a leaf that requires grad; the maintainer's fix is the out-of-place update `s_batch = s_batch - s_learning_rate * s_batch.grad` (the following `s_batch.grad.zero_()` then has to go, since the new s_batch has no .grad and is rebuilt from s every chunk).
import torch
import torch.nn as nn


def optimize_s(subset, X, z, p, s, alpha=5.0, gamma=5.0):
    ##############
    # optimize s
    ##############
    w = subset['mlp.gate_proj'].weight
    # convert the layer's weight tensor to float32 and enable grad
    w = w.to(dtype=torch.float32).requires_grad_(True)

    s_update_epochs = 2
    s_learning_rate = 0.01
    for _ in range(s_update_epochs):
        batch_size = 4
        # s: [hidden_d, n_samples]
        for k in range(0, s.size(-1), batch_size):
            chunk = slice(k, k + batch_size)

            # get the "mini-batch" for each tensor and turn on autograd
            X_batch = X[:, chunk].to(dtype=torch.float32).requires_grad_(True)
            z_batch = z[:, chunk].to(dtype=torch.float32).requires_grad_(True)
            p_batch = p[:, chunk].to(dtype=torch.float32).requires_grad_(True)
            s_batch = s[:, chunk].to(dtype=torch.float32).requires_grad_(True)

            with torch.enable_grad():
                loss_s = alpha * torch.norm(s_batch - torch.matmul(w, X_batch)) ** 2
                loss_s += gamma * torch.norm(p_batch - nn.functional.silu(s_batch) * z_batch) ** 2

            loss_s.backward()
            s_batch = s_batch - s_learning_rate * s_batch.grad
            s[:, chunk] = s_batch.detach().to(dtype=torch.float16)

    s_batch, X_batch, z_batch, p_batch, w = s_batch.detach(), X_batch.detach(), z_batch.detach(), p_batch.detach(), w.detach()
    del w, loss_s, s_batch, X_batch, z_batch, p_batch
    return s


def main():
    torch.manual_seed(0)
    hidden, inter, n_samples = 6, 8, 8
    subset = {
        'mlp.gate_proj': nn.Linear(hidden, inter, bias=False),
        'mlp.up_proj': nn.Linear(hidden, inter, bias=False),
        'mlp.down_proj': nn.Linear(inter, hidden, bias=False),
    }
    X = torch.randn(hidden, n_samples)
    s = torch.matmul(subset['mlp.gate_proj'].weight, X).detach().to(torch.float16)
    z = torch.matmul(subset['mlp.up_proj'].weight, X).detach()
    p = (nn.functional.silu(s.float()) * z).detach()
    s = optimize_s(subset, X, z, p, s)
    print(s.float().norm().item())


if __name__ == "__main__":
    main()
