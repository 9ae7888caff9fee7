# source: https://github.com/GFNOrg/torchgfn/pull/87
# style: rl
# cause: tensor_reused_across_iterations
# line: 103
# expert: The replay buffer concatenates the sampled trajectories' log_probs, which still carry the policy graph, into its storage, so the next iteration's trajectory-balance loss backpropagates through an earlier, already-freed sampling graph; the merged PR wraps `replay_buffer.add(...)` and `replay_buffer.sample(...)` in `torch.no_grad()` so the buffer stores graph-free copies.
import torch
from torch import nn

torch.manual_seed(0)

NDIM, HEIGHT, MAX_LEN = 2, 4, 6


class Trajectories:
    """Container of (max_len, n_trajectories) actions and log_probs, as in gfn.containers."""

    def __init__(self, actions=None, log_probs=None, log_rewards=None):
        self.actions = actions if actions is not None else torch.zeros(MAX_LEN, 0, dtype=torch.long)
        self.log_probs = log_probs if log_probs is not None else torch.zeros(MAX_LEN, 0)
        self._log_rewards = log_rewards if log_rewards is not None else torch.zeros(0)

    def __len__(self):
        return self.actions.shape[1]

    def __getitem__(self, index):
        return Trajectories(self.actions[:, index], self.log_probs[:, index], self._log_rewards[index])

    def extend(self, other):
        self.actions = torch.cat((self.actions, other.actions), dim=1)
        self.log_probs = torch.cat((self.log_probs, other.log_probs), dim=1)
        self._log_rewards = torch.cat((self._log_rewards, other._log_rewards), dim=0)

    def sample(self, n_trajectories):
        perm = torch.randperm(len(self))[:n_trajectories]
        return self[perm]


class ReplayBuffer:
    def __init__(self, capacity=1000):
        self.capacity = capacity
        self.training_objects = Trajectories()

    def add(self, training_objects):
        self.training_objects.extend(training_objects)
        self.training_objects = self.training_objects[torch.arange(len(self.training_objects))[-self.capacity:]]

    def sample(self, n_trajectories):
        return self.training_objects.sample(n_trajectories)


class TrajectoriesSampler:
    def __init__(self, pf):
        self.pf = pf

    def sample(self, n_trajectories):
        states = torch.zeros(n_trajectories, NDIM)
        dones = torch.zeros(n_trajectories, dtype=torch.bool)
        trajectories_actions, trajectories_logprobs = [], []
        for _ in range(MAX_LEN):
            logits = self.pf(states / HEIGHT)
            dist = torch.distributions.Categorical(logits=logits)
            actions = dist.sample()
            log_probs = torch.full((n_trajectories,), 0.0)
            log_probs[~dones] = dist.log_prob(actions)[~dones]
            actions = torch.where(dones, torch.full_like(actions, -1), actions)
            trajectories_actions.append(actions)
            trajectories_logprobs.append(log_probs)
            move = (actions >= 0) & (actions < NDIM)
            states = states + nn.functional.one_hot(actions.clamp(0, NDIM - 1), NDIM) * move[:, None]
            states = states.clamp(max=HEIGHT - 1)
            dones = dones | (actions == NDIM)
        log_rewards = torch.log(0.1 + (states.sum(1) >= HEIGHT).float())
        return Trajectories(torch.stack(trajectories_actions), torch.stack(trajectories_logprobs), log_rewards)


class TrajectoryBalance(nn.Module):
    def __init__(self):
        super().__init__()
        self.logZ = nn.Parameter(torch.tensor(0.0))
        self.on_policy = True

    def forward(self, trajectories):
        log_pf = trajectories.log_probs.sum(dim=0)
        return (self.logZ + log_pf - trajectories._log_rewards).pow(2).mean()


def trajectories_to_training_samples(trajectories, loss_fn):
    return trajectories


pf = nn.Sequential(nn.Linear(NDIM, 16), nn.ReLU(), nn.Linear(16, NDIM + 1))
loss_fn = TrajectoryBalance()
optimizer = torch.optim.Adam([{"params": pf.parameters(), "lr": 1e-3}, {"params": [loss_fn.logZ], "lr": 1e-1}])
trajectories_sampler = TrajectoriesSampler(pf)
replay_buffer = ReplayBuffer(capacity=32)

config = {"n_iterations": 4, "batch_size": 8}
states_visited = 0
for i in range(config["n_iterations"]):
    trajectories = trajectories_sampler.sample(n_trajectories=config["batch_size"])
    training_samples = trajectories_to_training_samples(trajectories, loss_fn)
    if replay_buffer is not None:
        replay_buffer.add(training_samples)
        training_objects = replay_buffer.sample(n_trajectories=config["batch_size"])
    else:
        training_objects = training_samples

    optimizer.zero_grad()
    loss = loss_fn(training_objects)
    loss.backward()
    optimizer.step()
    states_visited += len(trajectories)
    print(i, {"loss": loss.item(), "states_visited": states_visited})
