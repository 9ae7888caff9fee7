# source: https://github.com/dvlab-research/DecoupleNet/issues/3 (the training iteration of train_phase1.py: loss_*_value accumulated as tensors over the iter_size sub-iterations and turned into floats with .item() at the end of each i_iter; tiny stand-ins for the backbone/head/classifiers and the two discriminators, random source/target images, no AMP GradScaler or torch.distributed, no pseudo-label thresholds bank)
# style: vision
# expert: The reporter worried that `loss_seg_value += loss_seg / args.iter_size` (no .item()) keeps every step's graph alive, but the running values are re-initialised to 0 at the start of every i_iter and converted with .item() before the optimizer steps, so they only span the iter_size sub-iterations of the current step and are released when the next iteration starts; as the maintainer answered, the memory is freed before the next step. The discriminators are trained on feat_src/feat_tgt/pred/pred_tgt .detach(), so no graph is backpropagated twice.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


class Args:
    num_steps = 3
    iter_size = 2
    num_classes = 5
    lambda_adv_src = 0.001
    lambda_adv_tgt = 0.001
    lambda_st = 0.1
    ignore_label = 255


args = Args()


def conv_block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1), nn.BatchNorm2d(o), nn.ReLU())


model_B1 = conv_block(3, 8)    # source-specific low-level branch
model_B2 = conv_block(3, 8)    # target-specific low-level branch
model_B = conv_block(8, 16)    # shared backbone
head = conv_block(16, 16)
classifier = nn.Conv2d(16, args.num_classes, 1)
aux_classifier = nn.Conv2d(16, args.num_classes, 1)
model_D1 = nn.Sequential(nn.Conv2d(8, 8, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, 1, 1))
model_D2 = nn.Sequential(nn.Conv2d(args.num_classes, 8, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, 1, 1))

params = [p for m in (model_B1, model_B2, model_B, head, classifier, aux_classifier) for p in m.parameters()]
optimizer = torch.optim.SGD(params, lr=2.5e-4, momentum=0.9)
optimizer_D1 = torch.optim.Adam(model_D1.parameters(), lr=1e-4, betas=(0.9, 0.99))
optimizer_D2 = torch.optim.Adam(model_D2.parameters(), lr=1e-4, betas=(0.9, 0.99))

seg_loss = nn.CrossEntropyLoss(ignore_index=args.ignore_label)
bce_loss = nn.BCEWithLogitsLoss()
source_label, target_label = 0, 1
interp = interp_target = nn.Identity()


def source_batch():
    return {'img': torch.randn(2, 3, 16, 16), 'label': torch.randint(0, args.num_classes, (2, 16, 16))}


def target_batch():
    return {'img': torch.randn(2, 3, 16, 16)}


thresholds = torch.full((args.num_classes,), 0.3)

for i_iter in range(args.num_steps):
    for m in (model_B1, model_B2, model_B, model_D1, model_D2, head, classifier, aux_classifier):
        m.train()

    loss_seg_value = 0
    loss_adv_src_value = 0
    loss_adv_tgt_value = 0
    loss_D1_value = 0
    loss_D2_value = 0
    loss_st_value = 0

    optimizer.zero_grad()
    optimizer_D1.zero_grad()
    optimizer_D2.zero_grad()

    for sub_i in range(args.iter_size):

        # train G
        for param in model_D1.parameters():
            param.requires_grad = False
        for param in model_D2.parameters():
            param.requires_grad = False

        # train with source
        batch = source_batch()
        images, labels = batch['img'], batch['label']
        src_size = images.shape[-2:]
        feat_src = model_B1(images)
        feat_B_src = model_B(feat_src)
        pred = classifier(head(feat_B_src))
        pred = interp(pred)
        temperature = 1.8
        pred = pred.div(temperature)
        loss_seg = seg_loss(pred, labels)
        D_out = model_D1(F.interpolate(feat_src, size=src_size, mode='bilinear', align_corners=True))
        loss_adv_src = args.lambda_adv_src * bce_loss(D_out, torch.FloatTensor(D_out.data.size()).fill_(target_label))
        loss = loss_seg + loss_adv_src

        # proper normalization
        loss = loss / args.iter_size
        loss_seg_value += loss_seg / args.iter_size
        loss_adv_src_value += loss_adv_src / args.iter_size
        loss.backward()

        # train with target
        batch = target_batch()
        images = batch['img']
        tgt_size = images.shape[-2:]
        feat_tgt = model_B2(images)
        feat_B_tgt = model_B(feat_tgt)
        feat_B_tgt_head = head(feat_B_tgt)
        pred_tgt = classifier(feat_B_tgt_head)
        with torch.no_grad():
            pred_logits, pred_idx = F.softmax(pred_tgt.detach(), 1).max(1)
            pred_idx[pred_logits < thresholds[pred_idx]] = args.ignore_label
        pred_tgt = interp_target(pred_tgt)
        pred_tgt = pred_tgt.div(temperature)
        pred_tgt_aux = aux_classifier(feat_B_tgt_head)
        loss_st = args.lambda_st * seg_loss(pred_tgt_aux, pred_idx)
        D_out = model_D2(F.softmax(pred_tgt, 1))
        loss_adv_tgt = args.lambda_adv_tgt * bce_loss(D_out, torch.FloatTensor(D_out.data.size()).fill_(source_label))
        loss = loss_adv_tgt + loss_st
        loss = loss / args.iter_size
        loss_adv_tgt_value += loss_adv_tgt / args.iter_size
        loss_st_value += loss_st / args.iter_size
        loss.backward()

        # train D
        for param in model_D1.parameters():
            param.requires_grad = True
        optimizer_D1.zero_grad()
        src_D1_pred = model_D1(F.interpolate(feat_src.detach(), size=src_size, mode='bilinear', align_corners=True))
        loss_D1_src = 0.5 * bce_loss(src_D1_pred, torch.FloatTensor(src_D1_pred.data.size()).fill_(source_label)) / args.iter_size
        loss_D1_src.backward()
        tgt_D1_pred = model_D1(F.interpolate(feat_tgt.detach(), size=tgt_size, mode='bilinear', align_corners=True))
        loss_D1_tgt = 0.5 * bce_loss(tgt_D1_pred, torch.FloatTensor(tgt_D1_pred.data.size()).fill_(target_label)) / args.iter_size
        loss_D1_value += loss_D1_src + loss_D1_tgt
        loss_D1_tgt.backward()

        for param in model_D2.parameters():
            param.requires_grad = True
        optimizer_D2.zero_grad()
        src_D2_pred = model_D2(F.softmax(pred.detach(), 1))
        loss_D2_src = 0.5 * bce_loss(src_D2_pred, torch.FloatTensor(src_D2_pred.data.size()).fill_(source_label)) / args.iter_size
        loss_D2_src.backward()
        tgt_D2_pred = model_D2(F.softmax(pred_tgt.detach(), 1))
        loss_D2_tgt = 0.5 * bce_loss(tgt_D2_pred, torch.FloatTensor(tgt_D2_pred.data.size()).fill_(target_label)) / args.iter_size
        loss_D2_value += loss_D2_src + loss_D2_tgt
        loss_D2_tgt.backward()

    n = torch.tensor(1.0)
    loss_seg_value = loss_seg_value.item() / n.item()
    loss_adv_src_value = loss_adv_src_value.item() / n.item()
    loss_adv_tgt_value = loss_adv_tgt_value.item() / n.item()
    loss_D1_value = loss_D1_value.item() / n.item()
    loss_D2_value = loss_D2_value.item() / n.item()
    loss_st_value = loss_st_value.item() / n.item()

    optimizer.step()
    optimizer_D1.step()
    optimizer_D2.step()

    print('iter = {0:4d}/{1:4d}, loss_seg = {2:.3f} loss_adv_src = {3:.4f} loss_adv_tgt = {4:.4f} '
          'loss_D1 = {5:.3f} loss_D2 = {6:.3f} loss_st = {7:.3f}'.format(
              i_iter, args.num_steps, loss_seg_value, loss_adv_src_value, loss_adv_tgt_value,
              loss_D1_value, loss_D2_value, loss_st_value))
