# source: variant of https://github.com/IC3Net/IC3Net/issues/7
# style: rl
# cause: recurrent_state_not_detached
# line: 62
# expert: the agents' LSTM state prev_hid is carried through the whole episode while a policy update (backward) is done every detach_gap steps, so the next update reaches the freed graph of the previous chunk; detach prev_hid every detach_gap steps as IC3Net's trainer does
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Args:
    nagents, hid_size, detach_gap, max_steps, rnn_type, gamma = 3, 16, 4, 12, 'LSTM', 0.99


class CommNetMLP(nn.Module):
    def __init__(self, args, num_inputs=5, n_actions=3):
        super().__init__()
        self.args = args
        self.encoder = nn.Linear(num_inputs, args.hid_size)
        self.f_module = nn.LSTMCell(args.hid_size, args.hid_size)
        self.C = nn.Linear(args.hid_size, args.hid_size)
        self.heads = nn.Linear(args.hid_size, n_actions)
        self.value_head = nn.Linear(args.hid_size, 1)

    def init_hidden(self, batch_size):
        return (torch.zeros(batch_size * self.args.nagents, self.args.hid_size),
                torch.zeros(batch_size * self.args.nagents, self.args.hid_size))

    def forward(self, x, info):
        hidden_state, cell_state = info
        x = self.encoder(x)
        comm = hidden_state.mean(0, keepdim=True).expand_as(hidden_state)
        hidden_state, cell_state = self.f_module(x + self.C(comm), (hidden_state, cell_state))
        return F.log_softmax(self.heads(hidden_state), dim=-1), self.value_head(hidden_state), (hidden_state.clone(), cell_state.clone())


class Trainer:
    def __init__(self, args, policy_net):
        self.args, self.policy_net = args, policy_net
        self.optimizer = torch.optim.RMSprop(policy_net.parameters(), lr=1e-3)

    def update(self, log_probs, values, rewards):
        R, policy_loss, value_loss = torch.zeros(1), 0, 0
        for lp, v, r in zip(reversed(log_probs), reversed(values), reversed(rewards)):
            R = r + self.args.gamma * R
            adv = R - v.squeeze(-1)
            policy_loss = policy_loss - (lp * adv.detach()).sum()
            value_loss = value_loss + adv.pow(2).sum()
        self.optimizer.zero_grad()
        (policy_loss + 0.5 * value_loss).backward()
        self.optimizer.step()
        return policy_loss.item()

    def get_episode(self):
        prev_hid = self.policy_net.init_hidden(batch_size=1)
        log_probs, values, rewards = [], [], []
        for t in range(self.args.max_steps):
            state = torch.randn(self.args.nagents, 5)
            x = [state, prev_hid]
            action_out, value, prev_hid = self.policy_net(*x)
            action = torch.multinomial(action_out.exp(), 1)
            log_probs.append(action_out.gather(1, action).squeeze(1))
            values.append(value)
            rewards.append(torch.randn(self.args.nagents))
            if (t + 1) % self.args.detach_gap == 0:
                print('update', t, self.update(log_probs, values, rewards))
                log_probs, values, rewards = [], [], []


args = Args()
trainer = Trainer(args, CommNetMLP(args))
trainer.get_episode()
