"""Tiny stand-in for torch.hub.load('facebookresearch/detr', 'detr_resnet50', pretrained=True): random
weights, same module paths the notebook hooks (model.backbone[-2], transformer.encoder.layers[-1].self_attn,
transformer.decoder.layers[-1].multihead_attn) and the same outputs (dict with pred_logits, pred_boxes)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NestedTensor:
    def __init__(self, tensors, mask):
        self.tensors = tensors
        self.mask = mask


class BackboneBase(nn.Module):
    def __init__(self, num_channels=32):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, num_channels, 4, stride=4), nn.ReLU(),
                                  nn.Conv2d(num_channels, num_channels, 2, stride=2), nn.ReLU())
        self.num_channels = num_channels

    def forward(self, tensor_list):
        x = self.body(tensor_list.tensors)
        mask = F.interpolate(tensor_list.mask[None].float(), size=x.shape[-2:]).to(torch.bool)[0]
        return {'0': NestedTensor(x, mask)}


class PositionEmbeddingLearned(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.row_embed = nn.Embedding(50, d // 2)
        self.col_embed = nn.Embedding(50, d // 2)

    def forward(self, tensor_list):
        x = tensor_list.tensors
        h, w = x.shape[-2:]
        pos = torch.cat([self.col_embed.weight[:w].unsqueeze(0).repeat(h, 1, 1),
                         self.row_embed.weight[:h].unsqueeze(1).repeat(1, w, 1)], dim=-1)
        return pos.permute(2, 0, 1).unsqueeze(0).repeat(x.shape[0], 1, 1, 1)


class Joiner(nn.Sequential):
    def forward(self, tensor_list):
        xs = self[0](tensor_list)
        out, pos = [], []
        for name, x in xs.items():
            out.append(x)
            pos.append(self[1](x).to(x.tensors.dtype))
        return out, pos


class TransformerEncoderLayer(nn.Module):
    def __init__(self, d, nhead):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, nhead)
        self.linear1, self.linear2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, src, pos):
        q = k = src + pos
        src = self.norm1(src + self.self_attn(q, k, value=src)[0])
        return self.norm2(src + self.linear2(F.relu(self.linear1(src))))


class TransformerDecoderLayer(nn.Module):
    def __init__(self, d, nhead):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, nhead)
        self.multihead_attn = nn.MultiheadAttention(d, nhead)
        self.linear1, self.linear2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, tgt, memory, pos, query_pos):
        q = k = tgt + query_pos
        tgt = self.norm1(tgt + self.self_attn(q, k, value=tgt)[0])
        tgt = self.norm2(tgt + self.multihead_attn(query=tgt + query_pos, key=memory + pos, value=memory)[0])
        return self.norm3(tgt + self.linear2(F.relu(self.linear1(tgt))))


class Transformer(nn.Module):
    def __init__(self, d=32, nhead=4, num_layers=2):
        super().__init__()
        self.encoder = nn.Module()
        self.encoder.layers = nn.ModuleList([TransformerEncoderLayer(d, nhead) for _ in range(num_layers)])
        self.decoder = nn.Module()
        self.decoder.layers = nn.ModuleList([TransformerDecoderLayer(d, nhead) for _ in range(num_layers)])
        self.d_model = d

    def forward(self, src, query_embed, pos_embed):
        bs, c, h, w = src.shape
        src = src.flatten(2).permute(2, 0, 1)
        pos_embed = pos_embed.flatten(2).permute(2, 0, 1)
        query_embed = query_embed.unsqueeze(1).repeat(1, bs, 1)
        memory = src
        for layer in self.encoder.layers:
            memory = layer(memory, pos_embed)
        tgt = torch.zeros_like(query_embed)
        for layer in self.decoder.layers:
            tgt = layer(tgt, memory, pos_embed, query_embed)
        return tgt.transpose(0, 1)


class DETR(nn.Module):
    def __init__(self, num_classes=91, num_queries=10, d=32):
        super().__init__()
        self.backbone = Joiner(BackboneBase(d), PositionEmbeddingLearned(d))
        self.input_proj = nn.Conv2d(d, d, kernel_size=1)
        self.transformer = Transformer(d)
        self.query_embed = nn.Embedding(num_queries, d)
        self.class_embed = nn.Linear(d, num_classes + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 4))

    def forward(self, samples):
        samples = NestedTensor(samples, torch.zeros(samples.shape[0], *samples.shape[-2:], dtype=torch.bool))
        features, pos = self.backbone(samples)
        src = features[-1].tensors
        hs = self.transformer(self.input_proj(src), self.query_embed.weight, pos[-1])
        return {'pred_logits': self.class_embed(hs), 'pred_boxes': self.bbox_embed(hs).sigmoid()}


def detr_resnet50(pretrained=False, num_classes=91):
    torch.manual_seed(0)
    model = DETR(num_classes=num_classes)
    if pretrained:
        with torch.no_grad():  # "pretrained": confident class head
            model.class_embed.weight.mul_(60.0)
    return model
