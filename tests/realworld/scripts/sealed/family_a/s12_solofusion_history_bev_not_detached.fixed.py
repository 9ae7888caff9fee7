# source: variant of https://github.com/Divadi/SOLOFusion/issues/22 (why history BEV features are detached in fuse_history; written here without the two .detach() calls)
# style: vision
# cause: tensor_reused_across_iterations
# line: 164
# expert: fuse_history stores this frame's BEV features in self.history_bev and samples them at the next training step; stored with their graph, the next step's loss backpropagates into the previous step's (already freed) backbone graph. The maintainer's answer: the history features are detached to avoid backpropagation through time, i.e. store feats_cat[:, :-C].detach().clone() (and detach self.history_bev before use), as solofusion.py does.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def generate_forward_transformation_matrix(img_meta_dict):
    res = torch.eye(3)
    if 'transformation_3d_flow' in img_meta_dict:
        for transform_type in img_meta_dict['transformation_3d_flow']:
            if transform_type == "HF":
                if "pcd_horizontal_flip" in img_meta_dict:
                    tmp = torch.eye(3)
                    tmp[1, 1] = -1
                    res = tmp @ res
    hom_res = torch.eye(4)
    hom_res[:3, :3] = res
    return hom_res


class ViewTransformer(nn.Module):
    """Stands in for the LSS depth view transformer: image features -> BEV grid."""
    def __init__(self, in_channels, out_channels, bev_size):
        super().__init__()
        self.dx = torch.tensor([0.8, 0.8, 20.0])
        self.bx = torch.tensor([-51.2 + 0.4, -51.2 + 0.4, -5.0 + 10.0])
        self.depth_net = nn.Conv2d(in_channels, out_channels, 1)
        self.bev_size = bev_size

    def forward(self, img_feats):
        bev = self.depth_net(img_feats)
        return F.adaptive_avg_pool2d(bev, self.bev_size)


class SOLOFusion(nn.Module):
    def __init__(self, single_bev_num_channels=8, history_cat_num=2, history_cat_conv_out_channels=8,
                 history_cam_sweep_freq=0.5, interpolation_mode='bilinear'):
        super().__init__()
        self.single_bev_num_channels = single_bev_num_channels
        self.history_cat_num = history_cat_num
        self.history_cam_sweep_freq = history_cam_sweep_freq
        self.interpolation_mode = interpolation_mode

        self.image_encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.img_view_transformer = ViewTransformer(16, single_bev_num_channels, (8, 8))

        self.history_keyframe_time_conv = nn.Sequential(
            nn.Conv2d(self.single_bev_num_channels + 1, self.single_bev_num_channels, kernel_size=1, padding=0, stride=1),
            nn.BatchNorm2d(self.single_bev_num_channels),
            nn.ReLU(inplace=True))
        self.history_keyframe_cat_conv = nn.Sequential(
            nn.Conv2d(self.single_bev_num_channels * (self.history_cat_num + 1), history_cat_conv_out_channels,
                      kernel_size=1, padding=0, stride=1),
            nn.BatchNorm2d(history_cat_conv_out_channels),
            nn.ReLU(inplace=True))
        self.pts_bbox_head = nn.Conv2d(history_cat_conv_out_channels, 4, 1)

        self.history_bev = None
        self.history_seq_ids = None
        self.history_forward_augs = None
        self.history_sweep_time = None

    def fuse_history(self, curr_bev, img_metas):
        seq_ids = torch.LongTensor([
            single_img_metas['sequence_group_idx']
            for single_img_metas in img_metas]).to(curr_bev.device)
        start_of_sequence = torch.BoolTensor([
            single_img_metas['start_of_sequence']
            for single_img_metas in img_metas]).to(curr_bev.device)
        forward_augs = torch.stack([
            generate_forward_transformation_matrix(single_img_metas)
            for single_img_metas in img_metas], dim=0).to(curr_bev)
        curr_to_prev_lidar_rt = torch.stack([
            single_img_metas['curr_to_prev_lidar_rt']
            for single_img_metas in img_metas]).to(curr_bev)

        ## Deal with first batch
        if self.history_bev is None:
            self.history_bev = curr_bev.clone()
            self.history_seq_ids = seq_ids.clone()
            self.history_forward_augs = forward_augs.clone()

            # Repeat the first frame feature to be history
            self.history_bev = curr_bev.repeat(1, self.history_cat_num, 1, 1)
            # All 0s, representing current timestep.
            self.history_sweep_time = curr_bev.new_zeros(curr_bev.shape[0], self.history_cat_num)

        self.history_bev = self.history_bev.detach()

        assert self.history_bev.dtype == torch.float32

        ## Deal with the new sequences
        assert (self.history_seq_ids != seq_ids)[~start_of_sequence].sum() == 0, \
            "{}, {}, {}".format(self.history_seq_ids, seq_ids, start_of_sequence)

        ## Replace all the new sequences' positions in history with the curr_bev information
        self.history_bev[start_of_sequence] = curr_bev[start_of_sequence].repeat(1, self.history_cat_num, 1, 1)
        self.history_sweep_time += 1  # new timestep, everything in history gets pushed back one.
        self.history_sweep_time[start_of_sequence] = 0  # zero the new sequence timestep starts
        self.history_seq_ids[start_of_sequence] = seq_ids[start_of_sequence]
        self.history_forward_augs[start_of_sequence] = forward_augs[start_of_sequence]

        ## Get grid idxs & grid2bev first.
        n, c, h, w = curr_bev.shape

        # Generate grid
        xs = torch.linspace(0, w - 1, w, dtype=curr_bev.dtype, device=curr_bev.device).view(1, w).expand(h, w)
        ys = torch.linspace(0, h - 1, h, dtype=curr_bev.dtype, device=curr_bev.device).view(h, 1).expand(h, w)
        grid = torch.stack(
            (xs, ys, torch.ones_like(xs), torch.ones_like(xs)), -1).view(1, h, w, 4).expand(n, h, w, 4).view(n, h, w, 4, 1)

        # This converts BEV indices to meters
        feat2bev = torch.zeros((4, 4), dtype=grid.dtype).to(grid)
        feat2bev[0, 0] = self.img_view_transformer.dx[0]
        feat2bev[1, 1] = self.img_view_transformer.dx[1]
        feat2bev[0, 3] = self.img_view_transformer.bx[0] - self.img_view_transformer.dx[0] / 2.
        feat2bev[1, 3] = self.img_view_transformer.bx[1] - self.img_view_transformer.dx[1] / 2.
        feat2bev[2, 2] = 1
        feat2bev[3, 3] = 1
        feat2bev = feat2bev.view(1, 4, 4)

        ## Get flow for grid sampling.
        rt_flow = (torch.inverse(feat2bev) @ self.history_forward_augs @ curr_to_prev_lidar_rt
                   @ torch.inverse(forward_augs) @ feat2bev)
        grid = rt_flow.view(n, 1, 1, 4, 4) @ grid

        # normalize and sample
        normalize_factor = torch.tensor([w - 1.0, h - 1.0], dtype=curr_bev.dtype, device=curr_bev.device)
        grid = grid[:, :, :, :2, 0] / normalize_factor.view(1, 1, 1, 2) * 2.0 - 1.0
        sampled_history_bev = F.grid_sample(self.history_bev, grid.to(curr_bev.dtype), align_corners=True, mode=self.interpolation_mode)

        ## Update history
        # Add in current frame to features & timestep
        self.history_sweep_time = torch.cat(
            [self.history_sweep_time.new_zeros(self.history_sweep_time.shape[0], 1), self.history_sweep_time],
            dim=1)  # B x (1 + T)
        feats_cat = torch.cat([curr_bev, sampled_history_bev], dim=1)  # B x (1 + T) * 80 x H x W

        # Reshape and concatenate features and timestep
        feats_to_return = feats_cat.reshape(
            feats_cat.shape[0], self.history_cat_num + 1, self.single_bev_num_channels, feats_cat.shape[2], feats_cat.shape[3])
        feats_to_return = torch.cat(
            [feats_to_return, self.history_sweep_time[:, :, None, None, None].repeat(
                1, 1, 1, feats_to_return.shape[3], feats_to_return.shape[4]) * self.history_cam_sweep_freq
             ], dim=2)  # B x (1 + T) x 81 x H x W

        # Time conv
        feats_to_return = self.history_keyframe_time_conv(
            feats_to_return.reshape(-1, *feats_to_return.shape[2:])).reshape(
                feats_to_return.shape[0], feats_to_return.shape[1], -1, *feats_to_return.shape[3:])

        # Cat keyframes & conv
        feats_to_return = self.history_keyframe_cat_conv(
            feats_to_return.reshape(
                feats_to_return.shape[0], -1, feats_to_return.shape[3], feats_to_return.shape[4]))  # B x C x H x W

        # Update history by moving everything down one group of single_bev_num_channels channels
        # and adding in curr_bev.
        # Clone is necessary since we're doing in-place operations on self.history_bev
        self.history_bev = feats_cat[:, :-self.single_bev_num_channels, :, :].detach().clone()
        self.history_sweep_time = self.history_sweep_time[:, :-1]

        self.history_forward_augs = forward_augs.clone()
        return feats_to_return.clone()

    def extract_img_feat(self, img, img_metas):
        curr_img_encoder_feats = self.image_encoder(img)
        bev_feat = self.img_view_transformer(curr_img_encoder_feats)
        bev_feat = self.fuse_history(bev_feat, img_metas)
        return bev_feat

    def forward_train(self, img_inputs, img_metas, gt_heatmap):
        losses = dict()
        img_feats = self.extract_img_feat(img_inputs, img_metas)
        bbox_outs = self.pts_bbox_head(img_feats)
        losses['loss_heatmap'] = F.mse_loss(bbox_outs, gt_heatmap)
        return losses


model = SOLOFusion()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
model.train()

batch_size = 2
for it in range(3):
    # consecutive frames of the same two sequences (streaming, one frame per step)
    img_metas = [dict(sequence_group_idx=b, start_of_sequence=(it == 0),
                      curr_to_prev_lidar_rt=torch.eye(4),
                      transformation_3d_flow=['HF'])
                 for b in range(batch_size)]
    img_inputs = torch.randn(batch_size, 3, 16, 16)
    gt_heatmap = torch.rand(batch_size, 4, 8, 8)

    losses = model.forward_train(img_inputs, img_metas, gt_heatmap)
    loss = sum(losses.values())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print('iter', it, 'loss', loss.item())
