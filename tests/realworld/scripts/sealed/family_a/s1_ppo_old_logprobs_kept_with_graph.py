# source: https://devgem.vercel.app/posts/how-to-fix-the-runtimeerror-trying-to-backward-through-the-graph-a-second-time-error-in-proximal-policy-optimization-ppo
# style: rl
# cause: tensor_reused_across_iterations
# line: 44
# expert: the log-probs stored in the rollout memory were computed with grad by the policy itself, so the first K-epoch backward frees their graph (and retain_graph=True then trips the in-place check after optimizer.step()); store them detached (act under torch.no_grad() / old_logprobs = torch.stack(memory.logprobs).detach())
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class Memory:
    def __init__(self):
        self.actions = []
        self.states = []
        self.logprobs = []
        self.rewards = []
        self.is_terminals = []

    def clear_memory(self):
        del self.actions[:]
        del self.states[:]
        del self.logprobs[:]
        del self.rewards[:]
        del self.is_terminals[:]


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim, n_latent_var):
        super(ActorCritic, self).__init__()
        self.action_layer = nn.Sequential(nn.Linear(state_dim, n_latent_var), nn.Tanh(),
                                          nn.Linear(n_latent_var, action_dim), nn.Softmax(dim=-1))
        self.value_layer = nn.Sequential(nn.Linear(state_dim, n_latent_var), nn.Tanh(), nn.Linear(n_latent_var, 1))

    def act(self, state, memory):
        state = torch.from_numpy(state).float()
        action_probs = self.action_layer(state)
        dist = Categorical(action_probs)
        action = dist.sample()
        memory.states.append(state)
        memory.actions.append(action)
        memory.logprobs.append(dist.log_prob(action))
        return action.item()

    def evaluate(self, state, action):
        action_probs = self.action_layer(state)
        dist = Categorical(action_probs)
        return dist.log_prob(action), torch.squeeze(self.value_layer(state)), dist.entropy()


class PPO:
    def __init__(self, state_dim, action_dim, n_latent_var, lr, gamma, K_epochs, eps_clip):
        self.gamma, self.eps_clip, self.K_epochs = gamma, eps_clip, K_epochs
        self.policy = ActorCritic(state_dim, action_dim, n_latent_var)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.MseLoss = nn.MSELoss()

    def update(self, memory):
        rewards = []
        discounted_reward = 0
        for reward, is_terminal in zip(reversed(memory.rewards), reversed(memory.is_terminals)):
            if is_terminal:
                discounted_reward = 0
            discounted_reward = reward + (self.gamma * discounted_reward)
            rewards.insert(0, discounted_reward)
        rewards = torch.tensor(rewards)
        rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-5)
        old_states = torch.stack(memory.states)
        old_actions = torch.stack(memory.actions)
        old_logprobs = torch.stack(memory.logprobs)
        for _ in range(self.K_epochs):
            logprobs, state_values, dist_entropy = self.policy.evaluate(old_states, old_actions)
            ratios = torch.exp(logprobs - old_logprobs)
            advantages = rewards - state_values.detach()
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages
            loss = -torch.min(surr1, surr2) + 0.5 * self.MseLoss(state_values, rewards) - 0.01 * dist_entropy
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()


import numpy as np
np.random.seed(0)
memory = Memory()
ppo = PPO(state_dim=4, action_dim=2, n_latent_var=16, lr=2e-3, gamma=0.99, K_epochs=4, eps_clip=0.2)
for episode in range(2):
    state = np.random.randn(4)
    for t in range(8):
        action = ppo.policy.act(state, memory)
        state = np.random.randn(4)
        memory.rewards.append(float(action))
        memory.is_terminals.append(t == 7)
    ppo.update(memory)
    memory.clear_memory()
    print('episode', episode)
