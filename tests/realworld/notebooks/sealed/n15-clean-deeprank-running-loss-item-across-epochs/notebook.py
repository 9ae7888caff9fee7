# source: https://github.com/DeepRank/deeprank/issues/210 (NeuralNet._epoch of deeprank/learn/NeuralNet.py with its running_loss += loss.data.item(), a tiny 3D CNN on random feature grids instead of the HDF5 DataSet, and the per-epoch loss history kept in a dict across cells; the epoch cell is run twice)
# scenario: clean
# order: 0 1 2 3 3 4
# expert: none needed: running_loss accumulates loss.data.item(), a Python float, so the running total set up in the epoch and the losses dict grown across cells hold no graph; each mini-batch backpropagates only its own loss, and re-running the epoch cell is fine (loss.item() alone would be just as safe)
# %%
import torch
import torch.nn as nn
torch.manual_seed(0)


class cnn_class(nn.Module):
    def __init__(self, input_shape):
        super().__init__()
        self.convlayer_000 = nn.Conv3d(input_shape[0], 4, kernel_size=2)
        self.pool = nn.AdaptiveMaxPool3d(2)
        self.fclayer_000 = nn.Linear(4 * 8, 2)

    def forward(self, x):
        x = torch.relu(self.convlayer_000(x))
        x = self.pool(x).view(x.size(0), -1)
        return self.fclayer_000(x)


net = cnn_class((3, 6, 6, 6))
optimizer = torch.optim.SGD(net.parameters(), lr=0.005, momentum=0.9, weight_decay=0.001)
criterion = nn.CrossEntropyLoss()
task = 'class'

# random stand-ins for the mini-batches of the HDF5 feature grids
train_loader = [{'feature': torch.randn(4, 3, 6, 6, 6), 'target': torch.randint(0, 2, (4, 1)),
                 'mol': [f'mol{i}{j}' for j in range(4)]} for i in range(3)]
valid_loader = [{'feature': torch.randn(4, 3, 6, 6, 6), 'target': torch.randint(0, 2, (4, 1)),
                 'mol': [f'val{j}' for j in range(4)]}]
# %%
def _epoch(data_loader, train_model, has_target=True):
    """Perform one single epoch iteration over a data loader."""
    # variables of the epoch
    running_loss = 0
    data = {'outputs': [], 'targets': [], 'mol': []}
    n = 0

    # set train/eval mode
    net.train(mode=train_model)
    torch.set_grad_enabled(train_model)

    for d in data_loader:
        # get the data
        inputs = d['feature']
        targets = d['target']
        mol = d['mol']

        # forward
        outputs = net(inputs)

        # class complains about the shape ...
        if task == 'class':
            targets = targets.view(-1)

        if has_target:
            # evaluate loss
            loss = criterion(outputs, targets)
            running_loss += loss.data.item()  # pytorch1 compatible
        n += len(inputs)

        # zero + backward + step
        if train_model:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        # get the outputs for export
        data['outputs'] += outputs.data.numpy().tolist()
        data['targets'] += targets.data.numpy().tolist()
        data['mol'] += mol

    running_loss /= n
    return running_loss, data
# %%
losses = {'train': [], 'valid': []}
epoch = 0
# %%
train_loss, _ = _epoch(train_loader, True)
valid_loss, _ = _epoch(valid_loader, False)
losses['train'].append(train_loss)
losses['valid'].append(valid_loss)
epoch += 1
print(f'epoch {epoch}: train {train_loss:.4f} valid {valid_loss:.4f}')
# %%
print('mean train loss', sum(losses['train']) / len(losses['train']))
