# source: https://github.com/wz0919/waypoint-predictor/issues/4
# style: vision
# cause: grads_not_zeroed
# line: 56
# expert: call optimizer.zero_grad() at the start of every training iteration (before total_loss.backward()) so each AdamW step uses only the current batch's gradient
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device('cpu')
ANGLES, BATCH_SIZE, EPOCH = 12, 4, 2


class TRMPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.rgb_proj = nn.Linear(32, 16)
        self.depth_proj = nn.Linear(8 * 2 * 2, 16)
        self.head = nn.Linear(32, 12)

    def forward(self, rgb_feats, depth_feats):
        x = torch.cat([self.rgb_proj(rgb_feats), self.depth_proj(depth_feats.flatten(1))], -1)
        return self.head(x)


def TRM_predict(mode, predictor, rgb_feats, depth_feats):
    vis_logits = predictor(rgb_feats, depth_feats).view(-1, ANGLES, 12)
    return vis_logits


rgb_encoder = nn.Sequential(nn.Conv2d(3, 32, 3, stride=4), nn.AdaptiveAvgPool2d(1), nn.Flatten()).requires_grad_(False)
depth_encoder = nn.Sequential(nn.Conv2d(1, 8, 3, stride=4), nn.AdaptiveAvgPool2d(2)).requires_grad_(False)
predictor = TRMPredictor()
trainloader = [{'rgb': torch.rand(BATCH_SIZE * ANGLES, 3, 32, 32), 'depth': torch.rand(BATCH_SIZE * ANGLES, 1, 32, 32),
                'target': torch.rand(BATCH_SIZE, ANGLES, 12), 'weight': torch.rand(BATCH_SIZE, ANGLES, 12)} for _ in range(5)]

criterion_mse = torch.nn.MSELoss(reduction='none')
params = list(predictor.parameters())
optimizer = torch.optim.AdamW(params, lr=1e-3)

for epoch in range(EPOCH):  # loop over the dataset multiple times
    sum_loss = 0.0
    rgb_encoder.eval()
    depth_encoder.eval()
    predictor.train()
    for i, data in enumerate(trainloader):
        rgb_imgs = data['rgb'].to(device)
        depth_imgs = data['depth'].to(device)
        rgb_feats = rgb_encoder(rgb_imgs)        # (BATCH_SIZE*ANGLES, 2048)
        depth_feats = depth_encoder(depth_imgs)  # (BATCH_SIZE*ANGLES, 128, 4, 4)
        target, weight = data['target'], data['weight']
        vis_logits = TRM_predict('train', predictor, rgb_feats, depth_feats)
        loss_vis = criterion_mse(vis_logits, target) * weight
        total_loss = loss_vis.sum() / vis_logits.size(0) / ANGLES
        total_loss.backward()
        optimizer.step()
        sum_loss += total_loss.item()
    print('Train Loss: %.5f' % (sum_loss / (i + 1)))
