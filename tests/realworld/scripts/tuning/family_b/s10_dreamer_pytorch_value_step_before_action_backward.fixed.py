# source: https://github.com/cross32768/Dreamer_PyTorch/issues/2
# style: rl
# cause: inplace_modified_saved_tensor
# line: 123
# expert: value_optimizer.step() updates the value model's weights in place while action_loss (lambda targets computed from value_model outputs over the imagined trajectory) still needs them for its backward; the thread fixed it by reordering so both losses are backpropagated before either optimizer steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.functional import mse_loss
from torch.nn.utils import clip_grad_norm_
from torch.optim import Adam


class ValueModel(nn.Module):
    def __init__(self, state_dim, rnn_hidden_dim, hidden_dim=16):
        super().__init__()
        self.fc1 = nn.Linear(state_dim + rnn_hidden_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, hidden_dim)
        self.fc3 = nn.Linear(hidden_dim, 1)

    def forward(self, state, rnn_hidden):
        hidden = F.elu(self.fc1(torch.cat([state, rnn_hidden], dim=1)))
        hidden = F.elu(self.fc2(hidden))
        return self.fc3(hidden)


class ActionModel(nn.Module):
    def __init__(self, state_dim, rnn_hidden_dim, action_dim, hidden_dim=16):
        super().__init__()
        self.fc1 = nn.Linear(state_dim + rnn_hidden_dim, hidden_dim)
        self.fc_mean = nn.Linear(hidden_dim, action_dim)

    def forward(self, state, rnn_hidden):
        hidden = F.elu(self.fc1(torch.cat([state, rnn_hidden], dim=1)))
        return torch.tanh(self.fc_mean(hidden))


class RSSMPrior(nn.Module):
    def __init__(self, state_dim, action_dim, rnn_hidden_dim):
        super().__init__()
        self.fc_state_action = nn.Linear(state_dim + action_dim, rnn_hidden_dim)
        self.rnn = nn.GRUCell(rnn_hidden_dim, rnn_hidden_dim)
        self.fc_mean = nn.Linear(rnn_hidden_dim, state_dim)
        self.fc_std = nn.Linear(rnn_hidden_dim, state_dim)

    def prior(self, state, action, rnn_hidden):
        hidden = F.elu(self.fc_state_action(torch.cat([state, action], dim=1)))
        rnn_hidden = self.rnn(hidden, rnn_hidden)
        mean = self.fc_mean(rnn_hidden)
        std = F.softplus(self.fc_std(rnn_hidden)) + 0.1
        return torch.distributions.Normal(mean, std), rnn_hidden


class RewardModel(nn.Module):
    def __init__(self, state_dim, rnn_hidden_dim):
        super().__init__()
        self.fc = nn.Linear(state_dim + rnn_hidden_dim, 1)

    def forward(self, state, rnn_hidden):
        return self.fc(torch.cat([state, rnn_hidden], dim=1))


def lambda_target(rewards, values, gamma, lambda_):
    V_lambda = torch.zeros_like(rewards)
    H = rewards.shape[0] - 1
    V_n = torch.zeros_like(rewards)
    V_n[H] = values[H]
    for n in range(1, H + 1):
        V_n[:-n] = (gamma ** n) * values[n:]
        for k in range(1, n + 1):
            if k == n:
                V_n[:-n] += (gamma ** (n - 1)) * rewards[k:]
            else:
                V_n[:-n] += (gamma ** (k - 1)) * rewards[k:-n + k]
        if n == H:
            V_lambda += (lambda_ ** (H - 1)) * V_n
        else:
            V_lambda += (1 - lambda_) * (lambda_ ** (n - 1)) * V_n
    return V_lambda


def main():
    torch.manual_seed(0)
    state_dim, rnn_hidden_dim, action_dim = 4, 8, 2
    imagination_horizon, batch = 3, 5
    gamma, lambda_, clip = 0.9, 0.95, 100.0

    rssm = RSSMPrior(state_dim, action_dim, rnn_hidden_dim)
    reward_model = RewardModel(state_dim, rnn_hidden_dim)
    value_model = ValueModel(state_dim, rnn_hidden_dim)
    action_model = ActionModel(state_dim, rnn_hidden_dim, action_dim)
    value_optimizer = Adam(value_model.parameters(), lr=1e-3)
    action_optimizer = Adam(action_model.parameters(), lr=1e-3)

    for update_step in range(2):
        flatten_states = torch.randn(batch, state_dim)
        flatten_rnn_hiddens = torch.randn(batch, rnn_hidden_dim)

        imaginated_states = torch.zeros(imagination_horizon + 1, *flatten_states.shape)
        imaginated_rnn_hiddens = torch.zeros(imagination_horizon + 1, *flatten_rnn_hiddens.shape)
        imaginated_states[0] = flatten_states
        imaginated_rnn_hiddens[0] = flatten_rnn_hiddens
        for h in range(1, imagination_horizon + 1):
            actions = action_model(flatten_states, flatten_rnn_hiddens)
            flatten_states_prior, flatten_rnn_hiddens = rssm.prior(flatten_states, actions, flatten_rnn_hiddens)
            flatten_states = flatten_states_prior.rsample()
            imaginated_states[h] = flatten_states
            imaginated_rnn_hiddens[h] = flatten_rnn_hiddens

        flatten_imaginated_states = imaginated_states.view(-1, state_dim)
        flatten_imaginated_rnn_hiddens = imaginated_rnn_hiddens.view(-1, rnn_hidden_dim)
        imaginated_rewards = reward_model(flatten_imaginated_states,
                                          flatten_imaginated_rnn_hiddens).view(imagination_horizon + 1, -1)
        imaginated_values = value_model(flatten_imaginated_states,
                                        flatten_imaginated_rnn_hiddens).view(imagination_horizon + 1, -1)
        lambda_target_values = lambda_target(imaginated_rewards, imaginated_values, gamma, lambda_)

        # update_value model
        value_loss = 0.5 * mse_loss(imaginated_values, lambda_target_values.detach())
        value_optimizer.zero_grad()
        value_loss.backward(retain_graph=True)
        clip_grad_norm_(value_model.parameters(), clip)

        # update action model (multiply -1 for gradient ascent)
        action_loss = -1 * (lambda_target_values.mean())
        action_optimizer.zero_grad()
        action_loss.backward()
        clip_grad_norm_(action_model.parameters(), clip)

        # step both optimizers only after both backward passes
        value_optimizer.step()
        action_optimizer.step()
        print(update_step, value_loss.item(), action_loss.item())


if __name__ == "__main__":
    main()
