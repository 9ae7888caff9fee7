# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical
import numpy as np
from types import SimpleNamespace

torch.manual_seed(123)

class ToyMarioEnv:
    """tiny stand-in for create_train_env(world, stage, action_type): 4 stacked 16x16 frames"""
    def __init__(self, seed=0, max_steps=40):
        self.rng = np.random.RandomState(seed)
        self.max_steps = max_steps
        self.t = 0

    def reset(self):
        self.t = 0
        return self.rng.rand(1, 4, 16, 16).astype(np.float32)

    def step(self, action):
        self.t += 1
        reward = float(action == 1) - 0.1
        return self.rng.rand(1, 4, 16, 16).astype(np.float32), reward, self.t >= self.max_steps, {}

env, num_states, num_actions = ToyMarioEnv(), 4, 3
# %%
class ActorCritic(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super(ActorCritic, self).__init__()
        self.conv1 = nn.Conv2d(num_inputs, 8, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.conv4 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.lstm = nn.LSTMCell(8 * 1 * 1, 32)
        self.critic_linear = nn.Linear(32, 1)
        self.actor_linear = nn.Linear(32, num_actions)
        self._initialize_weights()

    def _initialize_weights(self):
        for module in self.modules():
            if isinstance(module, nn.Conv2d) or isinstance(module, nn.Linear):
                nn.init.xavier_uniform_(module.weight)
                nn.init.constant_(module.bias, 0)
            elif isinstance(module, nn.LSTMCell):
                nn.init.constant_(module.bias_ih, 0)
                nn.init.constant_(module.bias_hh, 0)

    def forward(self, x, hx, cx):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.relu(self.conv3(x))
        x = F.relu(self.conv4(x))
        hx, cx = self.lstm(x.view(x.size(0), -1), (hx, cx))
        return self.actor_linear(hx), self.critic_linear(hx), hx, cx
# %%
opt = SimpleNamespace(lr=1e-4, gamma=0.9, tau=1.0, beta=0.01, num_local_steps=5)
global_model = ActorCritic(num_states, num_actions)
optimizer = torch.optim.Adam(global_model.parameters(), lr=opt.lr)
local_model = ActorCritic(num_states, num_actions)
local_model.train()
state = torch.from_numpy(env.reset())
done = True
curr_step = 0
curr_episode = 0
# %%
# one A3C update (run this cell again for the next update)
curr_episode += 1
local_model.load_state_dict(global_model.state_dict())
if done:
    h_0 = torch.zeros((1, 32), dtype=torch.float)
    c_0 = torch.zeros((1, 32), dtype=torch.float)
else:
    h_0 = h_0.detach()
    c_0 = c_0.detach()

log_policies = []
values = []
rewards = []
entropies = []

for _ in range(opt.num_local_steps):
    curr_step += 1
    logits, value, h_0, c_0 = local_model(state, h_0, c_0)
    policy = F.softmax(logits, dim=1)
    log_policy = F.log_softmax(logits, dim=1)
    entropy = -(policy * log_policy).sum(1, keepdim=True)

    m = Categorical(policy)
    action = m.sample().item()

    state, reward, done, _ = env.step(action)
    state = torch.from_numpy(state)
    if done:
        curr_step = 0
        state = torch.from_numpy(env.reset())

    values.append(value)
    log_policies.append(log_policy[0, action])
    rewards.append(reward)
    entropies.append(entropy)

    if done:
        break

R = torch.zeros((1, 1), dtype=torch.float)
if not done:
    _, R, _, _ = local_model(state, h_0, c_0)

gae = torch.zeros((1, 1), dtype=torch.float)
actor_loss = 0
critic_loss = 0
entropy_loss = 0
next_value = R

for value, log_policy, reward, entropy in list(zip(values, log_policies, rewards, entropies))[::-1]:
    gae = gae * opt.gamma * opt.tau
    gae = gae + reward + opt.gamma * next_value.detach() - value.detach()
    next_value = value
    actor_loss = actor_loss + log_policy * gae
    R = R * opt.gamma + reward
    critic_loss = critic_loss + (R - value) ** 2 / 2
    entropy_loss = entropy_loss + entropy

total_loss = -actor_loss + critic_loss - opt.beta * entropy_loss
optimizer.zero_grad()
total_loss.backward()

for local_param, global_param in zip(local_model.parameters(), global_model.parameters()):
    global_param._grad = local_param.grad

optimizer.step()
print("Episode {}. Loss {:.4f}".format(curr_episode, total_loss.item()))
