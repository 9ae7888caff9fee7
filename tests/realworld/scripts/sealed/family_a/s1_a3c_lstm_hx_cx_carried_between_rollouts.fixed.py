# source: variant of https://github.com/ikostrikov/pytorch-a3c/issues/76
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)
np.random.seed(1)


class ActorCritic(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super(ActorCritic, self).__init__()
        self.fc = nn.Linear(num_inputs, 32)
        self.lstm = nn.LSTMCell(32, 32)
        self.critic_linear = nn.Linear(32, 1)
        self.actor_linear = nn.Linear(32, num_actions)

    def forward(self, inputs):
        inputs, (hx, cx) = inputs
        x = F.elu(self.fc(inputs))
        hx, cx = self.lstm(x, (hx, cx))
        return self.critic_linear(hx), self.actor_linear(hx), (hx, cx)


class Args:
    num_steps, gamma, gae_lambda, entropy_coef, value_loss_coef, max_grad_norm = 5, 0.99, 1.0, 0.01, 0.5, 50


args = Args()
model = ActorCritic(6, 3)
optimizer = optim.Adam(model.parameters(), lr=1e-4)
state = torch.randn(1, 6)
done = True
episode_length = 0
for update in range(3):
    if done:
        cx = torch.zeros(1, 32)
        hx = torch.zeros(1, 32)
    else:
        cx = cx.detach()
        hx = hx.detach()
    values, log_probs, rewards, entropies = [], [], [], []
    for step in range(args.num_steps):
        episode_length += 1
        value, logit, (hx, cx) = model((state, (hx, cx)))
        prob = F.softmax(logit, dim=-1)
        log_prob = F.log_softmax(logit, dim=-1)
        entropy = -(log_prob * prob).sum(1, keepdim=True)
        entropies.append(entropy)
        action = prob.multinomial(num_samples=1).detach()
        log_prob = log_prob.gather(1, action)
        state, reward = torch.randn(1, 6), float(action.item() == 0)
        done = episode_length >= 40
        values.append(value)
        log_probs.append(log_prob)
        rewards.append(reward)
        if done:
            episode_length = 0
            break
    R = torch.zeros(1, 1)
    if not done:
        value, _, _ = model((state, (hx, cx)))
        R = value.detach()
    values.append(R)
    policy_loss, value_loss = 0, 0
    gae = torch.zeros(1, 1)
    for i in reversed(range(len(rewards))):
        R = args.gamma * R + rewards[i]
        advantage = R - values[i]
        value_loss = value_loss + 0.5 * advantage.pow(2)
        delta_t = rewards[i] + args.gamma * values[i + 1] - values[i]
        gae = gae * args.gamma * args.gae_lambda + delta_t
        policy_loss = policy_loss - log_probs[i] * gae.detach() - args.entropy_coef * entropies[i]
    optimizer.zero_grad()
    (policy_loss + args.value_loss_coef * value_loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
    optimizer.step()
    print(update, policy_loss.item())
