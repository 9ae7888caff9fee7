# %%
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
np.random.seed(0)
# %%
class InnerDeepSVDD(nn.Module):
    def __init__(self, n_features, use_ae, hidden_neurons, hidden_activation,
                 output_activation, dropout_rate, l2_regularizer):
        super(InnerDeepSVDD, self).__init__()
        self.n_features = n_features
        self.use_ae = use_ae
        self.hidden_neurons = hidden_neurons or [64, 32]
        self.hidden_activation = hidden_activation
        self.output_activation = output_activation
        self.dropout_rate = dropout_rate
        self.l2_regularizer = l2_regularizer
        self.model = self._build_model()

    def _build_model(self):
        layers = nn.Sequential()
        layers.add_module('input_layer', nn.Linear(self.n_features, self.hidden_neurons[0], bias=False))
        layers.add_module('hidden_activation_e0', nn.ReLU())
        for i in range(1, len(self.hidden_neurons) - 1):
            layers.add_module(f'hidden_layer_e{i}', nn.Linear(self.hidden_neurons[i - 1], self.hidden_neurons[i], bias=False))
            layers.add_module(f'hidden_activation_e{i}', nn.ReLU())
            layers.add_module(f'hidden_dropout_e{i}', nn.Dropout(self.dropout_rate))
        layers.add_module('net_output', nn.Linear(self.hidden_neurons[-2], self.hidden_neurons[-1], bias=False))
        layers.add_module(f'hidden_activation_e{len(self.hidden_neurons)}', nn.ReLU())
        return layers

    def forward(self, x):
        return self.model(x)
# %%
def fit(model, X_norm, epochs=3, batch_size=16, l2_regularizer=0.1, c=0.0, use_ae=False):
    dataset = TensorDataset(X_norm, X_norm)
    dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
    best_loss = float('inf')
    best_model_dict = None
    optimizer = torch.optim.Adam(model.parameters(), weight_decay=l2_regularizer)

    for epoch in range(epochs):
        model.train()
        epoch_loss = 0
        for batch_x, _ in dataloader:
            optimizer.zero_grad()
            outputs = model(batch_x)
            dist = torch.sum((outputs - c) ** 2, dim=-1)
            w_d = 1e-6 * sum([torch.linalg.norm(w) for w in model.parameters()])
            if use_ae:
                loss = torch.mean(dist) + w_d + torch.mean(torch.square(outputs - batch_x))
            else:
                loss = torch.mean(dist) + w_d

            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            if epoch_loss < best_loss:
                best_loss = epoch_loss
                best_model_dict = model.state_dict()
        print(f"Epoch {epoch+1}/{epochs}, Loss: {epoch_loss}")
    return best_model_dict
# %%
X_train = torch.tensor(np.random.randn(64, 10), dtype=torch.float32)
model = InnerDeepSVDD(10, use_ae=False, hidden_neurons=[16, 8], hidden_activation='relu',
                      output_activation='sigmoid', dropout_rate=0.2, l2_regularizer=0.1)
# %%
best_model_dict = fit(model, X_train, epochs=3)
