# source: https://projector.datacamp.com/?auto_play=pause&projector_key=course_36398_b3c6027c211f2b596e91e4e8815b8a34&subtitles=fr
# style: rl
# expert: correct: the actor loss uses td_error.detach(), so actor_loss and critic_loss have disjoint graphs and can each be backpropagated once with their own optimizer
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)
gamma = 0.99


class Actor(nn.Module):
    def __init__(self, state_size, action_size):
        super(Actor, self).__init__()
        self.fc1 = nn.Linear(state_size, 64)
        self.fc2 = nn.Linear(64, action_size)

    def forward(self, state):
        x = torch.relu(self.fc1(torch.tensor(state)))
        return torch.softmax(self.fc2(x), dim=-1)


class Critic(nn.Module):
    def __init__(self, state_size):
        super(Critic, self).__init__()
        self.fc1 = nn.Linear(state_size, 64)
        self.fc2 = nn.Linear(64, 1)

    def forward(self, state):
        x = torch.relu(self.fc1(torch.tensor(state)))
        return self.fc2(x)


class FakeEnv:
    def reset(self):
        self.t = 0
        return np.random.randn(8).astype(np.float32), {}

    def step(self, action):
        self.t += 1
        return np.random.randn(8).astype(np.float32), float(action == 1), self.t >= 5, False, {}


def select_action(actor, state):
    action_probs = actor(state)
    action_dist = Categorical(action_probs)
    action = action_dist.sample()
    return action.item(), action_dist.log_prob(action)


def calculate_losses(critic_network, action_log_prob, reward, state, next_state, done):
    value = critic_network(state)
    next_value = critic_network(next_state)
    td_target = (reward + gamma * next_value * (1 - done))
    td_error = td_target - value
    actor_loss = -action_log_prob * td_error.detach()
    critic_loss = td_error ** 2
    return actor_loss, critic_loss


env = FakeEnv()
actor, critic = Actor(8, 4), Critic(8)
actor_optimizer = optim.Adam(actor.parameters(), lr=1e-3)
critic_optimizer = optim.Adam(critic.parameters(), lr=1e-3)
for episode in range(3):
    state, info = env.reset()
    done = False
    while not done:
        action, action_log_prob = select_action(actor, state)
        next_state, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
        actor_loss, critic_loss = calculate_losses(critic, action_log_prob, reward, state, next_state, done)
        actor_optimizer.zero_grad(); actor_loss.backward(); actor_optimizer.step()
        critic_optimizer.zero_grad(); critic_loss.backward(); critic_optimizer.step()
        state = next_state
    print(episode, actor_loss.item(), critic_loss.item())
