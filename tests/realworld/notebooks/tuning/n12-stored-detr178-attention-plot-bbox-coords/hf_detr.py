"""Tiny stand-ins for transformers' DetrFeatureExtractor and DetrForObjectDetection (random weights,
same attribute paths and outputs as the notebook uses: model.model.backbone.conv_encoder,
outputs.logits / pred_boxes / cross_attentions, feature_extractor.post_process)."""
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DetrFeatureExtractor:
    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def __call__(self, images, return_tensors="pt"):
        x = torch.as_tensor(np.asarray(images), dtype=torch.float32).permute(2, 0, 1) / 255.0
        return {"pixel_values": ((x - 0.5) / 0.25).unsqueeze(0)}

    def post_process(self, outputs, target_sizes):
        out_logits, out_bbox = outputs.logits, outputs.pred_boxes
        prob = F.softmax(out_logits, -1)
        scores, labels = prob[..., :-1].max(-1)
        x_c, y_c, w, h = out_bbox.unbind(-1)
        boxes = torch.stack([(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)], dim=-1)
        img_h, img_w = target_sizes.unbind(1)
        scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)
        boxes = boxes * scale_fct[:, None, :]
        return [{"scores": s, "labels": l, "boxes": b} for s, l, b in zip(scores, labels, boxes)]


class DetrConvEncoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, d, 4, stride=4), nn.ReLU(), nn.Conv2d(d, d, 2, stride=2), nn.ReLU())

    def forward(self, pixel_values, pixel_mask):
        feature_map = self.body(pixel_values)
        mask = F.interpolate(pixel_mask[None].float(), size=feature_map.shape[-2:]).bool()[0]
        return [(feature_map, mask)]


class DetrDecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.encoder_attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.fc = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, q, memory):
        q = self.norm1(q + self.self_attn(q, q, q)[0])
        attn_out, cross_attn = self.encoder_attn(q, memory, memory, average_attn_weights=False)
        q = self.norm2(q + attn_out)
        return self.norm3(q + self.fc(q)), cross_attn


class DetrModel(nn.Module):
    def __init__(self, d=32, num_queries=10):
        super().__init__()
        self.backbone = nn.Module()
        self.backbone.conv_encoder = DetrConvEncoder(d)
        self.query_position_embeddings = nn.Embedding(num_queries, d)
        self.layers = nn.ModuleList([DetrDecoderLayer(d), DetrDecoderLayer(d)])

    def forward(self, pixel_values, pixel_mask):
        (feature_map, mask), = self.backbone.conv_encoder(pixel_values, pixel_mask)
        memory = feature_map.flatten(2).transpose(1, 2)
        q = self.query_position_embeddings.weight.unsqueeze(0).repeat(pixel_values.shape[0], 1, 1)
        cross_attentions = []
        for layer in self.layers:
            q, attn = layer(q, memory)
            cross_attentions.append(attn)
        return q, tuple(cross_attentions)


class DetrForObjectDetection(nn.Module):
    def __init__(self, num_labels=4):
        super().__init__()
        self.config = SimpleNamespace(id2label={0: "cat", 1: "remote", 2: "couch", 3: "dog"})
        self.model = DetrModel()
        self.class_labels_classifier = nn.Linear(32, num_labels + 1)
        self.bbox_predictor = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))

    @classmethod
    def from_pretrained(cls, name):
        torch.manual_seed(0)
        model = cls()
        with torch.no_grad():  # "pretrained": confident class head
            model.class_labels_classifier.weight.mul_(12.0)
        return model

    def forward(self, pixel_values, pixel_mask=None, output_attentions=False):
        if pixel_mask is None:
            pixel_mask = torch.ones(pixel_values.shape[0], *pixel_values.shape[-2:], dtype=torch.long)
        sequence_output, cross_attentions = self.model(pixel_values, pixel_mask)
        return SimpleNamespace(logits=self.class_labels_classifier(sequence_output),
                               pred_boxes=self.bbox_predictor(sequence_output).sigmoid(),
                               cross_attentions=cross_attentions if output_attentions else None)
