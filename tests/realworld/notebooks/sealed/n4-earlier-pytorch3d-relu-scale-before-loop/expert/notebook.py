# expert fix of n4-earlier-pytorch3d-relu-scale-before-loop
# %%
import numpy as np
import torch
import torch.nn.functional as F
torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cpu")

# a tiny stand-in for the pytorch3d mesh + soft silhouette renderer (orthographic cameras)
src_verts = torch.randn(24, 3, device=device) * 0.5
edges = torch.stack([torch.arange(24), (torch.arange(24) + 1) % 24], 1)
num_views = 4
angles = torch.linspace(0, 3.1416, num_views)
target_R = [torch.tensor([[a.cos(), 0.0, a.sin()], [0.0, 1.0, 0.0], [-a.sin(), 0.0, a.cos()]]) for a in angles]
pix = torch.stack(torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8), indexing="ij"), -1).reshape(-1, 2)

def renderer_silhouette(verts, R, scale_xyz, sigma=0.05):
    p = (verts * scale_xyz) @ R.T
    d2 = ((pix[:, None, :] - p[None, :, :2]) ** 2).sum(-1)
    prob = torch.sigmoid((0.04 - d2) / sigma)
    return 1 - torch.prod(1 - prob, dim=1)

def update_mesh_shape_prior_losses(verts, loss):
    loss["edge"] = ((verts[edges[:, 0]] - verts[edges[:, 1]]) ** 2).sum(-1).mean()
    loss["normal"] = (verts - verts.mean(0)).pow(2).mean()

losses = {"silhouette": {"weight": 1.0}, "edge": {"weight": 0.1}, "normal": {"weight": 0.01}}
# %%
with torch.no_grad():
    true_scale = torch.tensor([[1.3, 0.8, 1.1]])
    target_silhouette = [renderer_silhouette(src_verts, target_R[j], true_scale) for j in range(num_views)]
# %%
deform_verts = torch.full(src_verts.shape, 0.0, device=device, requires_grad=True)
scale_xyz = torch.tensor([[1.0, 1.0, 1.0]], device=device, requires_grad=True)
optimizer = torch.optim.SGD([deform_verts, scale_xyz], lr=1.0, momentum=0.9)
Niter = 5
num_views_per_iteration = 2
# %%
for i in range(Niter):
    optimizer.zero_grad()
    scale_xyz_ = torch.nn.functional.relu(scale_xyz)
    new_src_verts = src_verts + deform_verts
    loss = {k: torch.tensor(0.0, device=device) for k in losses}
    update_mesh_shape_prior_losses(new_src_verts, loss)
    for j in np.random.permutation(num_views).tolist()[:num_views_per_iteration]:
        predicted_silhouette = renderer_silhouette(new_src_verts, target_R[j], scale_xyz_)
        loss_silhouette = ((predicted_silhouette - target_silhouette[j]) ** 2).mean()
        loss["silhouette"] += loss_silhouette / num_views_per_iteration
    sum_loss = torch.tensor(0.0, device=device)
    for k, l in loss.items():
        sum_loss += l * losses[k]["weight"]
    sum_loss.backward()
    optimizer.step()
    print(i, sum_loss.item(), scale_xyz.detach().tolist())
