# source: https://github.com/dgriff777/rl_a3c_pytorch/issues/19
# scenario: clean
# order: 0 1 2 2 2 2 2
# expert: clean: the LSTM state player.hx / player.cx is kept on the agent across re-runs of the update cell (a stateful LSTM over the episode), and at the start of every rollout it is re-wrapped from its data (Variable(player.cx.data)), i.e. detached, or reset to zeros when the episode is done; each update therefore backpropagates only through its own num_steps rollout, as the maintainer explained in the issue, and re-running the cell never reaches a freed graph
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
torch.manual_seed(0)


class A3Clstm(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super(A3Clstm, self).__init__()
        self.fc = nn.Linear(num_inputs, 32)
        self.lstm = nn.LSTMCell(32, 32)
        self.critic_linear = nn.Linear(32, 1)
        self.actor_linear = nn.Linear(32, num_actions)

    def forward(self, inputs):
        inputs, (hx, cx) = inputs
        x = F.relu(self.fc(inputs))
        hx, cx = self.lstm(x, (hx, cx))
        x = hx
        return self.critic_linear(x), self.actor_linear(x), (hx, cx)


class Agent(object):
    def __init__(self, model, env, args, state):
        self.model = model
        self.env = env
        self.state = state
        self.hx = None
        self.cx = None
        self.eps_len = 0
        self.args = args
        self.values = []
        self.log_probs = []
        self.rewards = []
        self.entropies = []
        self.done = True
        self.info = None
        self.reward = 0

    def action_train(self):
        value, logit, (self.hx, self.cx) = self.model((Variable(
            self.state.unsqueeze(0)), (self.hx, self.cx)))
        prob = F.softmax(logit, dim=1)
        log_prob = F.log_softmax(logit, dim=1)
        entropy = -(log_prob * prob).sum(1)
        self.entropies.append(entropy)
        action = prob.multinomial(1).data
        log_prob = log_prob.gather(1, Variable(action))
        state, self.reward, self.done, self.info = self.env.step(action.cpu().numpy())
        self.state = torch.from_numpy(state).float()
        self.reward = max(min(self.reward, 1), -1)
        self.values.append(value)
        self.log_probs.append(log_prob)
        self.rewards.append(self.reward)
        return self

    def clear_actions(self):
        self.values = []
        self.log_probs = []
        self.rewards = []
        self.entropies = []
        return self


class DummyEnv:
    """Stands in for the Atari env: 8-dim observations, episodes of 12 steps."""
    def __init__(self, episode_len=12):
        self.episode_len, self.t = episode_len, 0
        self.rng = np.random.RandomState(0)

    def reset(self):
        self.t = 0
        return self.rng.randn(8).astype(np.float32)

    def step(self, action):
        self.t += 1
        reward = float(self.rng.rand() - 0.5)
        return self.rng.randn(8).astype(np.float32), reward, self.t >= self.episode_len, {}


class Args:
    num_steps, gamma, tau, lr = 5, 0.99, 1.00, 1e-4
# %%
args = Args()
env = DummyEnv()
player = Agent(None, env, args, None)
player.model = A3Clstm(8, 4)  # single worker: the agent trains the shared model directly
optimizer = torch.optim.Adam(player.model.parameters(), lr=args.lr)
player.state = player.env.reset()
player.state = torch.from_numpy(player.state).float()
player.model.train()
# %%
# one A3C update: roll out num_steps, then backpropagate through this rollout only
if player.done:
    player.cx = Variable(torch.zeros(1, 32))
    player.hx = Variable(torch.zeros(1, 32))
else:
    player.cx = Variable(player.cx.data)
    player.hx = Variable(player.hx.data)

for step in range(args.num_steps):
    player.action_train()
    if player.done:
        break

if player.done:
    state = player.env.reset()
    player.state = torch.from_numpy(state).float()

R = torch.zeros(1, 1)
if not player.done:
    value, _, _ = player.model((Variable(player.state.unsqueeze(0)), (player.hx, player.cx)))
    R = value.data

player.values.append(Variable(R))
policy_loss = 0
value_loss = 0
gae = torch.zeros(1, 1)
R = Variable(R)
for i in reversed(range(len(player.rewards))):
    R = args.gamma * R + player.rewards[i]
    advantage = R - player.values[i]
    value_loss = value_loss + 0.5 * advantage.pow(2)

    # Generalized Advantage Estimataion
    delta_t = player.rewards[i] + args.gamma * player.values[i + 1].data - player.values[i].data
    gae = gae * args.gamma * args.tau + delta_t

    policy_loss = policy_loss - player.log_probs[i] * Variable(gae) - 0.01 * player.entropies[i]

player.model.zero_grad()
(policy_loss + 0.5 * value_loss).backward()
optimizer.step()
player.clear_actions()
print(player.env.t, player.done, policy_loss.item(), value_loss.item())
