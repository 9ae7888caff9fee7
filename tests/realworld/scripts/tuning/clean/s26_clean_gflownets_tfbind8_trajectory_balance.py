# source: https://github.com/jesperdlau/GFlowNets/blob/main/models/train_tb.py
# style: rl
# expert: correct program: GFlowNet.step writes each action into state.clone(), every trajectory is rebuilt from a fresh zero state, the trajectory-balance minibatch loss is backpropagated once per training step and reset to a new torch.zeros(1) afterwards
# GFlowNet trajectory-balance training on TFBind8-style one-hot sequences, as in the repository's
# models/train_tb.py, models/gflownet_model_tb.py and reward_functions/tf_bind_reward_1hot.py
# (step() writes into state.clone()). The pretrained reward checkpoint is replaced by a randomly
# initialised reward network; small sizes; no checkpoint saving.
from torch.distributions.categorical import Categorical
import torch
import torch.nn as nn
import time

torch.manual_seed(0)


# ---- reward_functions/tf_bind_reward_1hot.py ----
class TFBindReward1HOT(nn.Module):

    def __init__(self, n_hid = 2048, n_hidden_layers = 2):
        super(TFBindReward1HOT, self).__init__()
        n_actions    = 4
        len_sequence = 8
        len_onehot   = n_actions * len_sequence

        input_layer   = nn.Linear(len_onehot, n_hid)
        output_layer  = nn.Linear(n_hid, 1)
        act_func      = nn.ReLU()

        hidden_layers = []
        for _ in range(n_hidden_layers):
            hidden_layers.append(nn.Linear(n_hid, n_hid))
            hidden_layers.append(act_func)

        model_architecture = [input_layer, act_func, *hidden_layers, output_layer]
        self.model = nn.Sequential(*model_architecture)

    def forward(self,x):
        return self.model(x)


# ---- models/gflownet_model_tb.py ----
class GFlowNet(nn.Module):
    def __init__(self, n_hid = 2048, n_hidden_layers = 2, n_actions = 4, len_sequence = 8, delta = 0.001):
        super().__init__()

        self.keys         = ['A', 'C', 'G', 'T'] # Potential discrepency between this vocabular and the source?
        self.n_actions    = n_actions
        self.len_sequence = len_sequence
        self.len_onehot   = self.n_actions * self.len_sequence
        self.n_hid        = n_hid
        self.n_hidden_layers = n_hidden_layers
        self.delta        = delta
        self.logZ = nn.Parameter(torch.ones(1))

        input_layer   = nn.Linear(self.len_onehot, self.n_hid)
        output_layer  = nn.Linear(self.n_hid, self.n_actions*2)
        act_func      = nn.ReLU()

        hidden_layers = []
        for _ in range(self.n_hidden_layers):
            hidden_layers.append(nn.Linear(self.n_hid, self.n_hid))
            hidden_layers.append(act_func)

        model_architecture = [input_layer, act_func, *hidden_layers, output_layer]
        self.mlp = nn.Sequential(*model_architecture)

    def step(self, i, state, action):
        next_state = state.clone() # If not .clone, raises "RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation:"
        next_state[(self.n_actions * i + action)] = 1.
        return next_state

    def forward(self, x):
        F = self.mlp(x)
        P_F = F[...,:self.n_actions]
        P_B = F[...,self.n_actions:]
        return P_F, P_B


# ---- models/train_tb.py (checkpoint loading/saving cut) ----
def train_tb(model, optimizer, logz_optimizer, reward_func,
             minibatch_size:int = 32, num_episodes:int = 100, checkpoint_freq:int = 50,
             delta:float = 0.001, beta:int = 3,
             model_path = None, reward_path = None, device = "cpu", hot_start:bool = False, verbose:bool = False):
    # Move model and reward function to device
    reward_func.to(device)
    model.to(device)
    model.train()

    # Training outer loop (5000)
    start_time = time.time()
    for training_step in range(num_episodes):
        minibatch_loss = torch.zeros(1)

        # Training inner loop (32)
        for episode in range(minibatch_size):
            # Initialize empty state (as one-hot) and trajectory flow
            state = torch.zeros(model.len_onehot, dtype=torch.float, device=device)
            state = state.to(device)

            # Predict edge flow from initial state
            P_F_s, P_B_s  = model(state)
            total_P_F = 0
            total_P_B = 0

            # Build sequence
            for i in range(model.len_sequence):
                # Get policy in the current state
                policy = P_F_s

                # Adding uniform distribution to policy, delta controls exploration
                policy = torch.mul(policy, (1-delta))
                policy = torch.add(policy, delta * (1/model.n_actions))

                # Sample action from policy
                distribution = Categorical(logits=policy)
                action = distribution.sample()

                # Get new state from current state and action
                state = model.step(i, state, action)
                state.to(device)

                # Predict edge flow
                P_F_s, P_B_s = model(state)

                # Accumulate flow
                total_P_F += distribution.log_prob(action)
                total_P_B += Categorical(logits=P_B_s).log_prob(action)

            # Calculate reward and loss
            reward = reward_func(state).pow(beta)
            reward = torch.nan_to_num(torch.log(reward).clip(-20), -20) # clips reward to at least -20, even if it is nan
            loss = (model.logZ + total_P_F - reward - total_P_B).pow(2)

            # Accumulate loss
            minibatch_loss += loss.cpu()

        # Print log
        if verbose:
            print(f"Step:[{training_step+1:>4}]/[{num_episodes}] \t Time:[{time.time() - start_time:>8.0f}s] \t Loss:[{minibatch_loss.item():>14.8f}]")

        # Perform optimization
        optimizer.zero_grad()
        logz_optimizer.zero_grad()

        minibatch_loss.backward()

        optimizer.step()
        logz_optimizer.step()

        # Average loss for step
        average_step_loss = minibatch_loss.item() / minibatch_size

        # Reset minibatch_loss
        minibatch_loss = torch.zeros(1)


# ---- driver, after tfbind8_train_gflownet.py (small sizes) ----
model = GFlowNet(n_hid=64, n_hidden_layers=2, n_actions=4, len_sequence=8, delta=0.001)
parameters_to_optimize = []
for name, param in model.named_parameters():
    if name != 'logZ':
        parameters_to_optimize.append(param)
optimizer = torch.optim.Adam(parameters_to_optimize, lr=10**-5, betas=(0.9, 0.999))
logz_optimizer = torch.optim.Adam([model.logZ], lr=10**-3, betas=(0.9, 0.999))
reward_func = TFBindReward1HOT(n_hid=64, n_hidden_layers=2)
train_tb(model, optimizer, logz_optimizer, reward_func, minibatch_size=8, num_episodes=5,
         delta=0.001, beta=3, verbose=True)
