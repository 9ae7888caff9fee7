# source: https://github.com/THUDM/GraphMAE2/issues/6
# style: gnn
# expert: The EMA target encoder/projector are only updated in `ema_update` under `torch.no_grad()` through `.data` (with `param_q.detach()`), and the latent target is computed under no_grad, so no graph crosses iterations and the EMA weights get no gradients by design; the maintainers confirm this is the intended momentum-target scheme (the momentum value is just a hyperparameter).
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, adj, x):
        return F.relu(self.lin(adj @ x))


class Encoder(nn.Module):
    def __init__(self, in_dim, hid):
        super().__init__()
        self.l1, self.l2 = GCNLayer(in_dim, hid), GCNLayer(hid, hid)

    def forward(self, adj, x):
        return self.l2(adj, self.l1(adj, x))


class PreModel(nn.Module):
    def __init__(self, in_dim, hid, momentum=0.996, mask_rate=0.5):
        super().__init__()
        self._momentum = momentum
        self._mask_rate = mask_rate
        self.encoder = Encoder(in_dim, hid)
        self.decoder = nn.Linear(hid, in_dim)
        self.enc_mask_token = nn.Parameter(torch.zeros(1, in_dim))
        self.projector = nn.Sequential(nn.Linear(hid, hid), nn.PReLU())
        self.predictor = nn.Sequential(nn.PReLU(), nn.Linear(hid, hid))
        self.encoder_ema = copy.deepcopy(self.encoder)
        self.projector_ema = copy.deepcopy(self.projector)
        for p in list(self.encoder_ema.parameters()) + list(self.projector_ema.parameters()):
            p.requires_grad_(False)

    def forward(self, adj, x):
        num_nodes = x.shape[0]
        perm = torch.randperm(num_nodes)
        mask_nodes = perm[: int(self._mask_rate * num_nodes)]
        use_x = x.clone()
        use_x[mask_nodes] = 0.0
        use_x[mask_nodes] += self.enc_mask_token
        enc_rep = self.encoder(adj, use_x)

        with torch.no_grad():
            latent_target = self.projector_ema(self.encoder_ema(adj, x))[mask_nodes]
        latent_pred = self.predictor(self.projector(enc_rep))[mask_nodes]
        loss_latent = (1 - F.cosine_similarity(latent_pred, latent_target, dim=-1)).pow(2).mean()

        recon = self.decoder(enc_rep)[mask_nodes]
        loss_rec = (1 - F.cosine_similarity(recon, x[mask_nodes], dim=-1)).pow(2).mean()
        return loss_rec + loss_latent

    def ema_update(self):
        def update(student, teacher):
            with torch.no_grad():
                m = self._momentum
                for param_q, param_k in zip(student.parameters(), teacher.parameters()):
                    param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)

        update(self.encoder, self.encoder_ema)
        update(self.projector, self.projector_ema)


num_nodes, in_dim = 12, 6
adj = (torch.rand(num_nodes, num_nodes) > 0.6).float()
adj = ((adj + adj.t() + torch.eye(num_nodes)) > 0).float()
adj = adj / adj.sum(1, keepdim=True)
x = torch.randn(num_nodes, in_dim)

model = PreModel(in_dim, 8)
optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-3)
for epoch in range(5):
    model.train()
    loss = model(adj, x)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.ema_update()
    print(f"epoch {epoch} loss {loss.item():.4f}")
