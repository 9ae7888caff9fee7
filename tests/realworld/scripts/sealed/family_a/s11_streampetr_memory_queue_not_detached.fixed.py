# source: variant of https://github.com/exiawsh/StreamPETR/issues/63 (the memory-queue logic of StreamPETRHead.pre_update_memory / post_update_memory / temporal_alignment reduced to a tiny query head on random frames, with the .detach() calls of post_update_memory removed)
# style: vision
# cause: tensor_reused_across_iterations
# line: 78
# expert: In streaming training the top-k decoder outputs of the current frame are pushed into self.memory_embedding and propagated to the next frame; without detach the next frame's loss backpropagates into the previous frame's graph, already freed by its backward. As the maintainer says, the memory tensors must be detached when using stream training (rec_memory = topk_gather(...).detach()).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def topk_gather(feat, topk_indexes):
    if topk_indexes is not None:
        feat_shape = feat.shape
        topk_shape = topk_indexes.shape
        view_shape = [1 for _ in range(len(feat_shape))]
        view_shape[:2] = topk_shape[:2]
        topk_indexes = topk_indexes.view(*view_shape)
        feat = torch.gather(feat, 1, topk_indexes.repeat(1, 1, *feat_shape[2:]))
    return feat


def memory_refresh(memory, prev_exist):
    memory_shape = memory.shape
    view_shape = [1 for _ in range(len(memory_shape))]
    prev_exist = prev_exist.view(-1, *view_shape[1:])
    return memory * prev_exist


class StreamPETRHead(nn.Module):
    def __init__(self, num_classes=3, embed_dims=16, num_query=12, memory_len=8,
                 topk_proposals=4, num_propagated=2):
        super().__init__()
        self.embed_dims = embed_dims
        self.num_query = num_query
        self.memory_len = memory_len
        self.topk_proposals = topk_proposals
        self.num_propagated = num_propagated
        self.query_embedding = nn.Embedding(num_query, embed_dims)
        self.img_proj = nn.Linear(32, embed_dims)
        self.decoder = nn.TransformerDecoderLayer(embed_dims, nhead=2, dim_feedforward=32,
                                                  dropout=0.0, batch_first=True)
        self.cls_branch = nn.Linear(embed_dims, num_classes)
        self.reg_branch = nn.Linear(embed_dims, 3)
        self.reset_memory()

    def reset_memory(self):
        self.memory_embedding = None
        self.memory_reference_point = None

    def pre_update_memory(self, data):
        x = data['prev_exists']
        B = x.size(0)
        # refresh the memory when the scene changes
        if self.memory_embedding is None:
            self.memory_embedding = x.new_zeros(B, self.memory_len, self.embed_dims)
            self.memory_reference_point = x.new_zeros(B, self.memory_len, 3)
        else:
            self.memory_reference_point = memory_refresh(self.memory_reference_point[:, :self.memory_len], x)
            self.memory_embedding = memory_refresh(self.memory_embedding[:, :self.memory_len], x)

    def temporal_alignment(self, tgt):
        temp_memory = self.memory_embedding
        if self.num_propagated > 0:
            tgt = torch.cat([tgt, temp_memory[:, :self.num_propagated]], dim=1)
            temp_memory = temp_memory[:, self.num_propagated:]
        return tgt, temp_memory

    def post_update_memory(self, all_cls_scores, all_bbox_preds, outs_dec):
        rec_reference_points = all_bbox_preds[..., :3]
        rec_memory = outs_dec
        rec_score = all_cls_scores.sigmoid().topk(1, dim=-1).values[..., 0:1]

        # topk proposals
        _, topk_indexes = torch.topk(rec_score, self.topk_proposals, dim=1)
        rec_reference_points = topk_gather(rec_reference_points, topk_indexes).detach()
        rec_memory = topk_gather(rec_memory, topk_indexes).detach()

        self.memory_embedding = torch.cat([rec_memory, self.memory_embedding], dim=1)
        self.memory_reference_point = torch.cat([rec_reference_points, self.memory_reference_point], dim=1)

    def forward(self, img_feats, data):
        self.pre_update_memory(data)
        B = img_feats.size(0)
        tgt = self.query_embedding.weight.unsqueeze(0).repeat(B, 1, 1)
        tgt, temp_memory = self.temporal_alignment(tgt)
        memory = torch.cat([self.img_proj(img_feats), temp_memory], dim=1)
        outs_dec = self.decoder(tgt, memory)
        all_cls_scores = self.cls_branch(outs_dec)
        all_bbox_preds = self.reg_branch(outs_dec)
        self.post_update_memory(all_cls_scores, all_bbox_preds, outs_dec)
        return all_cls_scores, all_bbox_preds


head = StreamPETRHead()
optimizer = torch.optim.AdamW(head.parameters(), lr=2e-4)

# one scene streamed frame by frame (stream training: batch size 1 clip per iteration)
for frame_idx in range(3):
    img_feats = torch.randn(2, 6, 32)
    data = {'prev_exists': torch.tensor([float(frame_idx > 0)] * 2)}
    gt_labels = torch.randint(0, 3, (2, 14))
    gt_boxes = torch.randn(2, 14, 3)

    all_cls_scores, all_bbox_preds = head(img_feats, data)
    loss_cls = F.cross_entropy(all_cls_scores.flatten(0, 1), gt_labels.flatten())
    loss_bbox = F.l1_loss(all_bbox_preds, gt_boxes)
    loss = loss_cls + loss_bbox

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"frame {frame_idx}: loss {loss.item():.4f}")
