# source: https://github.com/philtabor/Youtube-Code-Repository/issues/19
# style: rl
# cause: tensor_reused_across_iterations
# line: 63
# expert: The replay memory stores the log_prob tensors made while acting, so learn() samples old log_probs whose graphs were already freed by an earlier backward (and were made by an older policy); as the issue says, store states/actions and recompute log_probs with the current actor-critic inside learn().
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)


class ActorCriticNetwork(nn.Module):
    def __init__(self, lr, input_dims, fc1_dims, fc2_dims, n_actions):
        super(ActorCriticNetwork, self).__init__()
        self.fc1 = nn.Linear(input_dims, fc1_dims)
        self.fc2 = nn.Linear(fc1_dims, fc2_dims)
        self.pi = nn.Linear(fc2_dims, n_actions)
        self.v = nn.Linear(fc2_dims, 1)
        self.optimizer = optim.Adam(self.parameters(), lr=lr)

    def forward(self, state):
        x = F.relu(self.fc1(state))
        x = F.relu(self.fc2(x))
        return self.pi(x), self.v(x)


class ReplayBuffer:
    def __init__(self, max_size):
        self.mem_size = max_size
        self.memory = []

    def store_transition(self, state, log_prob, reward, state_, done):
        if len(self.memory) >= self.mem_size:
            self.memory.pop(0)
        self.memory.append((state, log_prob, reward, state_, done))

    def sample_buffer(self, batch_size):
        idx = np.random.choice(len(self.memory), batch_size, replace=False)
        return [self.memory[i] for i in idx]


class Agent:
    def __init__(self, lr, input_dims, n_actions, gamma=0.99, batch_size=4):
        self.gamma = gamma
        self.batch_size = batch_size
        self.actor_critic = ActorCriticNetwork(lr, input_dims, 32, 32, n_actions)
        self.memory = ReplayBuffer(100)

    def choose_action(self, observation):
        state = torch.tensor(observation, dtype=torch.float32)
        probabilities, _ = self.actor_critic.forward(state)
        action_probs = Categorical(F.softmax(probabilities, dim=-1))
        action = action_probs.sample()
        self.log_prob = action_probs.log_prob(action)
        return action.item()

    def remember(self, state, reward, state_, done):
        self.memory.store_transition(state, self.log_prob, reward, state_, done)

    def learn(self):
        if len(self.memory.memory) < self.batch_size:
            return
        self.actor_critic.optimizer.zero_grad()
        total = 0
        for state, log_prob, reward, state_, done in self.memory.sample_buffer(self.batch_size):
            state = torch.tensor(state, dtype=torch.float32)
            state_ = torch.tensor(state_, dtype=torch.float32)
            _, critic_value = self.actor_critic.forward(state)
            _, critic_value_ = self.actor_critic.forward(state_)
            delta = reward + self.gamma * critic_value_ * (1 - int(done)) - critic_value
            actor_loss = -log_prob * delta
            critic_loss = delta ** 2
            total = total + actor_loss + critic_loss
        total.sum().backward()
        self.actor_critic.optimizer.step()


class ToyEnv:
    """Stand-in for the gym environment: 8-dim observation, 4 actions."""
    def reset(self):
        self.t = 0
        return np.random.randn(8).astype(np.float32)

    def step(self, action):
        self.t += 1
        return np.random.randn(8).astype(np.float32), float(action == 1), self.t >= 6, {}


agent = Agent(lr=1e-3, input_dims=8, n_actions=4)
env = ToyEnv()
for i in range(3):
    observation = env.reset()
    done = False
    score = 0
    while not done:
        action = agent.choose_action(observation)
        observation_, reward, done, info = env.step(action)
        score += reward
        agent.remember(observation, reward, observation_, done)
        agent.learn()
        observation = observation_
    print('episode', i, 'score %.1f' % score)
