# source: https://github.com/higgsfield/RL-Adventure/issues/29
# style: rl
# expert: correct: a fresh forward pass per sampled batch, target network output detached in the TD target, one backward per step
import random
from collections import deque
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)
gamma = 0.99


class ReplayBuffer(object):
    def __init__(self, capacity):
        self.buffer = deque(maxlen=capacity)

    def push(self, state, action, reward, next_state, done):
        self.buffer.append((np.expand_dims(state, 0), action, reward, np.expand_dims(next_state, 0), done))

    def sample(self, batch_size):
        state, action, reward, next_state, done = zip(*random.sample(self.buffer, batch_size))
        return np.concatenate(state), action, reward, np.concatenate(next_state), done

    def __len__(self):
        return len(self.buffer)


class DuelingDQN(nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super(DuelingDQN, self).__init__()
        self.feature = nn.Sequential(nn.Linear(num_inputs, 32), nn.ReLU())
        self.advantage = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, num_outputs))
        self.value = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        x = self.feature(x)
        advantage = self.advantage(x)
        value = self.value(x)
        return value + advantage - advantage.mean()


current_model, target_model = DuelingDQN(4, 2), DuelingDQN(4, 2)
target_model.load_state_dict(current_model.state_dict())
optimizer = optim.Adam(current_model.parameters())
replay_buffer = ReplayBuffer(100)


def compute_td_loss(batch_size):
    state, action, reward, next_state, done = replay_buffer.sample(batch_size)
    state = torch.FloatTensor(np.float32(state))
    next_state = torch.FloatTensor(np.float32(next_state))
    action = torch.LongTensor(action)
    reward = torch.FloatTensor(reward)
    done = torch.FloatTensor(done)
    q_values = current_model(state)
    next_q_values = target_model(next_state)
    q_value = q_values.gather(1, action.unsqueeze(1)).squeeze(1)
    next_q_value = next_q_values.max(1)[0]
    expected_q_value = reward + gamma * next_q_value * (1 - done)
    loss = (q_value - expected_q_value.detach()).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


state = np.random.randn(4)
for frame_idx in range(1, 41):
    with torch.no_grad():
        action = current_model(torch.FloatTensor(state).unsqueeze(0)).max(1)[1].item()
    next_state, reward, done = np.random.randn(4), float(action), frame_idx % 10 == 0
    replay_buffer.push(state, action, reward, next_state, done)
    state = next_state
    if len(replay_buffer) > 8:
        loss = compute_td_loss(8)
    if frame_idx % 20 == 0:
        target_model.load_state_dict(current_model.state_dict())
print(loss.item())
