# source: https://github.com/jlamprou/Infini-Attention/issues/3
# style: nlp
# cause: tensor_reused_across_iterations
# line: 35
# expert: the compressive memory M and normaliser z are stored on the module in forward() and carry the graph of the previous segment, which that segment's backward freed; detach M and z in _update_memory (as the author did) instead of backward(retain_graph=True)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class InfiniAttention(nn.Module):
    def __init__(self, dim=16, n_heads=2):
        super().__init__()
        self.dim, self.n_heads, self.d_head = dim, n_heads, dim // n_heads
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)
        self.gate = nn.Parameter(torch.zeros(1, n_heads, 1, 1))
        self.M = None
        self.z = None

    def _retrieve_from_memory(self, Q):
        if self.M is None:
            return torch.zeros_like(Q)
        M_s_1 = torch.matmul(F.elu(Q) + 1, self.M)
        Z_s_1 = torch.matmul(F.elu(Q) + 1, self.z.unsqueeze(-1)) + 1e-8
        return M_s_1 / Z_s_1

    def _update_memory(self, K, V):
        sigma_k = F.elu(K) + 1
        if self.M is None:
            self.M = torch.matmul(sigma_k.transpose(-2, -1), V)
            self.z = sigma_k.sum(dim=-2)
        else:
            self.M = self.M + torch.matmul(sigma_k.transpose(-2, -1), V)
            self.z = self.z + sigma_k.sum(dim=-2)

    def forward(self, x):
        b, t, _ = x.shape
        Q = self.q_proj(x).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        K = self.k_proj(x).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        V = self.v_proj(x).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        A_mem = self._retrieve_from_memory(Q)
        A_dot = F.scaled_dot_product_attention(Q, K, V, is_causal=True)
        self._update_memory(K, V)
        g = torch.sigmoid(self.gate)
        A = g * A_mem + (1 - g) * A_dot
        return self.o_proj(A.transpose(1, 2).reshape(b, t, self.dim))


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = InfiniAttention(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.attn(self.emb(ids)))


model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
segment_len = 4
for step in range(2):
    ids = torch.randint(0, 20, (2, 13))
    model.attn.M, model.attn.z = None, None
    optimizer.zero_grad()
    # gradient accumulation over segments: one backward per segment
    for s in range(0, ids.shape[1] - 1, segment_len):
        inp, tgt = ids[:, s:s + segment_len], ids[:, s + 1:s + 1 + segment_len]
        if inp.shape[1] != tgt.shape[1]:
            break
        logits = model(inp)
        loss = F.cross_entropy(logits.reshape(-1, 20), tgt.reshape(-1))
        loss.backward()
    optimizer.step()
    print(step, loss.item())
