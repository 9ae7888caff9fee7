# source: https://snntorch.readthedocs.io/en/latest/tutorials/tutorial_5.html
# style: spiking
# expert: correct SNN training loop: membrane potentials are re-initialised (init_leaky) at the start of every forward, so no state or graph crosses batches; loss summed over time steps and one backward per batch
import torch
import torch.nn as nn

torch.manual_seed(0)


class ATan(torch.autograd.Function):
    """Arctan surrogate gradient for the Heaviside spike (as snntorch.surrogate.atan)."""

    @staticmethod
    def forward(ctx, input_, alpha=2.0):
        ctx.save_for_backward(input_)
        ctx.alpha = alpha
        return (input_ > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (input_,) = ctx.saved_tensors
        grad = ctx.alpha / 2 / (1 + (torch.pi / 2 * ctx.alpha * input_).pow(2)) * grad_output
        return grad, None


class Leaky(nn.Module):
    """Plain-torch version of snn.Leaky(beta) with subtract reset."""

    def __init__(self, beta, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def init_leaky(self):
        return torch.zeros(0)

    def forward(self, input_, mem):
        if mem.numel() == 0:
            mem = torch.zeros_like(input_)
        reset = ATan.apply(mem - self.threshold).detach()
        mem = self.beta * mem + input_ - reset * self.threshold
        spk = ATan.apply(mem - self.threshold)
        return spk, mem


num_inputs, num_hidden, num_outputs, num_steps, beta = 16, 32, 4, 10, 0.95


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, num_hidden)
        self.lif1 = Leaky(beta=beta)
        self.fc2 = nn.Linear(num_hidden, num_outputs)
        self.lif2 = Leaky(beta=beta)

    def forward(self, x):
        # Initialize hidden states at t=0
        mem1 = self.lif1.init_leaky()
        mem2 = self.lif2.init_leaky()
        spk2_rec = []
        mem2_rec = []
        for step in range(num_steps):
            cur1 = self.fc1(x)
            spk1, mem1 = self.lif1(cur1, mem1)
            cur2 = self.fc2(spk1)
            spk2, mem2 = self.lif2(cur2, mem2)
            spk2_rec.append(spk2)
            mem2_rec.append(mem2)
        return torch.stack(spk2_rec, dim=0), torch.stack(mem2_rec, dim=0)


net = Net()
loss = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-4, betas=(0.9, 0.999))
train_loader = [(torch.rand(8, num_inputs) * 2, torch.randint(0, num_outputs, (8,))) for _ in range(5)]
loss_hist = []
counter = 0
for epoch in range(2):
    for data, targets in iter(train_loader):
        net.train()
        spk_rec, mem_rec = net(data.view(8, -1))
        loss_val = torch.zeros((1), dtype=torch.float)
        for step in range(num_steps):
            loss_val += loss(mem_rec[step], targets)
        optimizer.zero_grad()
        loss_val.backward()
        optimizer.step()
        loss_hist.append(loss_val.item())
        if counter % 4 == 0:
            print(f"Epoch {epoch}, Iteration {counter}, Train Loss: {loss_val.item():.2f}")
        counter += 1
