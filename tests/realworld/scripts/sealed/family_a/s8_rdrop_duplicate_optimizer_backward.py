# source: https://github.com/dropreg/R-Drop/issues/8
# style: nlp
# cause: double_backward
# line: 122
# expert: The R-Drop criterion's `forward_reg` already calls `optimizer.backward(loss)`, and the task's `train_step` then calls `optimizer.backward(loss)` again on the same loss, backpropagating through the freed graph; the maintainers' fix (commit 4ff5174, "fix the bug #8") deletes the duplicated `ignore_grad`/backward lines from `train_step`.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index=None, reduce=True):
    nll_loss = -lprobs.gather(dim=-1, index=target)
    smooth_loss = -lprobs.sum(dim=-1, keepdim=True)
    if ignore_index is not None:
        pad_mask = target.eq(ignore_index)
        nll_loss = nll_loss.masked_fill(pad_mask, 0.0)
        smooth_loss = smooth_loss.masked_fill(pad_mask, 0.0)
    if reduce:
        nll_loss = nll_loss.sum()
        smooth_loss = smooth_loss.sum()
    eps_i = epsilon / lprobs.size(-1)
    loss = (1.0 - epsilon) * nll_loss + eps_i * smooth_loss
    return loss, nll_loss


class TinyTransformerModel(nn.Module):
    def __init__(self, vocab=12, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.enc = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(0.3)
        self.out = nn.Linear(dim, vocab)

    def set_num_updates(self, n):
        self.num_updates = n

    def forward(self, src_tokens, src_lengths, prev_output_tokens):
        ctx = torch.tanh(self.enc(self.embed(src_tokens))).mean(1, keepdim=True)
        h = self.dropout(torch.tanh(self.embed(prev_output_tokens) + ctx))
        return (self.out(h), None)

    def get_normalized_probs(self, net_output, log_probs):
        logits = net_output[0]
        return F.log_softmax(logits, -1) if log_probs else F.softmax(logits, -1)

    def get_targets(self, sample, net_output):
        return sample["target"]


class FairseqOptimizer:
    def __init__(self, params, lr=1e-3):
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def backward(self, loss):
        loss.backward()

    def step(self):
        self.optimizer.step()

    def zero_grad(self):
        self.optimizer.zero_grad()


class RegLabelSmoothedCrossEntropyCriterion:
    def __init__(self, eps=0.1, padding_idx=0):
        self.eps = eps
        self.padding_idx = padding_idx

    def compute_kl_loss(self, model, net_output, pad_mask=None, reduce=True):
        net_prob = model.get_normalized_probs(net_output, log_probs=True)
        net_prob_tec = model.get_normalized_probs(net_output, log_probs=False)
        p, q = torch.split(net_prob, net_prob.size(0) // 2, dim=0)
        p_tec, q_tec = torch.split(net_prob_tec, net_prob_tec.size(0) // 2, dim=0)
        p_loss = F.kl_div(p, q_tec, reduction="none")
        q_loss = F.kl_div(q, p_tec, reduction="none")
        if pad_mask is not None:
            p_loss.masked_fill_(pad_mask, 0.)
            q_loss.masked_fill_(pad_mask, 0.)
        if reduce:
            p_loss, q_loss = p_loss.sum(), q_loss.sum()
        return (p_loss + q_loss) / 2

    def forward_reg(self, model, sample, optimizer, reg_alpha, ignore_grad, reduce=True):
        sample_input = sample["net_input"]
        sample_concat_input = {
            "src_tokens": torch.cat([sample_input["src_tokens"], sample_input["src_tokens"].clone()], 0),
            "src_lengths": torch.cat([sample_input["src_lengths"], sample_input["src_lengths"].clone()], 0),
            "prev_output_tokens": torch.cat([sample_input["prev_output_tokens"], sample_input["prev_output_tokens"].clone()], 0),
        }
        net_output = model(**sample_concat_input)
        lprobs = model.get_normalized_probs(net_output, log_probs=True)
        lprobs = lprobs.view(-1, lprobs.size(-1))
        target = model.get_targets(sample, net_output)
        pad_mask = target.unsqueeze(-1).eq(self.padding_idx)
        target = torch.cat([target, target.clone()], dim=0)
        loss, nll_loss = label_smoothed_nll_loss(lprobs, target.view(-1, 1), self.eps, ignore_index=self.padding_idx, reduce=reduce)
        kl_loss = self.compute_kl_loss(model, net_output, pad_mask)
        loss += reg_alpha * kl_loss
        if ignore_grad:
            loss *= 0
        with torch.autograd.profiler.record_function("backward"):
            optimizer.backward(loss)
        sample_size = sample["ntokens"]
        logging_output = {"loss": loss.data, "nll_loss": nll_loss.data, "sample_size": sample_size}
        return loss, sample_size, logging_output


class RDropTranslationTask:
    def __init__(self, reg_alpha=0.7):
        self.criterion_reg_alpha = reg_alpha

    def train_step(self, sample, model, criterion, optimizer, update_num, ignore_grad=False):
        model.train()
        model.set_num_updates(update_num)
        with torch.autograd.profiler.record_function("forward"):
            loss, sample_size, logging_output = criterion.forward_reg(model, sample, optimizer, self.criterion_reg_alpha, ignore_grad)
        if ignore_grad:
            loss *= 0
        with torch.autograd.profiler.record_function("backward"):
            optimizer.backward(loss)
        return loss, sample_size, logging_output


def make_sample(bsz=4, src_len=5, tgt_len=6, vocab=12):
    src = torch.randint(1, vocab, (bsz, src_len))
    tgt = torch.randint(1, vocab, (bsz, tgt_len))
    prev = torch.cat([torch.full((bsz, 1), 2), tgt[:, :-1]], 1)
    return {"net_input": {"src_tokens": src, "src_lengths": torch.full((bsz,), src_len), "prev_output_tokens": prev},
            "target": tgt, "ntokens": int(tgt.numel())}


model = TinyTransformerModel()
criterion = RegLabelSmoothedCrossEntropyCriterion()
optimizer = FairseqOptimizer(model.parameters())
task = RDropTranslationTask()
for update_num in range(3):
    optimizer.zero_grad()
    loss, sample_size, logging_output = task.train_step(make_sample(), model, criterion, optimizer, update_num)
    optimizer.step()
    print("update", update_num, "loss", logging_output["loss"].item() / sample_size)
