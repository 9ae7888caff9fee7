# source: variant of https://github.com/achavala/Project0-Next/blob/66c5c8db3eb486006d05b4ac24e1e27c88dfc843/LSTM_GRAPH_DETACH_FIX.md
# scenario: rnn_state
# cause: recurrent_state_not_detached
# root: cell 1 line 37
# expert: LSTMFeatureExtractor stores the LSTM (h, c) returned by the forward pass in self.lstm_hidden and feeds it to the next call, so the second PPO minibatch's loss backpropagates into the first minibatch's LSTM graph, already freed by its backward; the fix report detaches self.lstm_hidden before it is passed to the LSTM and right after the forward pass, keeping the values but not the graph.
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
np.random.seed(0)
# %%
class LSTMFeatureExtractor(nn.Module):
    """LSTM-based feature extractor for temporal pattern recognition (SB3 BaseFeaturesExtractor in the original)"""

    def __init__(self, obs_shape, features_dim=32, lstm_hidden_size=32, lstm_num_layers=2, dropout=0.1):
        super().__init__()
        self.timesteps, self.input_size = obs_shape
        self.lstm = nn.LSTM(
            input_size=self.input_size,
            hidden_size=lstm_hidden_size,
            num_layers=lstm_num_layers,
            dropout=dropout if lstm_num_layers > 1 else 0,
            batch_first=False,  # (seq_len, batch, features) format for LSTM
        )
        self.linear = nn.Linear(lstm_hidden_size, features_dim)
        self.activation = nn.ReLU()
        self.features_dim = features_dim
        # Initialize LSTM hidden state
        self.lstm_hidden = None
        self.last_batch_size = None

    def reset_hidden_state(self):
        self.lstm_hidden = None
        self.last_batch_size = None

    def forward(self, observations):
        batch_size = observations.shape[0]
        # (batch, timesteps, features) -> (seq_len, batch, features)
        obs_reshaped = observations.transpose(0, 1)

        # Reset hidden state if batch size changed
        if self.lstm_hidden is not None:
            expected_batch_size = self.lstm_hidden[0].shape[1]
            if expected_batch_size != batch_size:
                self.lstm_hidden = None

        # LSTM forward pass (PyTorch initialises the state when it is None)
        lstm_out, self.lstm_hidden = self.lstm(obs_reshaped, self.lstm_hidden)

        last_output = lstm_out[-1]  # (batch, hidden_size)
        features = self.linear(last_output)
        features = self.activation(features)
        return features
# %%
obs_shape = (5, 4)   # 5 timesteps of 4 market features
n_actions = 3
features_extractor = LSTMFeatureExtractor(obs_shape)
policy_net = nn.Sequential(nn.Linear(32, 16), nn.Tanh())
action_net = nn.Linear(16, n_actions)
value_net = nn.Linear(16, 1)
params = [p for m in (features_extractor, policy_net, action_net, value_net) for p in m.parameters()]
optimizer = torch.optim.Adam(params, lr=3e-4)

def evaluate_actions(obs, actions):
    latent = policy_net(features_extractor(obs))
    dist = torch.distributions.Categorical(logits=action_net(latent))
    return value_net(latent).squeeze(-1), dist.log_prob(actions), dist.entropy()
# %%
# collect a rollout (n_envs=1, n_steps=16) without gradients, like SB3's collect_rollouts
n_steps = 16
rollout_obs = torch.randn(n_steps, *obs_shape)
rollout_actions, old_log_prob, old_values = [], [], []
with torch.no_grad():
    for t in range(n_steps):
        latent = policy_net(features_extractor(rollout_obs[t:t + 1]))
        dist = torch.distributions.Categorical(logits=action_net(latent))
        a = dist.sample()
        values = value_net(latent).squeeze(-1)
        rollout_actions.append(a)
        old_log_prob.append(dist.log_prob(a))
        old_values.append(values)
rollout_actions = torch.cat(rollout_actions)
old_log_prob = torch.cat(old_log_prob)
old_values = torch.cat(old_values)
returns = old_values + torch.randn(n_steps)
advantages = returns - old_values
# %%
# PPO train(): n_epochs passes over the buffer in minibatches
n_epochs, batch_size, clip_range = 2, 8, 0.2
for epoch in range(n_epochs):
    for start in range(0, n_steps, batch_size):
        idx = torch.arange(start, start + batch_size)
        values, log_prob, entropy = evaluate_actions(rollout_obs[idx], rollout_actions[idx])
        adv = (advantages[idx] - advantages[idx].mean()) / (advantages[idx].std() + 1e-8)
        ratio = torch.exp(log_prob - old_log_prob[idx])
        policy_loss = -torch.min(adv * ratio, adv * torch.clamp(ratio, 1 - clip_range, 1 + clip_range)).mean()
        value_loss = F.mse_loss(returns[idx], values)
        loss = policy_loss + 0.5 * value_loss - 0.0 * entropy.mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 0.5)
        optimizer.step()
    print("epoch", epoch, loss.item())
