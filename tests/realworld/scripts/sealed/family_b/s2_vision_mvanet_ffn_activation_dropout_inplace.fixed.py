# source: https://github.com/qianyu-dlut/MVANet/issues/2
# style: vision
# cause: inplace_modified_saved_tensor
# line: 34
# expert: the maintainers' fix: clone the activation output before the (in-place) dropout, self.dropout(self.activation(self.linear1(g_hw_b_c)).clone())
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MCLM(nn.Module):
    """Cross-attention between global (g) and local (l) tokens followed by a feed-forward block."""

    def __init__(self, d_model=16, num_heads=2):
        super(MCLM, self).__init__()
        self.attention = nn.MultiheadAttention(d_model, num_heads, dropout=0.1)
        self.linear1 = nn.Linear(d_model, d_model * 2)
        self.linear2 = nn.Linear(d_model * 2, d_model)
        self.dropout = nn.Dropout(0.1, inplace=True)
        self.dropout1 = nn.Dropout(0.1)
        self.dropout2 = nn.Dropout(0.1)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.activation = nn.ReLU()

    def forward(self, l, g):
        b, c, h, w = l.size()
        l_hw_b_c = l.flatten(2).permute(2, 0, 1)
        g_hw_b_c = g.flatten(2).permute(2, 0, 1)
        g_hw_b_c = g_hw_b_c + self.dropout1(self.attention(g_hw_b_c, l_hw_b_c, l_hw_b_c)[0])
        g_hw_b_c = self.norm1(g_hw_b_c)
        g_hw_b_c = g_hw_b_c + self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(g_hw_b_c)).clone())))
        g_hw_b_c = self.norm2(g_hw_b_c)
        return g_hw_b_c.permute(1, 2, 0).reshape(b, c, h, w)


class MVANetTiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.mclm = MCLM(16)
        self.head = nn.Conv2d(16, 1, 1)

    def forward(self, x):
        f = self.stem(x)
        loc = f
        glb = F.avg_pool2d(f, 2)
        glb = F.interpolate(glb, size=f.shape[-2:], mode='bilinear', align_corners=False)
        return self.head(self.mclm(loc, glb))


net = MVANetTiny()
net.train()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
for it in range(2):
    img = torch.rand(2, 3, 8, 8)
    gt = (torch.rand(2, 1, 8, 8) > 0.5).float()
    loss = F.binary_cross_entropy_with_logits(net(img), gt)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
