# source: variant of https://github.com/seungeunrho/minimalRL/issues/26
# scenario: running_total
# cause: accumulated_loss_backward_in_loop
# root: cell 1 line 24
# expert: The issue asks for the REINFORCE policy to be updated once per episode instead of after every step; written as a running episode loss (loss = loss - log(prob) * R) that is backpropagated inside the loop over the stored steps, every backward after the first runs again through the earlier steps' graphs, which the previous backward freed. As in the fix the maintainer committed (1d44f13), backpropagate each step's own term -torch.log(prob) * R inside the loop (gradients accumulate in .grad) and call optimizer.step() once after the loop.
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

#Hyperparameters
learning_rate = 0.0002
gamma         = 0.98
torch.manual_seed(0)
# %%
class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.data = []

        self.fc1 = nn.Linear(4, 128)
        self.fc2 = nn.Linear(128, 2)
        self.optimizer = optim.Adam(self.parameters(), lr=learning_rate)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.softmax(self.fc2(x), dim=0)
        return x

    def put_data(self, item):
        self.data.append(item)

    def train_net(self):
        R = 0
        loss = 0
        self.optimizer.zero_grad()
        for r, prob in self.data[::-1]:
            R = r + gamma * R
            loss = loss - torch.log(prob) * R
            loss.backward()
        self.optimizer.step()
        self.data = []
# %%
class CartPoleStandIn:
    """gym.make('CartPole-v1') stand-in: random 4-d states, reward 1 per step, episodes of a few steps."""

    def __init__(self, seed=0):
        self.rng = np.random.RandomState(seed)

    def reset(self):
        self.t = 0
        return self.rng.uniform(-0.05, 0.05, 4).astype(np.float32), {}

    def step(self, a):
        self.t += 1
        s_prime = self.rng.uniform(-0.05, 0.05, 4).astype(np.float32)
        done = self.t >= 3 + self.rng.randint(3)
        return s_prime, 1.0, done, False, {}

    def close(self):
        pass

env = CartPoleStandIn()
pi = Policy()
score = 0.0
print_interval = 2
# %%
for n_epi in range(4):
    s, _ = env.reset()
    done = False

    while not done: # CartPole-v1 forced to terminates at 500 step.
        prob = pi(torch.from_numpy(s).float())
        m = Categorical(prob)
        a = m.sample()
        s_prime, r, done, truncated, info = env.step(a.item())
        pi.put_data((r,prob[a]))
        s = s_prime
        score += r

    pi.train_net()

    if n_epi%print_interval==0 and n_epi!=0:
        print("# of episode :{}, avg score : {}".format(n_epi, score/print_interval))
        score = 0.0
