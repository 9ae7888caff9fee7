# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
torch.manual_seed(0)

args = SimpleNamespace(device='cpu', transformer_width=16, context_length=12, vocab_size=100,
                       transformer_layers=2, transformer_heads=2, bert_embed_dim=8, lr=1e-3, weight_decay=1e-4)

# in-memory stand-ins for Concepts925.txt (seen) and Concepts81.txt (unseen)
seen_labels = ['sky\n', 'clouds\n', 'person\n', 'water\n', 'animal\n', 'grass\n']
unseen_labels = ['dancing bear\n', 'harbor\n']
N_SEEN, N_ALL = len(seen_labels), len(seen_labels) + len(unseen_labels)


class _Tokenizer:
    def encode(self, text):
        return [sum(map(ord, w)) % 90 + 3 for w in text.split()]


_tokenizer = _Tokenizer()


def tokenize(text, context_length=args.context_length):
    """stand-in for clip.tokenize: <sot> tokens <eot>, zero padded"""
    ids = [1] + _tokenizer.encode(text) + [99]
    return torch.tensor(ids + [0] * (context_length - len(ids)))


class Transformer(nn.Module):
    """stand-in for clip.model.Transformer (sequence first)"""
    def __init__(self, width, layers, heads, attn_mask=None):
        super().__init__()
        layer = nn.TransformerEncoderLayer(width, heads, dim_feedforward=2 * width, dropout=0.0)
        self.resblocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.attn_mask = attn_mask

    def forward(self, x):
        return self.resblocks(x, mask=self.attn_mask)
# %%
class PromptLearner(nn.Module):

    def __init__(self, args):
        super().__init__()

        self.device = args.device
        self.transformer_width = args.transformer_width
        self.context_length = args.context_length
        self.vocab_size = args.vocab_size
        self.token_embedding = nn.Embedding(args.vocab_size, args.transformer_width)

        self.transformer = Transformer(
            width=args.transformer_width,
            layers=args.transformer_layers,
            heads=args.transformer_heads,
            attn_mask=self.build_attention_mask()
        )

        self.positional_embedding = nn.Parameter(torch.randn(self.context_length, args.transformer_width) * 0.01)
        self.ln_final = nn.LayerNorm(args.transformer_width)

        self.text_projection = nn.Parameter(torch.randn(args.transformer_width, args.bert_embed_dim) * 0.1)

    def build_attention_mask(self):
        mask = torch.empty(self.context_length, self.context_length)
        mask.fill_(float("-inf"))
        mask.triu_(1)  # zero out the lower diagonal
        return mask

    def init_label_emb(self, label_seen, label_unseen):
        label1006 = label_seen + label_unseen
        self.name_lens = [len(_tokenizer.encode(name)) for name in label1006]
        self.label_token = torch.zeros((len(self.name_lens), self.context_length), dtype=torch.long).to(self.device)
        for i, c in enumerate(label1006):
            self.label_token[i] = tokenize(f"There is a {c.strip()} in the scene")
        self.label_emb = torch.zeros((len(self.name_lens), max(self.name_lens), self.transformer_width)).to(self.device)
        for i, embed in enumerate(self.token_embedding(self.label_token)):
            self.label_emb[i][:self.name_lens[i]] = embed[4:4+self.name_lens[i]].clone().detach()

    def forward(self, partion):

        if partion == "all":
            start_idx = 0
            end_idx = N_ALL
        elif partion == "unseen":
            start_idx = N_SEEN
            end_idx = N_ALL
        else:
            start_idx = 0
            end_idx = N_SEEN

        label_embeds = self.token_embedding(self.label_token[start_idx:end_idx])

        for i in range(label_embeds.shape[0]):
            label_embeds[i, 4:4+self.name_lens[start_idx:end_idx][i], :] = self.label_emb[start_idx:end_idx][i][:self.name_lens[start_idx:end_idx][i]]

        x = label_embeds + self.positional_embedding
        x = x.permute(1, 0, 2)  # NLD -> LND

        x = self.transformer(x)
        x = x.permute(1, 0, 2)  # LND -> NLD
        x = self.ln_final(x)

        res = x[torch.arange(x.shape[0]), self.label_token[start_idx:end_idx].argmax(dim=-1)] @ self.text_projection

        return res
# %%
# Init Language Backbone
text_encoder = PromptLearner(args)

# Generate Label Embedding
text_encoder.init_label_emb(seen_labels, unseen_labels)
text_encoder = text_encoder.train()

# Build Optimizer
train_param = []
for name, param in text_encoder.named_parameters():
    if "token_embedding" in name:
        train_param.append(param)
    else:
        param.requires_grad = False

optimizer = torch.optim.AdamW(train_param, args.lr, weight_decay=args.weight_decay)
# %%
class ImageEncoder(nn.Module):
    """frozen stand-in for the first-stage ViT image encoder"""
    def __init__(self, dim=8, topk=2):
        super().__init__()
        self.topk = topk
        self.patch = nn.Conv2d(3, dim, 4, stride=4)
        self.requires_grad_(False)

    def encode_img(self, x):
        tokens = self.patch(x).flatten(2).transpose(1, 2)  # B x patches x dim
        return tokens, tokens.mean(1)


def ranking_lossT(logitsT, labelsT):
    """pairwise ranking loss: positive labels should score above negative ones"""
    diff = logitsT.unsqueeze(2) - logitsT.unsqueeze(1)  # s_i - s_j
    pair = labelsT.unsqueeze(2) * (1 - labelsT.unsqueeze(1))  # i positive, j negative
    return (F.relu(1 - diff) * pair).sum() / pair.sum().clamp(min=1)


image_encoder = ImageEncoder().eval()
train_inputs_all = torch.rand(12, 3, 16, 16)
train_labels_all = (torch.rand(12, N_SEEN) > 0.6).float()
train_labels_all[:, 0] = 1.0
# %%
mean_rank_loss = 0
for i in range(3):
    train_inputs = train_inputs_all[i * 4:(i + 1) * 4]
    train_labels = train_labels_all[i * 4:(i + 1) * 4]

    optimizer.zero_grad()

    txt_feat = text_encoder("seen")

    pred_feat, dist_feat = image_encoder.encode_img(train_inputs)

    score1 = torch.topk(pred_feat @ txt_feat.t(), k=image_encoder.topk, dim=1)[0].mean(dim=1)
    score2 = dist_feat @ txt_feat.t()
    score1 = score1 / score1.norm(dim=-1, keepdim=True)
    score2 = score2 / score2.norm(dim=-1, keepdim=True)
    logits = (score1 + score2) / 2

    rank_loss = ranking_lossT(logits, train_labels.float())
    loss = rank_loss

    mean_rank_loss += rank_loss.item()

    loss.backward()
    optimizer.step()
print('mean rank loss', mean_rank_loss / 3)
