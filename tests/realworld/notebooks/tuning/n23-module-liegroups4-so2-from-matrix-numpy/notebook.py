# source: https://github.com/utiasSTARS/liegroups/issues/4 (the reporter's loss converts the predicted 2x2 rotations with SO2.from_matrix; liegroups.torch at the version before commit c2b479e, "Added missing detach() calls for numpy conversions", cut down to SO2.from_matrix / is_valid_matrix / log in liegroups_torch.py next to the notebook; a small network predicting the rotation angle of random 2-D point pairs stands in for the reporter's registration model, CPU)
# scenario: imported_module
# cause: numpy_on_grad_tensor
# root: file liegroups_torch.py line 48
# expert: SO2.from_matrix validates the matrix with is_valid_matrix, which converts it with mat.cpu().numpy() for np.linalg.det; the predicted rotation_ab_pred requires grad, so the conversion fails inside the library. As the maintainer answered, the library now detaches before converting (np.linalg.det(mat.detach().cpu().numpy()), commit c2b479e); the loss keeps its graph because the SO2 object holds the original tensor
# %%
import torch
import torch.nn as nn
from liegroups_torch import SO2

torch.manual_seed(0)

# random 2-D point clouds and their rotated copies
batch_size = 32
angle_ab = (torch.rand(batch_size) * 2 - 1) * 3.0
src = torch.randn(batch_size, 2, 16)
c, s = angle_ab.cos(), angle_ab.sin()
rotation_ab = torch.stack([torch.stack([c, -s], 1), torch.stack([s, c], 1)], 1)
tgt = rotation_ab.bmm(src)
# %%
class RotationNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, src, tgt):
        cs = self.mlp(torch.cat([src, tgt], 1).flatten(1))
        cs = cs / cs.norm(dim=1, keepdim=True)
        c, s = cs[:, 0], cs[:, 1]
        return torch.stack([torch.stack([c, -s], 1), torch.stack([s, c], 1)], 1)


net = RotationNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
# %%
for step in range(5):
    rotation_ab_pred = net(src, tgt)
    print('rotation_ab_pred size = {} type = {}'.format(rotation_ab_pred.size(), rotation_ab_pred.type()))
    rvec_ab_pred = SO2.from_matrix(rotation_ab_pred)
    angle_err = rvec_ab_pred.log() - angle_ab
    loss = torch.atan2(angle_err.sin(), angle_err.cos()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
