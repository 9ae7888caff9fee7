# cause: tensor_reused_across_iterations
# line: 36
# why: prev_pred keeps the previous frame's graph-attached prediction, which the temporal smoothness term of the next frame backpropagates through again.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FrameNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, frame):
        return torch.sigmoid(self.conv2(F.relu(self.conv1(frame))))


net = FrameNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
video = torch.rand(6, 1, 3, 16, 16)
masks = (video.mean(2, keepdim=True) > 0.5).float()
lam = 0.1

prev_pred = None
for t in range(video.size(0)):
    pred = net(video[t])
    loss = F.binary_cross_entropy(pred, masks[t])
    if prev_pred is not None:
        loss = loss + lam * (pred - prev_pred).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    prev_pred = pred
    print(f"frame {t}: {loss.item():.4f}")
