# source: https://github.com/jokester-zzz/SSA-SC/issues/2
# style: vision
# cause: graph_kept_alive
# line: 43
# expert: accumulate each loss entry as a number (loss[key].item()) when updating the running train/validation loss dictionaries
import torch
import torch.nn as nn

torch.manual_seed(0)


class SSC(nn.Module):
    """Tiny semantic scene completion net: occupancy grid -> per-voxel class scores."""

    def __init__(self, n_classes=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 8, 3, padding=1), nn.ReLU())
        self.sem = nn.Conv3d(8, n_classes, 1)
        self.occ = nn.Conv3d(8, 1, 1)

    def forward(self, x):
        h = self.enc(x)
        return {'pred_semantic_1_1': self.sem(h), 'pred_occ': self.occ(h)}

    def compute_loss(self, scores, data):
        target = data['3D_LABEL']
        loss_sem = nn.functional.cross_entropy(scores['pred_semantic_1_1'], target)
        loss_occ = nn.functional.binary_cross_entropy_with_logits(scores['pred_occ'].squeeze(1), (target > 0).float())
        return {'total': loss_sem + loss_occ, 'semantic_1_1': loss_sem, 'occupancy': loss_occ}


def train(model, optimizer, dset, nbr_epochs):
    for epoch in range(1, nbr_epochs + 1):
        model.train()
        epoch_loss = {'total': 0, 'semantic_1_1': 0, 'occupancy': 0}
        for t, data in enumerate(dset):
            scores = model(data['3D_OCCUPANCY'])
            loss = model.compute_loss(scores, data)
            optimizer.zero_grad()
            loss['total'].backward()
            optimizer.step()
            for key in loss:
                epoch_loss[key] += loss[key].item()
        for key in epoch_loss:
            print('epoch {} train {} loss: {:.4f}'.format(epoch, key, float(epoch_loss[key]) / len(dset)))


dset = [{'3D_OCCUPANCY': (torch.rand(2, 1, 8, 8, 8) > 0.5).float(),
         '3D_LABEL': torch.randint(0, 4, (2, 8, 8, 8))} for _ in range(5)]
model = SSC()
train(model, torch.optim.Adam(model.parameters(), lr=1e-3), dset, 2)
