# source: https://github.com/jesperdlau/GFlowNets/commit/d09fe79e62a1a1eab4dfccee2329b1bfc11385fd
# style: rl
# cause: inplace_modified_saved_tensor
# line: 32
# expert: GFlowNet.step writes the action into a copy, next_state = state.clone(), instead of into the state tensor the MLP has already consumed (commit d09fe79 "Fixed a nasty bug raised by gradient computation")
from torch.distributions.categorical import Categorical
import torch
import torch.nn as nn
import torch.nn.functional as F
import numpy as np

torch.manual_seed(0)


# ---- models/tfbind8_model.py (before commit d09fe79) ----
class GFlowNet(nn.Module):
    def __init__(self, num_hid):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(32, num_hid),
                            nn.LeakyReLU(),
                            nn.Linear(num_hid, 4))
        self.keys = ['A', 'C', 'G', 'T'] # Potential discrepency between this vocabular and the source?

    def seq_to_one_hot(self, sequence):
        one_hot = torch.zeros(32, dtype=torch.float)
        for i, letter in enumerate(sequence):
            action = self.keys.index(letter)
            one_hot[(4*i + action)] = 1.
        return one_hot

    def step(self, i, state, action):
        next_state = state
        next_state[(4*i + action)] = 1.
        return next_state

    def forward(self, x):
        F = self.mlp(x).exp()
        return F


# ---- models/tf_bind_8_reward.py (the reward model; never evaluated by this train loop) ----
class TFBindReward1HOT(nn.Module):
    def __init__(self):
        super(TFBindReward1HOT, self).__init__()

        self.model = nn.Sequential(
                nn.Linear(40, 100),
                nn.ReLU(),
                nn.Linear(100, 100),
                nn.ReLU(),
                nn.Linear(100, 100),
                nn.ReLU(),
                nn.Linear(100, 1))

    def forward(self,x):
        return self.model(x)


# ---- models/train.py (before commit d09fe79) ----
def train(model, optimizer, reward_func, seq_len = 8, num_episodes = 100, update_freq = 4, device = "cpu", path = None):
    """
    Trains a given model using policy gradient with a given reward function.
    """
    sampled_sequences = []
    terminal_rewards = []
    total_trajectory_flow = []

    losses = []
    minibatch_loss = 0
    start_episode = 0

    reward_func.to(device)
    model.to(device)
    model.train()

    for episode in range(start_episode, start_episode + num_episodes):
        # Initialize empty state (as one-hot) and trajectory flow
        state = torch.zeros(32, dtype=torch.float)
        trajectory_flow = []

        # Predict edge flow from initial state
        state.to(device)
        edge_flow_prediction = model(state)

        for i in range(seq_len):
            # Get policy in the current state
            policy = edge_flow_prediction / edge_flow_prediction.sum()

            # Sample action from policy
            action = Categorical(probs=policy).sample()

            # Take action and get new state
            new_state = model.step(i, state, action)
            new_state.to(device)

            # Get the flow from old state to new state
            parent_edge_flow_pred = edge_flow_prediction[action]
            trajectory_flow.append(parent_edge_flow_pred)

            # While building the sequence, reward is zero and flow is predicted
            if i < seq_len:
                reward = 0
                edge_flow_prediction = model(new_state)

            # When sequence is complete, get reward and set flow prediction to zero
            else:
                reward = reward_func(new_state) # TODO: Make sure this works
                terminal_rewards.append(reward)
                edge_flow_prediction = torch.zeros(4)

            # Calculate the error
            flow_mismatch = (parent_edge_flow_pred - edge_flow_prediction.sum() - reward).pow(2)
            minibatch_loss += flow_mismatch  # Accumulate

            # Continue iterating
            state = new_state

        total_trajectory_flow.append(sum(trajectory_flow))
        sampled_sequences.append(state)

        print(f"{episode=}, {minibatch_loss=}")

        # Perform training step
        if episode % update_freq == 0:
            losses.append(minibatch_loss.item())
            minibatch_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            minibatch_loss = 0
            print(f"Performed optimization step")


# ---- driver (in place of the repository's training script) ----
model = GFlowNet(512)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
reward_func = TFBindReward1HOT()
train(model, optimizer, reward_func, seq_len=8, num_episodes=9, update_freq=4)
