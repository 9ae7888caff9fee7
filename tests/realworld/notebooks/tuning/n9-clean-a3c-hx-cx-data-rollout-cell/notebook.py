# source: https://github.com/ikostrikov/pytorch-a3c/issues/15
# scenario: clean
# order: 0 1 2 3 4 4 4
# expert: The A3C worker keeps values/log_probs/entropies of a whole rollout in lists and the LSTM (hx, cx) across rollouts (and across re-runs of the update cell), which looks like stale graphs, but every rollout starts with cx = cx.data / hx = hx.data (fresh zeros when done), the lists are rebuilt per rollout, and the bootstrap value R uses value.data, so each backward only covers the current rollout. Nothing to fix.
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
np.random.seed(1)
# %%
class ActorCritic(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super().__init__()
        self.conv1 = nn.Conv2d(num_inputs, 8, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.lstm = nn.LSTMCell(8 * 3 * 3, 32)
        self.critic_linear = nn.Linear(32, 1)
        self.actor_linear = nn.Linear(32, num_actions)

    def forward(self, inputs):
        inputs, (hx, cx) = inputs
        x = F.elu(self.conv1(inputs))
        x = F.elu(self.conv2(x))
        x = x.view(-1, 8 * 3 * 3)
        hx, cx = self.lstm(x, (hx, cx))
        x = hx
        return self.critic_linear(x), self.actor_linear(x), (hx, cx)


class ToyAtariEnv:
    """stand-in for create_atari_env: 1x12x12 frames, 3 actions, episodes of 15 steps"""
    def __init__(self):
        self.t = 0
    def reset(self):
        self.t = 0
        return np.random.rand(1, 12, 12).astype(np.float32)
    def step(self, action):
        self.t += 1
        reward = float(action.item() == 1)
        return np.random.rand(1, 12, 12).astype(np.float32), reward, self.t >= 15, {}
# %%
class Args:
    lr, gamma, tau, num_steps, max_episode_length = 1e-3, 0.99, 1.00, 6, 100
args = Args()
env = ToyAtariEnv()
model = ActorCritic(1, 3)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
model.train()
# %%
state = env.reset()
state = torch.from_numpy(state)
done = True
episode_length = 0
# %%
# one rollout of num_steps and one update; re-run for the next rollout
episode_length += 1
if done:
    cx = torch.zeros(1, 32)
    hx = torch.zeros(1, 32)
else:
    cx = cx.data
    hx = hx.data

values = []
log_probs = []
rewards = []
entropies = []

for step in range(args.num_steps):
    value, logit, (hx, cx) = model((state.unsqueeze(0), (hx, cx)))
    prob = F.softmax(logit, dim=-1)
    log_prob = F.log_softmax(logit, dim=-1)
    entropy = -(log_prob * prob).sum(1, keepdim=True)
    entropies.append(entropy)

    action = prob.multinomial(num_samples=1).data
    log_prob = log_prob.gather(1, action)

    state, reward, done, _ = env.step(action.numpy())
    done = done or episode_length >= args.max_episode_length
    reward = max(min(reward, 1), -1)

    if done:
        episode_length = 0
        state = env.reset()

    state = torch.from_numpy(state)
    values.append(value)
    log_probs.append(log_prob)
    rewards.append(reward)

    if done:
        break

R = torch.zeros(1, 1)
if not done:
    value, _, _ = model((state.unsqueeze(0), (hx, cx)))
    R = value.data

values.append(R)
policy_loss = 0
value_loss = 0
gae = torch.zeros(1, 1)
for i in reversed(range(len(rewards))):
    R = args.gamma * R + rewards[i]
    advantage = R - values[i]
    value_loss = value_loss + 0.5 * advantage.pow(2)

    # Generalized Advantage Estimataion
    delta_t = rewards[i] + args.gamma * values[i + 1].data - values[i].data
    gae = gae * args.gamma * args.tau + delta_t

    policy_loss = policy_loss - log_probs[i] * gae - 0.01 * entropies[i]

optimizer.zero_grad()
(policy_loss + 0.5 * value_loss).backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), 40)
optimizer.step()
print(float(policy_loss), float(value_loss))
