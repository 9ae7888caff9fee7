# source: https://github.com/jayroxis/PINNs/blob/master/Burgers%20Equation/Burgers%20Inference%20(PyTorch).ipynb
# style: physics
# expert: correct PINN: the PDE residual uses autograd.grad(create_graph=True) inside net_f, and the whole forward is recomputed inside the LBFGS closure that zeroes gradients and backpropagates once per call
import numpy as np
import torch
from collections import OrderedDict

torch.manual_seed(1234)
np.random.seed(1234)
device = torch.device('cpu')


class DNN(torch.nn.Module):
    def __init__(self, layers):
        super(DNN, self).__init__()
        self.depth = len(layers) - 1
        self.activation = torch.nn.Tanh
        layer_list = list()
        for i in range(self.depth - 1):
            layer_list.append(('layer_%d' % i, torch.nn.Linear(layers[i], layers[i + 1])))
            layer_list.append(('activation_%d' % i, self.activation()))
        layer_list.append(('layer_%d' % (self.depth - 1), torch.nn.Linear(layers[-2], layers[-1])))
        self.layers = torch.nn.Sequential(OrderedDict(layer_list))

    def forward(self, x):
        return self.layers(x)


class PhysicsInformedNN():
    def __init__(self, X_u, u, X_f, layers, lb, ub, nu):
        self.lb = torch.tensor(lb).float().to(device)
        self.ub = torch.tensor(ub).float().to(device)
        self.x_u = torch.tensor(X_u[:, 0:1], requires_grad=True).float().to(device)
        self.t_u = torch.tensor(X_u[:, 1:2], requires_grad=True).float().to(device)
        self.x_f = torch.tensor(X_f[:, 0:1], requires_grad=True).float().to(device)
        self.t_f = torch.tensor(X_f[:, 1:2], requires_grad=True).float().to(device)
        self.u = torch.tensor(u).float().to(device)
        self.layers = layers
        self.nu = nu
        self.dnn = DNN(layers).to(device)
        self.optimizer = torch.optim.LBFGS(self.dnn.parameters(), lr=1.0, max_iter=30, max_eval=40,
                                           history_size=50, tolerance_grad=1e-5, tolerance_change=1.0 * np.finfo(float).eps,
                                           line_search_fn="strong_wolfe")
        self.iter = 0

    def net_u(self, x, t):
        return self.dnn(torch.cat([x, t], dim=1))

    def net_f(self, x, t):
        u = self.net_u(x, t)
        u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True, create_graph=True)[0]
        u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), retain_graph=True, create_graph=True)[0]
        u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), retain_graph=True, create_graph=True)[0]
        return u_t + u * u_x - self.nu * u_xx

    def loss_func(self):
        self.optimizer.zero_grad()
        u_pred = self.net_u(self.x_u, self.t_u)
        f_pred = self.net_f(self.x_f, self.t_f)
        loss_u = torch.mean((self.u - u_pred) ** 2)
        loss_f = torch.mean(f_pred ** 2)
        loss = loss_u + loss_f
        loss.backward()
        self.iter += 1
        if self.iter % 10 == 0:
            print('Iter %d, Loss: %.5e, Loss_u: %.5e, Loss_f: %.5e' % (self.iter, loss.item(), loss_u.item(), loss_f.item()))
        return loss

    def train(self):
        self.dnn.train()
        self.optimizer.step(self.loss_func)


nu = 0.01 / np.pi
lb, ub = np.array([-1.0, 0.0]), np.array([1.0, 0.99])
X_u_train = np.random.uniform(lb, ub, size=(20, 2))
u_train = -np.sin(np.pi * X_u_train[:, 0:1])
X_f_train = np.random.uniform(lb, ub, size=(100, 2))
model = PhysicsInformedNN(X_u_train, u_train, X_f_train, [2, 16, 16, 1], lb, ub, nu)
model.train()
