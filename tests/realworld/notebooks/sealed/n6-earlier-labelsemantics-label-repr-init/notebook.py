# source: variant of https://github.com/TianWuYuJiangHenShou/LabelSemantics/issues/5
# scenario: earlier_cell
# cause: inplace_modified_saved_tensor
# root: cell 1 line 21
# expert: the label representation is built once in __init__ (when the model cell runs) from the label encoder without detach, so every training step's loss hangs off that one label-encoder graph; with retain_graph=True the second backward reaches it after optimizer.step() has updated the label encoder's weights in place (the thread's traceback names a [768, 768] weight, "output 0 of TBackward, is at version 3; expected version 2"); the thread settled on detaching the tensor when it is assigned to self.label_representation
# %%
import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss
torch.manual_seed(0)
tag2id = {'B-LOC': 0, 'I-LOC': 1, 'B-PER': 2, 'I-PER': 3, 'O': 4}
label_context = {'LOC': '地点', 'PER': '人名'}
vocab = {ch: i + 1 for i, ch in enumerate(sorted(set('地点人名开始词中间词其他类别')))}
hidden = 8
# %%
class ToyBert(nn.Module):  # stands in for BertModel.from_pretrained(base_model_path)
    def __init__(self):
        super().__init__()
        self.embeddings = nn.Embedding(len(vocab) + 1, hidden)
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids):
        last_hidden_state = self.embeddings(input_ids)
        pooler_output = torch.tanh(self.pooler(last_hidden_state[:, 0]))
        return last_hidden_state, pooler_output


class FewShot_NER(nn.Module):
    def __init__(self, tag2id):
        super().__init__()
        self.token_encoder = ToyBert()
        self.label_encoder = ToyBert()
        self.label_context = label_context
        self.index_context = {"B": "开始词", "I": "中间词"}
        self.tag2id = tag2id
        self.label_representation = self.build_label_representation(tag2id)

    def build_label_representation(self, tag2id):
        labels = []
        for k, v in tag2id.items():
            if k.split('-')[-1] != 'O':
                idx, label = k.split('-')[0], k.split('-')[-1]
                label = self.label_context[label]
                labels.append(label + self.index_context[idx])
            else:
                labels.append("其他类别词")
        tag_max_len = max([len(l) for l in labels])
        tag_embeddings = []
        for label in labels:
            ids = [vocab[ch] for ch in label] + [0] * (tag_max_len - len(label))
            _, pooler_output = self.label_encoder(torch.tensor([ids]))
            tag_embeddings.append(pooler_output)
        label_embeddings = torch.stack(tag_embeddings, dim=0)
        label_embeddings = label_embeddings.squeeze(1)
        return label_embeddings

    def forward(self, input_ids):
        token_embeddings, _ = self.token_encoder(input_ids)
        tag_lens, hidden_size = self.label_representation.shape
        current_batch_size = token_embeddings.shape[0]
        label_embedding = self.label_representation.expand(current_batch_size, tag_lens, hidden_size)
        label_embeddings = label_embedding.transpose(2, 1)
        matrix_embeddings = torch.matmul(token_embeddings, label_embeddings)
        label_indexs = torch.argmax(matrix_embeddings, dim=-1)
        return matrix_embeddings, label_indexs
# %%
fewshot = FewShot_NER(tag2id)
optimizer = torch.optim.Adam(fewshot.parameters(), lr=1e-5)
loss_function = CrossEntropyLoss()
train_dataloader = [(torch.randint(1, len(vocab) + 1, (4, 6)), torch.randint(0, len(tag2id), (4, 6))) for _ in range(3)]
# %%
tra_loss, steps = 0.0, 0
for i in range(1):
    fewshot.train()
    for step, (input_ids, labels) in enumerate(train_dataloader):
        matrix_embeddings, label_indexs = fewshot(input_ids)
        loss = loss_function(matrix_embeddings.view(-1, len(tag2id)), labels.view(-1))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        tra_loss += loss.item()
        steps += 1
        torch.nn.utils.clip_grad_norm_(parameters=fewshot.parameters(), max_norm=1.0)
        optimizer.step()
        print("epoch :{},step :{} ,Train loss: {}".format(i, step, tra_loss / steps))
