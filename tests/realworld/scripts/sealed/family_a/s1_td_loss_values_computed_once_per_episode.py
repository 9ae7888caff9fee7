# source: https://github.com/rentruewang/brief/issues/1
# style: rl
# cause: computed_before_loop
# line: 28
# expert: the Q values of the whole episode are computed once and every per-step TD loss backpropagates into that one graph; as the author notes, sum the per-step losses and call backward once (instead of retain_graph=True in the loop)
import torch
import torch.nn as nn

torch.manual_seed(0)
gamma = 0.9


class Q(nn.Module):
    def __init__(self, n_state=5, n_action=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_state, 32), nn.ReLU(), nn.Linear(32, n_action))

    def forward(self, s):
        return self.net(s)


q = Q()
optimizer = torch.optim.Adam(q.parameters(), lr=1e-3)
for episode in range(2):
    states = torch.randn(6, 5)
    actions = torch.randint(0, 3, (6,))
    rewards = torch.randn(6)
    q_values = q(states)
    optimizer.zero_grad()
    for t in range(len(states) - 1):
        target = rewards[t] + gamma * q_values[t + 1].max().detach()
        loss = (q_values[t, actions[t]] - target) ** 2
        loss.backward()
    optimizer.step()
    print(episode, loss.item())
