# %%
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace
torch.manual_seed(0)
# %%
class SamePad(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.remove = 1 if kernel_size % 2 == 0 else 0

    def forward(self, x):
        if self.remove > 0:
            x = x[:, :, : -self.remove]
        return x


class ConvFeatureExtractionModel(nn.Module):
    def __init__(self, conv_layers, dropout=0.0, conv_bias=False):
        super().__init__()
        in_d = 1
        blocks = []
        for dim, k, stride in conv_layers:
            blocks.append(nn.Sequential(nn.Conv1d(in_d, dim, k, stride=stride, bias=conv_bias), nn.Dropout(dropout), nn.GELU()))
            in_d = dim
        self.conv_layers = nn.ModuleList(blocks)

    def forward(self, x):
        x = x.unsqueeze(1)  # BxT -> BxCxT
        for conv in self.conv_layers:
            x = conv(x)
        return x


class AudioEncoder(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        feature_enc_layers = eval(args.conv_feature_layers)
        self.embed = feature_enc_layers[-1][0]
        self.feature_extractor = ConvFeatureExtractionModel(conv_layers=feature_enc_layers, dropout=0.0, conv_bias=args.conv_bias)
        self.post_extract_proj = nn.Linear(self.embed, args.encoder_embed_dim) if self.embed != args.encoder_embed_dim else None
        self.dropout_input = nn.Dropout(args.dropout_input)
        self.feature_grad_mult = args.feature_grad_mult

        self.pos_conv = nn.Conv1d(args.encoder_embed_dim, args.encoder_embed_dim, kernel_size=args.conv_pos,
                                  padding=args.conv_pos // 2, groups=args.conv_pos_groups)
        std = math.sqrt(4 / (args.conv_pos * args.encoder_embed_dim))
        nn.init.normal_(self.pos_conv.weight, mean=0, std=std)
        nn.init.constant_(self.pos_conv.bias, 0)
        self.pos_conv = nn.utils.weight_norm(self.pos_conv, name="weight", dim=2)
        self.pos_conv = nn.Sequential(self.pos_conv, SamePad(args.conv_pos), nn.GELU())
        layer = nn.TransformerEncoderLayer(args.encoder_embed_dim, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=args.layer_use + 1)
        self.layer_norm = nn.LayerNorm(self.embed)

    def forward(self, source, padding_mask=None):
        if self.feature_grad_mult > 0:
            features = self.feature_extractor(source)
        else:
            with torch.no_grad():
                features = self.feature_extractor(source)
        features = features.transpose(1, 2)
        features = self.layer_norm(features)
        if self.post_extract_proj is not None:
            features = self.post_extract_proj(features)
        features = self.dropout_input(features)

        x = features
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x = x + x_conv

        features = self.encoder(x, src_key_padding_mask=padding_mask)
        return {"features": features, "padding_mask": padding_mask}
# %%
args = SimpleNamespace(conv_feature_layers="[(16, 10, 5), (16, 3, 2)]", conv_bias=False, encoder_embed_dim=24,
                       dropout_input=0.1, feature_grad_mult=1.0, conv_pos=8, conv_pos_groups=4, layer_use=0)
audio_encoder = AudioEncoder(args)
visual_proj = nn.Linear(24, 24)
optimizer = torch.optim.Adam(list(audio_encoder.parameters()) + list(visual_proj.parameters()), lr=1e-4)

audio = torch.randn(4, 400)        # 4 waveforms instead of SpokenCOCO
visual_feats = torch.randn(4, 24)  # paired image embeddings
# %%
audio_encoder.train()
for step in range(3):
    out = audio_encoder(audio)
    audio_emb = F.normalize(out["features"].mean(1), dim=-1)
    visual_emb = F.normalize(visual_proj(visual_feats), dim=-1)
    logits = audio_emb @ visual_emb.t() / 0.07
    target = torch.arange(4)
    loss = (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
