# source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/142
# style: contrastive
# expert: correct: every embedding is written into the cross-batch memory with .detach(), so the queue used as extra negatives/positives in later iterations carries no graph; only the current batch is attached
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ContrastiveLoss(nn.Module):
    def __init__(self, pos_margin=0.0, neg_margin=1.0):
        super().__init__()
        self.pos_margin, self.neg_margin = pos_margin, neg_margin

    def forward(self, embeddings, labels, ref_emb, ref_labels, exclude_diag=None):
        dist = torch.cdist(embeddings, ref_emb)
        same = labels[:, None] == ref_labels[None, :]
        if exclude_diag is not None:
            same = same & ~exclude_diag
        pos = F.relu(dist - self.pos_margin)[same]
        neg = F.relu(self.neg_margin - dist)[~same]
        return (pos.sum() + neg.sum()) / max(1, pos.numel() + neg.numel())


class CrossBatchMemory(nn.Module):
    def __init__(self, loss, embedding_size, memory_size=32):
        super().__init__()
        self.loss, self.embedding_size, self.memory_size = loss, embedding_size, memory_size
        self.embedding_memory = torch.zeros(memory_size, embedding_size)
        self.label_memory = torch.zeros(memory_size).long()
        self.has_been_filled = False
        self.queue_idx = 0

    def add_to_memory(self, embeddings, labels, batch_size):
        self.curr_batch_idx = torch.arange(self.queue_idx, self.queue_idx + batch_size) % self.memory_size
        self.embedding_memory[self.curr_batch_idx] = embeddings.detach()
        self.label_memory[self.curr_batch_idx] = labels.detach()
        prev_queue_idx = self.queue_idx
        self.queue_idx = (self.queue_idx + batch_size) % self.memory_size
        if (not self.has_been_filled) and (self.queue_idx <= prev_queue_idx):
            self.has_been_filled = True

    def forward(self, embeddings, labels):
        batch_size = len(embeddings)
        self.add_to_memory(embeddings, labels, batch_size)
        if not self.has_been_filled:
            E_mem = self.embedding_memory[: self.queue_idx]
            L_mem = self.label_memory[: self.queue_idx]
        else:
            E_mem, L_mem = self.embedding_memory, self.label_memory
        self_pairs = torch.zeros(batch_size, len(E_mem), dtype=torch.bool)
        self_pairs[torch.arange(batch_size), self.curr_batch_idx] = True
        return self.loss(embeddings, labels, E_mem, L_mem, exclude_diag=self_pairs)


trunk = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 8))
loss_fn = CrossBatchMemory(ContrastiveLoss(), embedding_size=8, memory_size=32)
optimizer = torch.optim.Adam(trunk.parameters(), lr=1e-3)
for it in range(8):
    data, labels = torch.randn(8, 12), torch.randint(0, 3, (8,))
    embeddings = F.normalize(trunk(data), dim=1)
    loss = loss_fn(embeddings, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
