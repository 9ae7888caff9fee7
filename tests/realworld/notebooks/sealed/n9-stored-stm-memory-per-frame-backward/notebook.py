# source: variant of https://github.com/seoungwugoh/STM/issues/14
# scenario: stored_activations
# cause: shared_subgraph_multiple_backward
# root: cell 4 line 6
# expert: The memory keys/values of frame 0 (and the predicted-mask memory of frame 1) are kept and re-read when segmenting every later frame, so calling loss.backward() per frame frees the memory encoder graph that the next frame's loss still goes through; the author's answer: sum up the losses of all frames and call backward (and step) once at the end of the iteration.
# %%
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
# %%
class Encoder_M(nn.Module):   # memory encoder: frame + mask
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.conv1_m = nn.Conv2d(1, 16, 3, stride=2, padding=1)
        self.res4 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
    def forward(self, in_f, in_m):
        x = F.relu(self.conv1(in_f) + self.conv1_m(in_m.unsqueeze(1)))
        return F.relu(self.res4(x))

class Encoder_Q(nn.Module):   # query encoder: frame only
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.res4 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
    def forward(self, in_f):
        return F.relu(self.res4(F.relu(self.conv1(in_f))))

class KeyValue(nn.Module):
    def __init__(self, indim, keydim, valdim):
        super().__init__()
        self.Key = nn.Conv2d(indim, keydim, kernel_size=(3, 3), padding=(1, 1), stride=1)
        self.Value = nn.Conv2d(indim, valdim, kernel_size=(3, 3), padding=(1, 1), stride=1)
    def forward(self, x):
        return self.Key(x), self.Value(x)

class Memory(nn.Module):
    def forward(self, m_in, m_out, q_in, q_out):  # m_in: b,c,t,h,w
        B, D_e, T, H, W = m_in.size()
        _, D_o, _, _, _ = m_out.size()
        mi = m_in.view(B, D_e, T * H * W)
        mi = torch.transpose(mi, 1, 2)  # b, THW, emb
        qi = q_in.view(B, D_e, H * W)  # b, emb, HW
        p = torch.bmm(mi, qi)  # b, THW, HW
        p = p / math.sqrt(D_e)
        p = F.softmax(p, dim=1)  # b, THW, HW
        mo = m_out.view(B, D_o, T * H * W)
        mem = torch.bmm(mo, p)  # Weighted-sum B, D_o, HW
        mem = mem.view(B, D_o, H, W)
        mem_out = torch.cat([mem, q_out], dim=1)
        return mem_out, p

class Decoder(nn.Module):
    def __init__(self, mdim):
        super().__init__()
        self.convFM = nn.Conv2d(32, mdim, kernel_size=(3, 3), padding=(1, 1), stride=1)
        self.pred2 = nn.Conv2d(mdim, 2, kernel_size=(3, 3), padding=(1, 1), stride=1)
    def forward(self, m4):
        p2 = self.pred2(F.relu(self.convFM(m4)))
        return F.interpolate(p2, scale_factor=4, mode='bilinear', align_corners=False)

class STM(nn.Module):
    def __init__(self):
        super().__init__()
        self.Encoder_M = Encoder_M()
        self.Encoder_Q = Encoder_Q()
        self.KV_M_r4 = KeyValue(32, keydim=8, valdim=16)
        self.KV_Q_r4 = KeyValue(32, keydim=8, valdim=16)
        self.Memory = Memory()
        self.Decoder = Decoder(16)

    def memorize(self, frame, masks):
        r4 = self.Encoder_M(frame, masks)
        k4, v4 = self.KV_M_r4(r4)
        return k4.unsqueeze(2), v4.unsqueeze(2)  # b, c, t=1, h, w

    def segment(self, frame, keys, values):
        r4 = self.Encoder_Q(frame)
        k4, v4 = self.KV_Q_r4(r4)
        m4, viz = self.Memory(keys, values, k4, v4)
        return self.Decoder(m4)  # logit: b, 2, H, W

    def forward(self, *args):
        if args[1].dim() > 4:  # keys
            return self.segment(*args)
        else:
            return self.memorize(*args)
# %%
model = STM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-5)
criterion = nn.CrossEntropyLoss()
# one object, 3 frames and 3 masks (stand-in for a DAVIS clip)
Fs = torch.rand(1, 3, 3, 32, 32)              # b, c, t, h, w
Ms = (torch.rand(1, 3, 32, 32) > 0.5).float()  # b, t, h, w
# %%
# memorize the first frame with its ground-truth mask
optimizer.zero_grad()
keys, values = model(Fs[:, :, 0], Ms[:, 0])
# %%
for t in range(1, 3):
    # segment frame t from the memory, loss and backward for every frame
    logit = model(Fs[:, :, t], keys, values)
    loss = criterion(logit, Ms[:, t].long())
    print(t, loss.item())
    loss.backward()
    # add frame t (with its predicted mask) to the memory
    pred = F.softmax(logit, dim=1)[:, 1]
    new_k, new_v = model(Fs[:, :, t], pred)
    keys, values = torch.cat([keys, new_k], dim=2), torch.cat([values, new_v], dim=2)
optimizer.step()
