# source: https://github.com/Shauryam22/Hybrid-GNN-x-Transformer/blob/4b6bdbb6642390a53f688e4b1ecd6b87853e221b/main.py (the author's main.py, whose "FIX: Re-compute the graph inside the loop so a NEW graph is built for every batch / This prevents the "backward through the graph a second time" error" records the bug; here the notebook is as before that fix: the GAT vocabulary embeddings are computed once in the setup cell. fusion_model.py, gat.py, tranformer_encoder.py and build_co_occurence.py are the repository's; a random-token stand-in replaces load.preproc_data, which reads the Kaggle CSV; cpu instead of cuda, 2 epochs)
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 1 line 19
# expert: model.vocab_emb_cache holds the GAT output computed once in the setup cell, with its graph back to gat_base_emb and vocab_gat; the first loss.backward() frees that graph and the second batch backpropagates into it again. As the author's fix does, re-compute model.vocab_emb_cache = model.vocab_gat(model.gat_base_emb.weight, model.adj) inside the batch loop so that every batch builds its own graph (and the GAT keeps learning)
# %%
from build_co_occurence import build_coocc
from fusion_model import HumanAIDetector
import torch
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)


def preproc_data(block_size=128, batch_size=64, device='cuda'):
    # stand-in for load.preproc_data (tokenised Kaggle code snippets): random token ids, 0 = padding
    vocab_size = 50
    x_train = torch.randint(1, vocab_size, (96, block_size))
    x_train[:, block_size // 2:] *= (torch.rand(96, 1) < 0.5)
    y_train = torch.randint(0, 2, (96,))
    x_val = torch.randint(1, vocab_size, (32, block_size))
    y_val = torch.randint(0, 2, (32,))
    train_dataset = TensorDataset(x_train, y_train)
    val_dataset = TensorDataset(x_val, y_val)
    train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=False)
    val_loader = DataLoader(val_dataset, batch_size=batch_size, shuffle=False)
    return vocab_size, train_dataset, val_dataset, train_loader, val_loader


device = 'cpu'
block_size = 32
batch_size = 32
vocab_size,train_dataset,val_dataset,train_loader,val_loader = preproc_data(block_size,batch_size,device)
# %%
adj_dense = build_coocc(train_dataset,vocab_size=vocab_size,window=5)
indices=(adj_dense>0).nonzero(as_tuple = False).t()  # storing the elements index as tuple hence (_,2)
indices.shape
values = adj_dense[indices[0],indices[1]]
adj_sparse = torch.sparse_coo_tensor(indices,values,
                                     size=adj_dense.shape).coalesce().to(device)

nembed = 64

# 1. Initialize
model = HumanAIDetector(vocab_size, nembed, adj_sparse).to(device)
epochs = 2

# 2. DEFINING OPTIMIZERS
# We will freeze the text encoder partway through
optimizer_all = torch.optim.AdamW(model.parameters(), lr=1e-3)

# %%
print("Phase 1: Training GAT Only (Transformer Frozen)...")

for epoch in range(epochs):
    model.train()
    
    # Freeze Transformer
    for param in model.text_enc.parameters():
        param.requires_grad = False
    # Ensure GAT and Embeddings are unfrozen
    for param in model.vocab_gat.parameters():
        param.requires_grad = True
    for param in model.gat_base_emb.parameters():
        param.requires_grad = True

    total_loss = 0.0

    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        
        # FIX: Re-compute the graph inside the loop so a NEW graph is built for every batch
        # This prevents the "backward through the graph a second time" error.
        model.vocab_emb_cache = model.vocab_gat(model.gat_base_emb.weight, model.adj)
        
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        
        optimizer_all.zero_grad()
        loss.backward()
        optimizer_all.step()
        
        total_loss += loss.item()
    print(epoch, total_loss)
