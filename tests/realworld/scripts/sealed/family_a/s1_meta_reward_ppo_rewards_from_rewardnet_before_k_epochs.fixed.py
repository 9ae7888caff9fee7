# source: https://github.com/metaopt/torchopt/issues/221
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)


class RolloutBuffer:
    def __init__(self):
        self.actions, self.states, self.logprobs, self.rewards_g, self.is_terminals = [], [], [], [], []


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(state_dim, 32), nn.Tanh(), nn.Linear(32, action_dim), nn.Softmax(dim=-1))
        self.critic = nn.Sequential(nn.Linear(state_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def act(self, state):
        dist = Categorical(self.actor(state))
        action = dist.sample()
        return action.detach(), dist.log_prob(action).detach()

    def evaluate(self, state, action):
        dist = Categorical(self.actor(state))
        return dist.log_prob(action), self.critic(state), dist.entropy()


class PPO_meta:
    def __init__(self, state_dim, action_dim, n_reward_terms=3, K_epochs=4, eps_clip=0.2, gamma=0.99):
        self.gamma, self.eps_clip, self.K_epochs = gamma, eps_clip, K_epochs
        self.buffer = RolloutBuffer()
        self.policy = ActorCritic(state_dim, action_dim)
        self.rewardnet = nn.Sequential(nn.Linear(state_dim, 16), nn.Tanh(), nn.Linear(16, n_reward_terms))
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.MseLoss = nn.MSELoss()

    def update(self):
        rewards_g = []
        discounted_reward = 0
        for reward_g, is_terminal, state in zip(reversed(self.buffer.rewards_g), reversed(self.buffer.is_terminals), reversed(self.buffer.states)):
            if is_terminal:
                discounted_reward = 0
            w = self.rewardnet(state)
            r = torch.dot(w, torch.FloatTensor(reward_g))
            discounted_reward = r + (self.gamma * discounted_reward)
            rewards_g.insert(0, discounted_reward)
        rewards_g = torch.stack(rewards_g)
        rewards_g = ((rewards_g - rewards_g.mean()) / (rewards_g.std() + 1e-7)).detach()
        old_states = torch.stack(self.buffer.states).detach()
        old_actions = torch.stack(self.buffer.actions).detach()
        old_logprobs = torch.stack(self.buffer.logprobs).detach()
        for _ in range(self.K_epochs):
            logprobs, state_values, dist_entropy = self.policy.evaluate(old_states, old_actions)
            state_values = torch.squeeze(state_values)
            ratios = torch.exp(logprobs - old_logprobs)
            advantages_g = rewards_g - state_values.detach()
            surr1_g = ratios * advantages_g
            surr2_g = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages_g
            loss = -torch.min(surr1_g, surr2_g) + 0.5 * self.MseLoss(state_values, rewards_g) - 0.01 * dist_entropy
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()
        self.buffer = RolloutBuffer()


agent = PPO_meta(state_dim=4, action_dim=2)
for episode in range(2):
    for t in range(6):
        state = torch.randn(4)
        action, logprob = agent.policy.act(state)
        agent.buffer.states.append(state)
        agent.buffer.actions.append(action)
        agent.buffer.logprobs.append(logprob)
        agent.buffer.rewards_g.append([float(action), 1.0, -0.5])
        agent.buffer.is_terminals.append(t == 5)
    agent.update()
    print('episode', episode)
