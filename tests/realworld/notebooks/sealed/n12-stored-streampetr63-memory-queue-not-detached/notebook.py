# source: variant of https://github.com/exiawsh/StreamPETR/issues/63 (a small StreamPETRHead keeping the query memory queue of streampetr_head.py, with the .detach() on the propagated memory left out as asked about in the issue; random frames replace nuScenes)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 2 line 41
# expert: post_update_memory pushes the top-k decoder outputs of this frame into self.memory_embedding, and the next frame's queries are built from that memory; without detach the stored memory stays attached to the previous frame's graph, which that frame's backward already freed, so the second frame's loss.backward() fails. As the maintainer answers, in stream training the memory must be detached when it is stored: rec_memory = topk_gather(rec_memory, topk_indexes).detach().
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# %%
def memory_refresh(memory, prev_exist):
    memory_shape = memory.shape
    view_shape = [1 for _ in range(len(memory_shape))]
    prev_exist = prev_exist.view(-1, *view_shape[1:])
    return memory * prev_exist


def topk_gather(feat, topk_indexes):
    if topk_indexes is not None:
        feat_shape = feat.shape
        topk_shape = topk_indexes.shape

        view_shape = [1 for _ in range(len(feat_shape))]
        view_shape[:2] = topk_shape[:2]
        topk_indexes = topk_indexes.view(*view_shape)

        feat = torch.gather(feat, 1, topk_indexes.repeat(1, 1, *feat_shape[2:]))
    return feat
# %%
class StreamPETRHead(nn.Module):
    def __init__(self, num_classes=3, embed_dims=32, num_query=12, memory_len=16, topk_proposals=4, num_propagated=4):
        super().__init__()
        self.num_classes = num_classes
        self.embed_dims = embed_dims
        self.num_query = num_query
        self.memory_len = memory_len
        self.topk_proposals = topk_proposals
        self.num_propagated = num_propagated
        self.query_embedding = nn.Embedding(num_query, embed_dims)
        self.time_embedding = nn.Linear(1, embed_dims)
        self.transformer = nn.TransformerDecoderLayer(embed_dims, 4, 64, dropout=0.0, batch_first=True)
        self.cls_branches = nn.Linear(embed_dims, num_classes)
        self.reg_branches = nn.Linear(embed_dims, 5)
        self.reset_memory()

    def reset_memory(self):
        self.memory_embedding = None
        self.memory_timestamp = None

    def pre_update_memory(self, data):
        x = data['prev_exists']
        B = x.size(0)
        # refresh the memory when the scene changes
        if self.memory_embedding is None:
            self.memory_embedding = x.new_zeros(B, self.memory_len, self.embed_dims)
            self.memory_timestamp = x.new_zeros(B, self.memory_len, 1)
        else:
            self.memory_timestamp += data['timestamp'].unsqueeze(-1).unsqueeze(-1)
            self.memory_timestamp = memory_refresh(self.memory_timestamp[:, :self.memory_len], x)
            self.memory_embedding = memory_refresh(self.memory_embedding[:, :self.memory_len], x)

    def post_update_memory(self, data, all_cls_scores, outs_dec):
        rec_memory = outs_dec[-1]
        rec_score = all_cls_scores[-1].sigmoid().topk(1, dim=-1).values[..., 0:1]
        rec_timestamp = torch.zeros_like(rec_score)

        # topk proposals
        _, topk_indexes = torch.topk(rec_score, self.topk_proposals, dim=1)
        rec_timestamp = topk_gather(rec_timestamp, topk_indexes)
        rec_memory = topk_gather(rec_memory, topk_indexes)

        self.memory_embedding = torch.cat([rec_memory, self.memory_embedding], dim=1)
        self.memory_timestamp = torch.cat([rec_timestamp, self.memory_timestamp], dim=1)
        self.memory_timestamp -= data['timestamp'].unsqueeze(-1).unsqueeze(-1)

    def temporal_alignment(self, tgt):
        temp_memory = self.memory_embedding + self.time_embedding(self.memory_timestamp)
        if self.num_propagated > 0:
            tgt = torch.cat([tgt, temp_memory[:, :self.num_propagated]], dim=1)
            temp_memory = temp_memory[:, self.num_propagated:]
        return tgt, temp_memory

    def forward(self, img_feats, data):
        self.pre_update_memory(data)
        B = img_feats.size(0)
        tgt = self.query_embedding.weight.unsqueeze(0).repeat(B, 1, 1)
        tgt, temp_memory = self.temporal_alignment(tgt)
        outs_dec = self.transformer(tgt, torch.cat([img_feats, temp_memory], dim=1)).unsqueeze(0)
        all_cls_scores = self.cls_branches(outs_dec)
        all_bbox_preds = self.reg_branches(outs_dec)
        self.post_update_memory(data, all_cls_scores, outs_dec)
        return all_cls_scores[:, :, :self.num_query], all_bbox_preds[:, :, :self.num_query]
# %%
backbone = nn.Sequential(nn.Conv2d(3, 32, 4, stride=4), nn.ReLU())
pts_bbox_head = StreamPETRHead()
optimizer = torch.optim.AdamW(list(backbone.parameters()) + list(pts_bbox_head.parameters()), lr=2e-4)

# one scene of consecutive frames (stream training: one frame per iteration)
num_frames, B = 4, 2
frames = torch.randn(num_frames, B, 3, 16, 16)
gt_labels = torch.randint(0, 3, (num_frames, B, 12))
gt_bboxes = torch.rand(num_frames, B, 12, 5)
# %%
pts_bbox_head.reset_memory()
for t in range(num_frames):
    data = {'prev_exists': torch.full((B,), float(t > 0)), 'timestamp': torch.full((B,), 0.5)}
    img_feats = backbone(frames[t]).flatten(2).transpose(1, 2)
    all_cls_scores, all_bbox_preds = pts_bbox_head(img_feats, data)
    loss_cls = F.cross_entropy(all_cls_scores[-1].flatten(0, 1), gt_labels[t].flatten())
    loss_bbox = F.l1_loss(all_bbox_preds[-1], gt_bboxes[t])
    loss = loss_cls + loss_bbox
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"frame {t}: loss {loss.item():.4f}")
