# source: https://github.com/neuropoly/domainadaptation/issues/1
# scenario: clean
# order: 0 1 2 3 2
# expert: clean: the teacher (model_ema) has its parameters detached at creation and runs under torch.no_grad(), so its predictions carry no graph; the update rule the issue questioned, ema_param.data.mul_(alpha).add_(1 - alpha, param.data), is the correct EMA (the maintainer kept it) and rewrites the teacher in place through .data after optimizer.step(), outside any graph; every step builds a fresh student graph, so re-running the training cell after the validation cell continues from the same student, teacher and global_step without error
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
import numpy as np
torch.manual_seed(0)


class Unet(nn.Module):  # tiny stand-in for the segmentation U-Net
    def __init__(self, drop_rate=0.4, bn_momentum=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8, momentum=bn_momentum), nn.ReLU(),
            nn.Dropout2d(drop_rate),
            nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


def dice_loss(input, target):
    smooth = 1.0
    iflat = input.view(-1)
    tflat = target.view(-1)
    intersection = (iflat * tflat).sum()
    return - ((2.0 * intersection + smooth) / (iflat.sum() + tflat.sum() + smooth))


def sigmoid_rampup(current, rampup_length):
    if rampup_length == 0:
        return 1.0
    current = np.clip(current, 0.0, rampup_length)
    phase = 1.0 - current / rampup_length
    return float(np.exp(-5.0 * phase * phase))


def get_current_consistency_weight(weight, epoch, rampup):
    return weight * sigmoid_rampup(epoch, rampup)


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(1 - alpha, param.data)


def create_model(ema=False):
    model = Unet(drop_rate=0.4, bn_momentum=0.1)
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def linked_batch_augmentation(input_batch, preds_unsup):
    # the same (here: horizontal flip) transform for the target image and the teacher prediction
    input_batch_cpu = input_batch.cpu().detach().flip(-1)
    preds_unsup_cpu = preds_unsup.cpu().detach().flip(-1)
    return {'input': [input_batch_cpu, preds_unsup_cpu]}
# %%
model = create_model()
model_ema = create_model(ema=True)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
consistency_loss_fn = F.mse_loss
cons_weight, consistency_rampup, ema_alpha = 3.0, 5, 0.99
global_step, epoch = 0, 0
source_train_loader = [{"input": torch.rand(2, 1, 16, 16), "gt": (torch.rand(2, 1, 16, 16) > 0.5).float()} for _ in range(3)]
target_adapt_train_loader = [{"input": torch.rand(2, 1, 16, 16)} for _ in range(2)]
# %%
# one training epoch (re-run this cell to train longer)
epoch += 1
consistency_weight = get_current_consistency_weight(cons_weight, epoch, consistency_rampup)
model.train()
model_ema.train()
composite_loss_total = 0.0
target_adapt_train_iter = iter(target_adapt_train_loader)

for i, train_batch in enumerate(source_train_loader):
    # Supervised component
    train_input, train_gt = train_batch["input"], train_batch["gt"]
    preds_supervised = model(train_input)
    class_loss = dice_loss(preds_supervised, train_gt)

    # Unsupervised component
    try:
        target_adapt_batch = next(target_adapt_train_iter)
    except StopIteration:
        target_adapt_train_iter = iter(target_adapt_train_loader)
        target_adapt_batch = next(target_adapt_train_iter)
    target_adapt_input = target_adapt_batch["input"]

    # Teacher forward
    with torch.no_grad():
        teacher_preds_unsup = model_ema(target_adapt_input)

    linked_aug_batch = linked_batch_augmentation(target_adapt_input, teacher_preds_unsup)
    adapt_input_batch = linked_aug_batch['input'][0]
    teacher_preds_unsup_aug = linked_aug_batch['input'][1]

    # Student forward
    student_preds_unsup = model(adapt_input_batch)
    consistency_loss = consistency_weight * consistency_loss_fn(student_preds_unsup, teacher_preds_unsup_aug)

    composite_loss = class_loss + consistency_loss
    optimizer.zero_grad()
    composite_loss.backward()
    optimizer.step()

    composite_loss_total += composite_loss.item()
    global_step += 1
    update_ema_variables(model, model_ema, ema_alpha, global_step)

print(epoch, global_step, composite_loss_total / (i + 1))
# %%
# validation of student and teacher
model.eval()
model_ema.eval()
with torch.no_grad():
    val_batch = source_train_loader[0]
    val_loss = dice_loss(model(val_batch["input"]), val_batch["gt"]).item()
    ema_val_loss = dice_loss(model_ema(val_batch["input"]), val_batch["gt"]).item()
print('val', val_loss, 'ema val', ema_val_loss)
