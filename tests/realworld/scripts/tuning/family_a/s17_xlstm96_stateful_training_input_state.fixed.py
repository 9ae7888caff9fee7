# source: https://github.com/NX-AI/xlstm/issues/96
# style: rnn
# cause: recurrent_state_not_detached
# line: 54
# expert: detach the returned recurrent state before feeding it to the next chunk (truncated BPTT): input_state = {k: tuple(t.detach() for t in v) for k, v in output_state.items()}
import torch
import torch.nn as nn

torch.manual_seed(0)


class mLSTMBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.gate = nn.Linear(dim, 2)

    def forward(self, x, state=None):
        B, T, D = x.shape
        C, n = state if state is not None else (x.new_zeros(B, D, D), x.new_zeros(B, D))
        outs = []
        for t in range(T):
            q, k, v = self.qkv(x[:, t]).chunk(3, -1)
            i_g, f_g = torch.sigmoid(self.gate(x[:, t])).unbind(-1)
            C = f_g[:, None, None] * C + i_g[:, None, None] * (v[:, :, None] * k[:, None, :])
            n = f_g[:, None] * n + i_g[:, None] * k
            h = (C @ q[:, :, None]).squeeze(-1) / (n * q).sum(-1, keepdim=True).abs().clamp(min=1.0)
            outs.append(h)
        return torch.stack(outs, 1), (C, n)


class Encoder(nn.Module):
    def __init__(self, feat_dim=8, dim=16, n_classes=5):
        super().__init__()
        self.inp = nn.Linear(feat_dim, dim)
        self.blocks = nn.ModuleList([mLSTMBlock(dim) for _ in range(2)])
        self.out = nn.Linear(dim, n_classes)

    def forward(self, feats, states=None):
        x = self.inp(feats)
        new_states = {}
        for i, block in enumerate(self.blocks):
            x, new_states[i] = block(x, None if states is None else states[i])
        return self.out(x), new_states


model = Encoder()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
stream = torch.randn(2, 40, 8)
labels = torch.randint(0, 5, (2, 40))
input_state = None
for chunk in range(4):
    feats, tgt = stream[:, chunk * 10:(chunk + 1) * 10], labels[:, chunk * 10:(chunk + 1) * 10]
    enc_out, output_state = model(feats, input_state)
    loss = nn.functional.cross_entropy(enc_out.reshape(-1, 5), tgt.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    input_state = {k: tuple(t.detach() for t in v) for k, v in output_state.items()}
    print(chunk, loss.item())
