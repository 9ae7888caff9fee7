# source: https://github.com/pykeen/pykeen/issues/571
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 0 line 48
# order: 0 1 2 3 2
# expert: CompGCN buffers its enriched entity/relation representations (invalidated only by post_parameter_update after an optimizer step); the evaluation cell fills that buffer under torch.no_grad(), so when training resumes the first batch scores come from tensors without grad_fn and loss.backward() fails. The fix merged for the issue (pykeen PR #573) overrides train() to invalidate the buffer when switching from evaluation back to training mode.
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)


class CompGCNLayer(nn.Module):
    """One CompGCN message passing layer (subtraction composition), as in pykeen.nn.emb."""

    def __init__(self, input_dim, output_dim):
        super().__init__()
        self.w_in = nn.Linear(input_dim, output_dim, bias=False)
        self.w_loop = nn.Linear(input_dim, output_dim, bias=False)
        self.w_rel = nn.Linear(input_dim, output_dim, bias=False)
        self.activation = nn.Tanh()

    def forward(self, x_e, x_r, edge_index, edge_type):
        source, target = edge_index
        messages = self.w_in(x_e[source] - x_r[edge_type])
        out = torch.zeros(x_e.shape[0], messages.shape[1]).index_add(0, target, messages)
        return self.activation(out + self.w_loop(x_e)), self.w_rel(x_r)


class CombinedCompGCNRepresentations(nn.Module):
    """A sequence of CompGCN layers with buffered enriched representations."""

    def __init__(self, num_entities, num_relations, embedding_dim, edge_index, edge_type, num_layers=1):
        super().__init__()
        self.entity_representations = nn.Embedding(num_entities, embedding_dim)
        self.relation_representations = nn.Embedding(2 * num_relations, embedding_dim)
        self.layers = nn.ModuleList([CompGCNLayer(embedding_dim, embedding_dim) for _ in range(num_layers)])
        self.register_buffer("edge_index", edge_index)
        self.register_buffer("edge_type", edge_type)
        # initialize buffer of enriched representations
        self.enriched_representations = None

    def post_parameter_update(self):
        # invalidate enriched embeddings
        self.enriched_representations = None

    def forward(self):
        """Compute enriched representations."""
        if self.enriched_representations is None:
            x_e = self.entity_representations.weight
            x_r = self.relation_representations.weight
            for layer in self.layers:
                x_e, x_r = layer(x_e=x_e, x_r=x_r, edge_index=self.edge_index, edge_type=self.edge_type)
            self.enriched_representations = (x_e, x_r)
        return self.enriched_representations


class CompGCN(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim, mapped_triples):
        super().__init__()
        self.combined = CombinedCompGCNRepresentations(
            num_entities, num_relations, embedding_dim,
            edge_index=mapped_triples[:, [0, 2]].t(), edge_type=mapped_triples[:, 1])

    def score_hrt(self, hrt):
        x_e, x_r = self.combined()
        return (x_e[hrt[:, 0]] * x_r[hrt[:, 1]] * x_e[hrt[:, 2]]).sum(dim=-1)  # DistMult interaction

    def score_t(self, hr):
        x_e, x_r = self.combined()
        return (x_e[hr[:, 0]] * x_r[hr[:, 1]]) @ x_e.t()

    def post_parameter_update(self):
        self.combined.post_parameter_update()
# %%
num_entities, num_relations, embedding_dim = 30, 4, 16
triples = torch.stack([torch.randint(num_entities, (120,)), torch.randint(num_relations, (120,)),
                       torch.randint(num_entities, (120,))], dim=1)
inverse = torch.stack([triples[:, 2], triples[:, 1] + num_relations, triples[:, 0]], dim=1)
mapped_triples = torch.cat([triples, inverse])  # create_inverse_triples=True
training, testing = mapped_triples[:200], mapped_triples[200:]

model = CompGCN(num_entities, num_relations, embedding_dim, training)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
# %%
model.train()
for epoch in range(3):
    for batch in training.split(50):
        negatives = batch.clone()
        negatives[:, 2] = torch.randint(num_entities, (len(batch),))
        scores = torch.cat([model.score_hrt(batch), model.score_hrt(negatives)])
        labels = torch.cat([torch.ones(len(batch)), torch.zeros(len(batch))])
        loss = F.binary_cross_entropy_with_logits(scores, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.post_parameter_update()
    print(f"epoch {epoch}: loss={loss.item():.4f}")
# %%
# evaluation (the early stopper evaluates every few epochs)
model.eval()
with torch.no_grad():
    scores = model.score_t(testing[:, :2])
    true_scores = scores.gather(1, testing[:, 2:3])
    ranks = (scores > true_scores).sum(dim=1) + 1
print("MRR", (1.0 / ranks.float()).mean().item())
