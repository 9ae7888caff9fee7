# source: https://github.com/Koukyosyumei/AIJack/issues/159 (fixed by https://github.com/Koukyosyumei/AIJack/pull/160, commit 344f171; the "Reconstruct Single Data" DLG cell of docs/source/notebooks/aijack_gradient_inversion_attack.ipynb with FedAVGClient, FedAVGServer, FedAVGAPI, SGDFLOptimizer, GradientInversion_Attack and attach_gradient_inversion_attack_to_server cut down from src/aijack as they were before the fix; random 28x28 images instead of torchvision MNIST, 1 trial of one LBFGS step with max_iter=2 instead of 5 trials of 100 steps)
# style: federated
# cause: tensor_reused_across_iterations
# line: 56
# expert: FedAVGClient.upload_gradients builds the uploaded "gradients" as (prev_param - param) / lr from the client's parameters, so they carry a graph; the server stores them in self.uploaded_gradients and the gradient-inversion attack feeds that same stored list into the distance of every closure call, whose distance.backward() frees the graph of the received gradients on the first call. The maintainer's fix (PR #160) detaches the received gradients before attacking: received_gradient = [cg.detach() for cg in received_gradient] in attack() and group_attack().
import copy

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


# ---- aijack/collaborative (cut down) ---------------------------------------------------------
class BaseClient(torch.nn.Module):
    def __init__(self, model, user_id=0):
        super(BaseClient, self).__init__()
        self.model = model
        self.user_id = user_id

    def forward(self, x):
        return self.model(x)


class SGDFLOptimizer:
    def __init__(self, parameters, lr=0.01, weight_decay=0.0000):
        self.parameters = list(parameters)
        self.lr = lr
        self.weight_decay = weight_decay
        self.t = 1

    def step(self, grads):
        for param, grad in zip(self.parameters, grads):
            if self.weight_decay == 0.0:
                param.data -= self.lr * grad
            else:
                param.data -= self.lr * (grad + self.weight_decay * param.data)
        self.t += 1


class FedAVGClient(BaseClient):
    def __init__(self, model, user_id=0, lr=0.1, send_gradient=True, device="cpu"):
        super(FedAVGClient, self).__init__(model, user_id=user_id)
        self.lr = lr
        self.send_gradient = send_gradient
        self.device = device
        self.prev_parameters = []
        for param in self.model.parameters():
            self.prev_parameters.append(copy.deepcopy(param))
        self.initialized = False

    def upload_gradients(self):
        """Upload the local gradients"""
        gradients = []
        for param, prev_param in zip(self.model.parameters(), self.prev_parameters):
            gradients.append((prev_param - param) / self.lr)
        return gradients

    def download(self, new_global_model):
        """Download the new global model"""
        self.model.load_state_dict(new_global_model)
        if not self.initialized:
            self.initialized = True
        self.prev_parameters = []
        for param in self.model.parameters():
            self.prev_parameters.append(copy.deepcopy(param))

    def local_train(self, local_epoch, criterion, trainloader, optimizer, communication_id=0):
        for i in range(local_epoch):
            running_loss = 0.0
            running_data_num = 0
            for _, data in enumerate(trainloader, 0):
                inputs, labels = data
                inputs = inputs.to(self.device)
                labels = labels.to(self.device)

                optimizer.zero_grad()
                self.zero_grad()

                outputs = self(inputs)
                loss = criterion(outputs, labels)

                loss.backward()
                optimizer.step()

                running_loss += loss.item()
                running_data_num += inputs.shape[0]

            print(f"communication {communication_id}, epoch {i}: client-{self.user_id+1}",
                  running_loss / running_data_num)


class FedAVGServer(torch.nn.Module):
    def __init__(self, clients, global_model, server_id=0, lr=0.1, device="cpu"):
        super(FedAVGServer, self).__init__()
        self.clients = clients
        self.server_model = global_model
        self.server_id = server_id
        self.num_clients = len(clients)
        self.lr = lr
        self.optimizer = SGDFLOptimizer(self.server_model.parameters(), lr=self.lr)
        self.server_side_update = True
        self.device = device
        self.uploaded_gradients = []
        self.force_send_model_state_dict = True
        self.weight = [1.0 / self.num_clients] * self.num_clients

    def receive(self, use_gradients=True):
        self.receive_local_gradients()

    def _preprocess_local_gradients(self, uploaded_grad):
        return uploaded_grad

    def receive_local_gradients(self):
        """Receive local gradients"""
        self.uploaded_gradients = [
            self._preprocess_local_gradients(c.upload_gradients()) for c in self.clients
        ]

    def update_from_gradients(self):
        """Update the global model with the local gradients."""
        self.aggregated_gradients = [
            torch.zeros_like(params) for params in self.server_model.parameters()
        ]
        len_gradients = len(self.aggregated_gradients)

        for i, gradients in enumerate(self.uploaded_gradients):
            for gradient_id in range(len_gradients):
                self.aggregated_gradients[gradient_id] = (
                    gradients[gradient_id] * self.weight[i]
                    + self.aggregated_gradients[gradient_id]
                )

        if self.server_side_update:
            self.optimizer.step(self.aggregated_gradients)

    def distribute(self):
        for client in self.clients:
            client.download(self.server_model.state_dict())


class FedAVGAPI:
    def __init__(self, server, clients, criterion, local_optimizers, local_dataloaders,
                 num_communication=1, local_epoch=1, use_gradients=True, device="cpu"):
        self.server = server
        self.clients = clients
        self.criterion = criterion
        self.local_optimizers = local_optimizers
        self.local_dataloaders = local_dataloaders
        self.num_communication = num_communication
        self.local_epoch = local_epoch
        self.use_gradients = use_gradients
        self.device = device
        self.client_num = len(self.clients)
        local_dataset_sizes = [len(dataloader.dataset) for dataloader in self.local_dataloaders]
        sum_local_dataset_sizes = sum(local_dataset_sizes)
        self.server.weight = [
            dataset_size / sum_local_dataset_sizes for dataset_size in local_dataset_sizes
        ]

    def local_train(self, i):
        for client_idx in range(self.client_num):
            self.clients[client_idx].local_train(
                self.local_epoch, self.criterion, self.local_dataloaders[client_idx],
                self.local_optimizers[client_idx], communication_id=i,
            )

    def run(self):
        self.server.force_send_model_state_dict = True
        self.server.distribute()
        self.server.force_send_model_state_dict = False
        for i in range(self.num_communication):
            self.local_train(i)
            self.server.receive(use_gradients=self.use_gradients)
            self.server.update_from_gradients()
            self.server.distribute()


# ---- aijack/attack/inversion (cut down) ------------------------------------------------------
def l2(fake_gradients, received_gradients, gradient_ignore_pos):
    distance = 0
    for i, (f_g, c_g) in enumerate(zip(fake_gradients, received_gradients)):
        if i not in gradient_ignore_pos:
            distance += ((f_g - c_g) ** 2).sum()
    return distance


def _generate_fake_gradients(target_model, lossfunc, optimize_label, fake_x, fake_label):
    fake_pred = target_model(fake_x)
    if optimize_label:
        loss = lossfunc(fake_pred, fake_label.softmax(dim=-1))
    else:
        loss = lossfunc(fake_pred, fake_label)
    fake_gradients = torch.autograd.grad(
        loss, target_model.parameters(), create_graph=True, allow_unused=True,
    )
    return fake_pred, fake_gradients


class GradientInversion_Attack:
    def __init__(self, target_model, x_shape, y_shape=10, num_iteration=100,
                 optimizer_class=torch.optim.LBFGS, lossfunc=nn.CrossEntropyLoss(),
                 distancefunc=l2, device="cpu", log_interval=10, seed=0, **kwargs):
        self.target_model = target_model
        self.x_shape = x_shape
        self.y_shape = y_shape
        self.optimize_label = True
        self.gradient_ignore_pos = []
        self.num_iteration = num_iteration
        self.optimizer_class = optimizer_class
        self.lossfunc = lossfunc
        self.distancefunc = distancefunc
        self.device = device
        self.log_interval = log_interval
        self.kwargs = kwargs
        self.seed = seed

    def _setup_closure(self, optimizer, fake_x, fake_label, received_gradients):
        def closure():
            optimizer.zero_grad()
            fake_pred, fake_gradients = _generate_fake_gradients(
                self.target_model, self.lossfunc, self.optimize_label, fake_x, fake_label,
            )
            distance = self.distancefunc(fake_gradients, received_gradients, self.gradient_ignore_pos)
            distance_val = distance.item()
            distance.backward(retain_graph=False)
            return distance_val

        return closure

    def attack(self, received_gradients, batch_size=1):
        fake_x = torch.randn((batch_size,) + (self.x_shape), requires_grad=True, device=self.device)
        fake_label = torch.randn((batch_size, self.y_shape), requires_grad=True, device=self.device)
        optimizer = self.optimizer_class([fake_x, fake_label], **self.kwargs)

        best_distance = float("inf")
        for i in range(1, self.num_iteration + 1):
            closure = self._setup_closure(optimizer, fake_x, fake_label, received_gradients)
            distance = optimizer.step(closure)
            if best_distance > distance:
                best_fake_x = fake_x.detach().clone()
                best_fake_label = fake_label.detach().clone()
                best_distance = distance
        return best_fake_x, best_fake_label

    def reset_seed(self, seed):
        self.seed = seed
        torch.manual_seed(seed)


def _default_gradinent_inversion_attack_on_receive(self):
    tmp_result = []
    for s in range(self.num_trial_per_communication):
        self.reset_seed(s)
        try:
            tmp_result.append(self.attack())
        except OverflowError:
            continue
    self.attack_results.append(tmp_result)


def attach_gradient_inversion_attack_to_server(
    cls, x_shape, attack_function_on_receive=_default_gradinent_inversion_attack_on_receive,
    num_trial_per_communication=1, target_client_id=0, **gradinvattack_kwargs,
):
    class GradientInversionServerWrapper(cls):
        def __init__(self, *args, **kwargs):
            super(GradientInversionServerWrapper, self).__init__(*args, **kwargs)
            self.target_client_id = target_client_id
            self.num_trial_per_communication = num_trial_per_communication
            self.attacker = GradientInversion_Attack(self.server_model, x_shape, **gradinvattack_kwargs)
            self.attack_results = []

        def receive(self, *args, **kwargs):
            super(GradientInversionServerWrapper, self).receive(*args, **kwargs)
            attack_function_on_receive(self)

        def attack(self, **kwargs):
            received_gradient = self.uploaded_gradients[self.target_client_id]
            received_gradient = [cg.detach() for cg in received_gradient]
            return self.attacker.attack(received_gradient, **kwargs)

        def reset_seed(self, seed):
            self.attacker.reset_seed(seed)

    return GradientInversionServerWrapper


class GradientInversionAttackServerManager:
    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs

    def attach(self, cls):
        return attach_gradient_inversion_attack_to_server(cls, *self.args, **self.kwargs)


# ---- the notebook ----------------------------------------------------------------------------
class LeNet(nn.Module):
    def __init__(self, channel=3, hideen=768, num_classes=10):
        super(LeNet, self).__init__()
        act = nn.Sigmoid
        self.body = nn.Sequential(
            nn.Conv2d(channel, 12, kernel_size=5, padding=5 // 2, stride=2),
            nn.BatchNorm2d(12),
            act(),
            nn.Conv2d(12, 12, kernel_size=5, padding=5 // 2, stride=2),
            nn.BatchNorm2d(12),
            act(),
            nn.Conv2d(12, 12, kernel_size=5, padding=5 // 2, stride=1),
            nn.BatchNorm2d(12),
            act(),
        )
        self.fc = nn.Sequential(nn.Linear(hideen, num_classes))

    def forward(self, x):
        out = self.body(x)
        out = out.view(out.size(0), -1)
        out = self.fc(out)
        return out


torch.manual_seed(7777)

shape_img = (28, 28)
num_classes = 10
channel = 1
hidden = 588

device = "cpu"
xs = torch.rand(64, 1, 28, 28) * 2 - 1          # stand-in for a normalised MNIST batch
ys = torch.randint(0, 10, (64,))
x = xs[:1]
y = ys[:1]

criterion = nn.CrossEntropyLoss()

manager = GradientInversionAttackServerManager(
    (1, 28, 28),
    num_trial_per_communication=1,
    log_interval=0,
    num_iteration=1,
    device=device,
    lr=1.0,
    max_iter=2,
)
DLGFedAVGServer = manager.attach(FedAVGServer)

client = FedAVGClient(
    LeNet(channel=channel, hideen=hidden, num_classes=num_classes).to(device),
    lr=1.0,
    device=device,
)
server = DLGFedAVGServer(
    [client],
    LeNet(channel=channel, hideen=hidden, num_classes=num_classes).to(device),
    lr=1.0,
    device=device,
)

local_dataloaders = [DataLoader(TensorDataset(x, y))]
local_optimizers = [optim.SGD(client.parameters(), lr=1.0)]

api = FedAVGAPI(
    server,
    [client],
    criterion,
    local_optimizers,
    local_dataloaders,
    num_communication=1,
    local_epoch=1,
    use_gradients=True,
    device=device,
)

api.run()

for s, result in enumerate(server.attack_results[0]):
    print(s, result[0].shape, result[1].argmax().item())
