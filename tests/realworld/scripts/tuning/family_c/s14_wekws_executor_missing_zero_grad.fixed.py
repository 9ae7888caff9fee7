# source: https://github.com/wenet-e2e/wekws/issues/72 (fixed by PR #73: Executor.train of kws/utils/executor.py before the fix, max_pooling_loss/criterion of kws/model/loss.py and padding_mask of kws/utils/mask.py; a small GRU keyword-spotting model with sigmoid posteriors on random 20-dim fbank features instead of the speech-command dataset and its data pipeline, 2 epochs)
# style: timeseries
# cause: grads_not_zeroed
# line: 128
# expert: Executor.train calls loss.backward(), clips and optimizer.step() for every batch but never optimizer.zero_grad(), so the gradients of all previous batches keep accumulating into every update (and into the clipped norm). The maintainer confirmed "It's a bug" and PR #73 adds optimizer.zero_grad() right above loss.backward().
import logging

import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)


# ---- kws/utils/mask.py --------------------------------------------------------------
def padding_mask(lengths: torch.Tensor) -> torch.Tensor:
    batch_size = lengths.size(0)
    max_len = int(lengths.max().item())
    seq = torch.arange(max_len, dtype=torch.int64, device=lengths.device)
    seq = seq.expand(batch_size, max_len)
    return seq >= lengths.unsqueeze(1)


# ---- kws/model/loss.py --------------------------------------------------------------
def max_pooling_loss(logits: torch.Tensor,
                     target: torch.Tensor,
                     lengths: torch.Tensor,
                     min_duration: int = 0):
    mask = padding_mask(lengths)
    num_utts = logits.size(0)
    num_keywords = logits.size(2)

    target = target.cpu()
    loss = 0.0
    for i in range(num_utts):
        for j in range(num_keywords):
            # Add entropy loss CE = -(t * log(p) + (1 - t) * log(1 - p))
            if target[i] == j:
                # For the keyword, do max-polling
                prob = logits[i, :, j]
                m = mask[i].clone().detach()
                m[:min_duration] = True
                prob = prob.masked_fill(m, 0.0)
                prob = torch.clamp(prob, 1e-8, 1.0)
                max_prob = prob.max()
                loss += -torch.log(max_prob)
            else:
                # For other keywords or filler, do min-polling
                prob = 1 - logits[i, :, j]
                prob = prob.masked_fill(mask[i], 1.0)
                prob = torch.clamp(prob, 1e-8, 1.0)
                min_prob = prob.min()
                loss += -torch.log(min_prob)
    loss = loss / num_utts

    # Compute accuracy of current batch
    mask = mask.unsqueeze(-1)
    logits = logits.masked_fill(mask, 0.0)
    max_logits, index = logits.max(1)
    num_correct = 0
    for i in range(num_utts):
        max_p, idx = max_logits[i].max(0)
        # Predict correct as the i'th keyword
        if max_p > 0.5 and idx == target[i]:
            num_correct += 1
        # Predict correct as the filler, filler id < 0
        if max_p < 0.5 and target[i] < 0:
            num_correct += 1
    acc = num_correct / num_utts
    return loss, acc


def criterion(type: str,
              logits: torch.Tensor,
              target: torch.Tensor,
              lengths: torch.Tensor,
              min_duration: int = 0):
    if type == 'max_pooling':
        loss, acc = max_pooling_loss(logits, target, lengths, min_duration)
        return loss, acc
    else:
        exit(1)


# ---- kws/model (a small GRU stand-in for the KWSModel) ------------------------------
class KWSModel(nn.Module):
    def __init__(self, idim, hdim, num_keywords):
        super().__init__()
        self.preprocessing = nn.Linear(idim, hdim)
        self.backbone = nn.GRU(hdim, hdim, batch_first=True)
        self.classifier = nn.Linear(hdim, num_keywords)
        self.activation = nn.Sigmoid()

    def forward(self, x):
        x = self.preprocessing(x)
        x, _ = self.backbone(x)
        x = self.classifier(x)
        return self.activation(x)


# ---- kws/utils/executor.py ----------------------------------------------------------
class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optimizer, data_loader, device, writer, args):
        ''' Train one epoch
        '''
        model.train()
        clip = args.get('grad_clip', 50.0)
        log_interval = args.get('log_interval', 10)
        epoch = args.get('epoch', 0)
        min_duration = args.get('min_duration', 0)

        num_total_batch = 0
        total_loss = 0.0
        for batch_idx, batch in enumerate(data_loader):
            key, feats, target, feats_lengths = batch
            feats = feats.to(device)
            target = target.to(device)
            feats_lengths = feats_lengths.to(device)
            num_utts = feats_lengths.size(0)
            if num_utts == 0:
                continue
            logits = model(feats)
            loss_type = args.get('criterion', 'max_pooling')
            loss, acc = criterion(loss_type, logits, target, feats_lengths)
            optimizer.zero_grad()
            loss.backward()
            grad_norm = clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optimizer.step()
            if batch_idx % log_interval == 0:
                logging.debug(
                    'TRAIN Batch {}/{} loss {:.8f} acc {:.8f}'.format(
                        epoch, batch_idx, loss.item(), acc))
                print('TRAIN Batch {}/{} loss {:.4f} acc {:.4f} grad_norm {:.4f}'.format(
                    epoch, batch_idx, loss.item(), acc, grad_norm.item()))


def make_loader(num_batches=4, batch_size=4, max_len=30, idim=20, num_keywords=2):
    """stands in for the wekws dataset pipeline: (key, feats, target, feats_lengths)"""
    batches = []
    for b in range(num_batches):
        feats_lengths = torch.randint(max_len // 2, max_len + 1, (batch_size,))
        feats = torch.randn(batch_size, int(feats_lengths.max()), idim)
        target = torch.randint(-1, num_keywords, (batch_size,))
        keys = ['utt{}_{}'.format(b, i) for i in range(batch_size)]
        batches.append((keys, feats, target, feats_lengths))
    return batches


model = KWSModel(20, 32, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
train_data_loader = make_loader()
executor = Executor()
for epoch in range(2):
    configs = {'grad_clip': 5, 'log_interval': 2, 'epoch': epoch, 'criterion': 'max_pooling'}
    executor.train(model, optimizer, train_data_loader, torch.device('cpu'), None, configs)
