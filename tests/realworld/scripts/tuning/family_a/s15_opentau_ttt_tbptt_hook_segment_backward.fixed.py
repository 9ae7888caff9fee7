# source: https://github.com/TensorAuto/OpenTau/pull/530 (review finding on the pi0.5 + Test-Time-Training memory PR: forward_sequence calls the tbptt_backward_fn callback on each segment's loss and also returns the same graph-carrying terms, so wiring policy.tbptt_backward_fn = accelerator.backward makes train.py's backward raise "Trying to backward through the graph a second time"; the hook was removed, as the final modeling_pi05_ttt.py docstring records. The PR branch is not in the public snapshot, so forward_sequence is rebuilt from the review text with a tiny TTT-Linear action expert instead of PaliGemma/Gemma, random trajectories, and a plain backward() as the accelerator stand-in)
# style: meta
# cause: double_backward
# line: 107
# expert: forward_sequence runs the per-segment backward through the tbptt_backward_fn hook and still appends the same segment losses to mse_terms, which the training loop backwards again, so the second backward walks segment graphs whose buffers the hook already freed. The reviewer's resolution, adopted in the PR, was to drop the hook: forward_sequence only returns the (weighted) losses and the training loop does the single backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def accelerator_backward(loss):
    """Stand-in for accelerate's Accelerator.backward (no grad scaling on CPU)."""
    loss.backward()


class TanhGate(nn.Module):
    """Blends the TTT branch in through tanh(alpha), initialized near zero."""

    def __init__(self, width, init_value=1e-3):
        super().__init__()
        self.alpha = nn.Parameter(torch.full((width,), init_value))

    def forward(self, x):
        return torch.tanh(self.alpha) * x


class TTTLinearLayer(nn.Module):
    """TTT-Linear: the fast weights take one gradient step on a self-supervised
    reconstruction loss per timestep, then read out the query tokens."""

    def __init__(self, width, base_lr=0.1):
        super().__init__()
        self.theta_k = nn.Linear(width, width, bias=False)
        self.theta_v = nn.Linear(width, width, bias=False)
        self.theta_q = nn.Linear(width, width, bias=False)
        self.W0 = nn.Parameter(torch.zeros(width, width))
        self.base_lr = base_lr

    def initial_fast_weights(self, batch_size):
        return self.W0.unsqueeze(0).expand(batch_size, -1, -1)

    def forward(self, x, W):
        k, v, q = self.theta_k(x), self.theta_v(x), self.theta_q(x)
        pred = k @ W
        grad = 2.0 * k.transpose(1, 2) @ (pred - v) / x.shape[1]
        W_new = W - self.base_lr * grad
        return q @ W_new, W_new


class ActionExpertTTT(nn.Module):
    """Flow-matching action expert with TTT memory crossing timesteps."""

    def __init__(self, obs_dim=6, action_dim=4, chunk=3, width=16, segment_length=2):
        super().__init__()
        self.chunk = chunk
        self.action_dim = action_dim
        self.segment_length = segment_length
        self.embed = nn.Linear(obs_dim + action_dim + 1, width)
        self.ttt = TTTLinearLayer(width)
        self.ttt_gate = TanhGate(width)
        self.mlp = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
        self.head = nn.Linear(width, action_dim)

    def sample_time_sequence(self, batch_size, num_timesteps):
        beta_dist = torch.distributions.Beta(torch.tensor(1.5), torch.tensor(1.0))
        return beta_dist.sample((batch_size, num_timesteps)) * 0.999 + 0.001

    def step(self, obs_t, actions_t, time_t, W):
        noise = torch.randn_like(actions_t)
        x_t = time_t[:, None, None] * noise + (1 - time_t[:, None, None]) * actions_t
        u_t = noise - actions_t
        obs_tok = obs_t[:, None, :].expand(-1, self.chunk, -1)
        t_tok = time_t[:, None, None].expand(-1, self.chunk, 1)
        h = self.embed(torch.cat([obs_tok, x_t, t_tok], dim=-1))
        z, W = self.ttt(h, W)
        h = h + self.ttt_gate(z)
        h = h + self.mlp(h)
        v_t = self.head(h)
        return F.mse_loss(v_t, u_t), W

    def forward_sequence(self, obs, actions):
        batch_size, num_timesteps = obs.shape[:2]
        time = self.sample_time_sequence(batch_size, num_timesteps)
        W = self.ttt.initial_fast_weights(batch_size)

        mse_terms = []
        for start in range(0, num_timesteps, self.segment_length):
            if start > 0:
                # fast weights carried across the segment boundary, gradient cut there
                W = W.detach()
            seg_losses = []
            for t in range(start, min(start + self.segment_length, num_timesteps)):
                loss_t, W = self.step(obs[:, t], actions[:, t], time[:, t], W)
                seg_losses.append(loss_t)
            seg_loss = torch.stack(seg_losses).mean()
            mse_terms.append(seg_loss)

        return {"MSE": torch.stack(mse_terms).mean()}

    def forward(self, batch):
        return self.forward_sequence(batch["state"], batch["actions"])


policy = ActionExpertTTT()
optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-3)

for step in range(3):
    batch = {
        "state": torch.randn(4, 6, 6),          # (B, T, obs_dim)
        "actions": torch.randn(4, 6, 3, 4),     # (B, T, chunk, action_dim)
    }
    losses = policy(batch)
    loss = losses["MSE"]

    optimizer.zero_grad()
    accelerator_backward(loss)
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
