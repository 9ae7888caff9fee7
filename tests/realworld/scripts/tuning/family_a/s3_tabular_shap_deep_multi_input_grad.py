# source: https://github.com/shap/shap/pull/684
# style: tabular
# cause: double_backward
# line: 45
# expert: when taking torch.autograd.grad of the same selected outputs once per input tensor, pass retain_graph=True for every input but the last (the fix merged in shap), or take the gradients w.r.t. all inputs in one autograd.grad call
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class TabularNet(nn.Module):
    """Two-input tabular model: numeric features and embedded categorical features."""

    def __init__(self, n_num=5, n_cat=3, emb_dim=4):
        super().__init__()
        self.num_branch = nn.Sequential(nn.Linear(n_num, 16), nn.ReLU())
        self.cat_branch = nn.Sequential(nn.Linear(n_cat * emb_dim, 16), nn.ReLU())
        self.head = nn.Linear(32, 2)

    def forward(self, x_num, x_cat_emb):
        return self.head(torch.cat([self.num_branch(x_num), self.cat_branch(x_cat_emb)], dim=1))


class PyTorchDeepExplainer:
    def __init__(self, model, data):
        self.multi_input = isinstance(data, list)
        if not self.multi_input:
            data = [data]
        self.model = model.eval()
        self.data = data
        with torch.no_grad():
            outputs = model(*data)
        self.expected_value = outputs.mean(0).cpu().numpy()

    def gradient(self, idx, inputs):
        self.model.zero_grad()
        X = [x.requires_grad_() for x in inputs]
        outputs = self.model(*X)
        selected = [val for val in outputs[:, idx]]
        grads = []
        for idx, x in enumerate(X):
            grad = torch.autograd.grad(selected, x)[0]
            grads.append(grad.cpu().numpy())
        return grads

    def shap_values(self, X):
        if not self.multi_input:
            X = [X]
        output_phis = []
        for i in range(self.expected_value.shape[0]):
            phis = [np.zeros(x.shape) for x in X]
            for j in range(X[0].shape[0]):
                tiled_X = [X[l][j:j + 1].repeat((self.data[l].shape[0],) + tuple([1 for k in range(len(X[l].shape) - 1)]))
                           for l in range(len(X))]
                joint_x = [torch.cat((tiled_X[l], self.data[l]), dim=0) for l in range(len(X))]
                sample_phis = self.gradient(i, joint_x)
                for l in range(len(X)):
                    n = self.data[l].shape[0]
                    phis[l][j] = (sample_phis[l][:n] * (X[l][j:j + 1] - self.data[l]).detach().numpy()).mean(0)
            output_phis.append(phis)
        return output_phis


model = TabularNet()
background = [torch.randn(10, 5), torch.randn(10, 12)]
test_rows = [torch.randn(3, 5), torch.randn(3, 12)]
explainer = PyTorchDeepExplainer(model, background)
shap_values = explainer.shap_values(test_rows)
print([sv[0].shape for sv in shap_values])
