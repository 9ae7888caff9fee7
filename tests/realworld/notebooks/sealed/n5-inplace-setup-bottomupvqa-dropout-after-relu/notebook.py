# source: https://github.com/BierOne/bottom-up-attention-vqa/issues/6
# scenario: inplace_setup
# cause: inplace_modified_saved_tensor
# root: cell 1 line 37
# expert: SimpleClassifier (defined in the model cell) puts nn.Dropout(dropout, inplace=True) right after nn.ReLU(), so the dropout overwrites the ReLU output that ReluBackward0 saved and the first loss.backward() in run() fails; as the thread says, use nn.Dropout(dropout, inplace=False) in model/classifier.py
# %%
import torch
import torch.nn as nn
from torch.nn.utils.weight_norm import weight_norm
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)

# stand-in for the VQA v2 features: 36 objects of 16-d features, 6-token questions, soft answer scores
num_objs, v_dim, seq_len, ntoken, num_ans = 4, 16, 6, 20, 10
v = torch.randn(32, num_objs, v_dim)
b = torch.randn(32, num_objs, 6)
q = torch.randint(0, ntoken, (32, seq_len))
a = torch.rand(32, num_ans).round()
qid = torch.arange(32)
train_loader = DataLoader(TensorDataset(v, b, q, a, qid), batch_size=8, shuffle=True)
# %%
class FCNet(nn.Module):
    """
    Simple class for multi-layer non-linear fully connect network
    Activate function: ReLU()
    """
    def __init__(self, dims, dropout=0.0, norm=True):
        super(FCNet, self).__init__()
        self.num_layers = len(dims) - 1
        self.drop = dropout
        self.norm = norm
        self.main = nn.Sequential(*self._init_layers(dims))

    def _init_layers(self, dims):
        layers = []
        for i in range(self.num_layers):
            in_dim = dims[i]
            out_dim = dims[i + 1]
            if self.norm:
                layers.append(weight_norm(nn.Linear(in_dim, out_dim), dim=None))
            else:
                layers.append(nn.Linear(in_dim, out_dim))
            layers.append(nn.ReLU())
        return layers

    def forward(self, x):
        return self.main(x)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout=0.0):
        super(SimpleClassifier, self).__init__()
        self.q_net = FCNet([in_dim[0], hid_dim[0]], dropout)
        self.v_net = FCNet([in_dim[1], hid_dim[0]], dropout)
        self.main = nn.Sequential(
            nn.Linear(hid_dim[0], hid_dim[1]),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),
            nn.Linear(hid_dim[1], out_dim)
        )

    def forward(self, q_emb, v_emb):
        joint_repr = self.q_net(q_emb) * self.v_net(v_emb)
        logits = self.main(joint_repr)
        return logits
# %%
class WordEmbedding(nn.Module):
    def __init__(self, ntoken, emb_dim, dropout=0.0):
        super(WordEmbedding, self).__init__()
        self.emb = nn.Embedding(ntoken + 1, emb_dim, padding_idx=ntoken)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.emb(x))


class QuestionEmbedding(nn.Module):
    def __init__(self, w_dim, hid_dim, nlayers=1, bidirect=False, dropout=0.0):
        super(QuestionEmbedding, self).__init__()
        self.rnn = nn.GRU(w_dim, hid_dim, nlayers, bidirectional=bidirect, dropout=dropout, batch_first=True)
        self.ndirections = 1 + int(bidirect)

    def forward(self, x):
        output, _ = self.rnn(x)
        return output[:, -1]


class Attention(nn.Module):
    def __init__(self, v_dim, q_dim, hid_dim, glimpses=1):
        super(Attention, self).__init__()
        self.v_proj = FCNet([v_dim, hid_dim])
        self.q_proj = FCNet([q_dim, hid_dim])
        self.linear = weight_norm(nn.Linear(hid_dim, glimpses), dim=None)

    def forward(self, v, q):
        logits = self.linear(self.v_proj(v) * self.q_proj(q).unsqueeze(1))
        return nn.functional.softmax(logits, 1), logits


class BaseModel(nn.Module):
    def __init__(self, w_emb, q_emb, v_att, classifier):
        super(BaseModel, self).__init__()
        self.w_emb = w_emb
        self.q_emb = q_emb
        self.v_att = v_att
        self.classifier = classifier

    def forward(self, v, b, q, a):
        w_emb = self.w_emb(q)
        q_emb = self.q_emb(w_emb)  # [batch, q_dim]
        att, att_logits = self.v_att(v, q_emb)  # [batch, objs, 1]
        v_emb = (att * v).sum(1)  # [batch, v_dim]
        logits = self.classifier(q_emb, v_emb)
        return logits, att


def build_baseline(ntoken, num_ans_candidates, hid_dim=24):
    w_emb = WordEmbedding(ntoken, 12, dropout=0.0)
    q_emb = QuestionEmbedding(w_dim=12, hid_dim=hid_dim, nlayers=1, bidirect=False, dropout=0.0)
    v_att = Attention(v_dim=v_dim, q_dim=hid_dim * q_emb.ndirections, hid_dim=hid_dim, glimpses=1)
    classifier = SimpleClassifier(
        in_dim=(hid_dim * q_emb.ndirections, v_dim),
        hid_dim=(hid_dim, hid_dim * 2),
        out_dim=num_ans_candidates,
        dropout=0.5
    )
    return BaseModel(w_emb, q_emb, v_att, classifier)
# %%
def binary_cross_entropy_with_logits(input, target, mean=False):
    """
    Function that measures Binary Cross Entropy between target and output logits:
    """
    if not target.is_same_size(input):
        raise ValueError("Target size ({}) must be the same as input size ({})".format(target.size(), input.size()))
    max_val = (-input).clamp(min=0)
    loss = input - input * target + max_val + ((-max_val).exp() + (-input - max_val).exp()).log()
    loss = loss.sum(dim=1)
    return loss.mean() if mean else loss


def compute_score_with_logits(logits, labels):
    logits = torch.max(logits, 1)[1].data  # argmax
    one_hots = torch.zeros_like(labels)
    one_hots.scatter_(1, logits.view(-1, 1), 1)
    scores = (one_hots * labels)
    return scores.sum(dim=1)


def run(model, loader, optimizer, train=False, prefix='', epoch=0):
    if train:
        model.train()
    else:
        model.eval()
    losses, accs = [], []
    for i, (v, b, q, a, qid) in enumerate(loader):
        pred, _ = model(v, b, q, a)
        loss = binary_cross_entropy_with_logits(pred, a, True)
        acc = compute_score_with_logits(pred, a.data)
        if train:
            # optimze parameters
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            optimizer.step()
            optimizer.zero_grad()
        losses.append(loss.item())
        accs.append(acc.mean().item())
    print('{} E{:03d} loss={:.4f} acc={:.4f}'.format(prefix, epoch, sum(losses) / len(losses), sum(accs) / len(accs)))
# %%
model = build_baseline(ntoken, num_ans)
optimizer = torch.optim.Adamax(model.parameters())
for epoch in range(2):
    run(model, train_loader, optimizer, train=True, prefix='train', epoch=epoch)
