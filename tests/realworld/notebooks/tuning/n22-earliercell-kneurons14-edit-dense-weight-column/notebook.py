# source: https://github.com/Hunter-DDM/knowledge-neurons/issues/14 (the knowledge-editing step of src/6_edit_knowledge_sampled.py run as notebook cells; a two-layer BERT-shaped masked LM with random weights, the same attribute path model.bert.encoder.layer[l].output.dense, instead of the pretrained bert-base-cased, and a fixed knowledge-neuron bag instead of the one read from the results files)
# scenario: earlier_cell
# cause: leaf_inplace
# root: cell 2 line 13
# expert: the knowledge neurons are edited by writing into a column of the FFN output weight, a view of an nn.Parameter that requires grad, with -= and +=; the edit (and its recovery) is not meant to be differentiated, so do it under torch.no_grad() (or on weight.data)
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
torch.manual_seed(0)

class Layer(nn.Module):
    def __init__(self, hidden, inter):
        super().__init__()
        self.intermediate = SimpleNamespace(dense=nn.Linear(hidden, inter))
        self.output = SimpleNamespace(dense=nn.Linear(inter, hidden))
        self.fc1, self.fc2 = self.intermediate.dense, self.output.dense  # registered as submodules

    def forward(self, h):
        return h + self.output.dense(F.gelu(self.intermediate.dense(h)))

class TinyBertForMaskedLM(nn.Module):
    def __init__(self, vocab=30, hidden=16, inter=32, n_layers=2):
        super().__init__()
        self.bert = nn.Module()
        self.bert.embeddings = nn.Module()
        self.bert.embeddings.word_embeddings = nn.Embedding(vocab, hidden)
        self.bert.encoder = nn.Module()
        self.bert.encoder.layer = nn.ModuleList([Layer(hidden, inter) for _ in range(n_layers)])

    def forward(self, input_ids, tgt_pos):
        h = self.bert.embeddings.word_embeddings(input_ids)
        for layer in self.bert.encoder.layer:
            h = layer(h)
        logits = h[:, tgt_pos] @ self.bert.embeddings.word_embeddings.weight.t()
        return None, logits  # (1, n_vocab)

model = TinyBertForMaskedLM()
model.eval()
# %%
input_ids = torch.randint(0, 30, (1, 8))
tgt_pos = 3
tgt_label_id = 7
kn_bag = [(0, 5), (1, 11), (1, 20)]  # (layer, position) of the knowledge neurons
norm_lambda1, norm_lambda2 = 1.0, 1.0

_, logits = model(input_ids=input_ids, tgt_pos=tgt_pos)
ori_tgt_prob = F.softmax(logits, dim=-1)[0, tgt_label_id]  # scalar
ori_pred_prob, ori_pred_label_id = F.softmax(logits, dim=-1)[0].max(dim=-1)
print(f'ori pred label: {ori_pred_label_id.item()}, tgt prob: {ori_tgt_prob:.8}')
# %%
# edit knowledge
ori_pred_emb = model.bert.embeddings.word_embeddings.weight[ori_pred_label_id.item()]
tgt_emb = model.bert.embeddings.word_embeddings.weight[tgt_label_id]
lambda_list_1 = []
lambda_list_2 = []
ori_pred_emb_norm = torch.norm(ori_pred_emb)
tgt_emb_norm = torch.norm(tgt_emb)
for layer, pos in kn_bag:
    value_norm = torch.norm(model.bert.encoder.layer[layer].output.dense.weight[:, pos])
    lambda_list_1.append(value_norm / ori_pred_emb_norm * norm_lambda1)
    lambda_list_2.append(value_norm / tgt_emb_norm * norm_lambda2)
for i, (layer, pos) in enumerate(kn_bag):
    model.bert.encoder.layer[layer].output.dense.weight[:, pos] -= ori_pred_emb * lambda_list_1[i]
    model.bert.encoder.layer[layer].output.dense.weight[:, pos] += tgt_emb * lambda_list_2[i]

_, logits = model(input_ids=input_ids, tgt_pos=tgt_pos)
new_tgt_prob = F.softmax(logits, dim=-1)[0, tgt_label_id]  # scalar
print(f'tgt prob: {ori_tgt_prob:.8} -> {new_tgt_prob:.8}')
