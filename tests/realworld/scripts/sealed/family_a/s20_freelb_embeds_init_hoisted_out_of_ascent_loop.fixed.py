# source: variant of https://github.com/zhuchen03/FreeLB/issues/18 (the issue asks why FreeLB detaches delta and recomputes embeds_init; here the adversarial-training step of huggingface-transformers/examples/run_glue_freelb.py is kept as in the repository except that embeds_init is computed only once per batch, before the ascent loop, without the re-computation at the end of each ascent step; a tiny BERT-like classifier with model.encoder.embeddings.word_embeddings stands in for the FreeLB-patched transformers model, random token batches replace GLUE, no fp16/DataParallel)
# style: nlp
# cause: computed_before_loop
# line: 84
# expert: FreeLB runs adv_steps forward/backward passes per batch on inputs_embeds = delta + embeds_init. embeds_init is the output of the word-embedding lookup and carries its graph; the first loss.backward() frees that graph, so when the next ascent step builds delta + embeds_init from the same tensor, the next backward runs into the freed embedding node and raises "Trying to backward through the graph a second time". The repository's code avoids this by recomputing embeds_init = model.encoder.embeddings.word_embeddings(batch[0]) after each delta update (only delta is detached, so the embedding gradients of every step still accumulate).
import types

import torch
import torch.nn as nn

torch.manual_seed(0)


# ---- tiny stand-in for the FreeLB-patched BERT classifier: model.encoder.embeddings.word_embeddings,
# ---- forward(inputs_embeds=..., dp_masks=...) -> ((loss, logits), dp_masks) ----
class Embeddings(nn.Module):
    def __init__(self, vocab, dim, max_len=64):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, dim)
        self.position_embeddings = nn.Embedding(max_len, dim)
        self.token_type_embeddings = nn.Embedding(2, dim)
        self.LayerNorm = nn.LayerNorm(dim)

    def forward(self, inputs_embeds, token_type_ids):
        pos = torch.arange(inputs_embeds.size(1)).unsqueeze(0)
        return self.LayerNorm(inputs_embeds + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids))


class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embeddings = Embeddings(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=64, dropout=0.1, batch_first=True)


class BertForSequenceClassification(nn.Module):
    def __init__(self, vocab=100, dim=32, num_labels=2):
        super().__init__()
        self.encoder = Encoder(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, attention_mask, labels, token_type_ids, inputs_embeds, dp_masks=None):
        h = self.encoder.embeddings(inputs_embeds, token_type_ids)
        h = self.encoder.layer(h, src_key_padding_mask=attention_mask == 0)
        logits = self.classifier(h[:, 0])
        loss = nn.functional.cross_entropy(logits, labels)
        return (loss, logits), dp_masks


args = types.SimpleNamespace(model_type="bert", adv_init_mag=0.6, norm_type="l2", adv_steps=3, adv_lr=0.1,
                             adv_max_norm=0.0, n_gpu=1, gradient_accumulation_steps=1, fp16=False, max_grad_norm=1.0)
model = BertForSequenceClassification()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
train_dataloader = []
for _ in range(3):
    ids = torch.randint(1, 100, (4, 12))
    mask = torch.ones(4, 12, dtype=torch.long)
    mask[:, 9:] = 0
    train_dataloader.append((ids, mask, torch.zeros(4, 12, dtype=torch.long), torch.randint(0, 2, (4,))))

# ---- the training step of examples/run_glue_freelb.py ----
global_step, tr_loss, global_max_seq_len = 0, 0.0, -1
model.zero_grad()
for step, batch in enumerate(train_dataloader):
    model.train()

    # using adaptive sequence length
    max_seq_len = torch.max(torch.sum(batch[1], 1)).item()
    batch = [t[:, :max_seq_len] for t in batch[:3]] + [batch[3]]
    if max_seq_len > global_max_seq_len:
        global_max_seq_len = max_seq_len

    inputs = {"attention_mask": batch[1], "labels": batch[3]}
    if args.model_type != "distilbert":
        inputs["token_type_ids"] = (
            batch[2] if args.model_type in ["bert", "xlnet", "albert"] else None
        )  # XLM, DistilBERT, RoBERTa, and XLM-RoBERTa don't use segment_ids

    # ============================ Code for adversarial training=============
    # initialize delta
    if isinstance(model, torch.nn.DataParallel):
        embeds_init = model.module.encoder.embeddings.word_embeddings(batch[0])
    else:
        embeds_init = model.encoder.embeddings.word_embeddings(batch[0])
    if args.adv_init_mag > 0:

        input_mask = inputs['attention_mask'].to(embeds_init)
        input_lengths = torch.sum(input_mask, 1)
        # check the shape of the mask here..

        if args.norm_type == "l2":
            delta = torch.zeros_like(embeds_init).uniform_(-1, 1) * input_mask.unsqueeze(2)
            dims = input_lengths * embeds_init.size(-1)
            mag = args.adv_init_mag / torch.sqrt(dims)
            delta = (delta * mag.view(-1, 1, 1)).detach()
        elif args.norm_type == "linf":
            delta = torch.zeros_like(embeds_init).uniform_(-args.adv_init_mag,
                                                           args.adv_init_mag) * input_mask.unsqueeze(2)

    else:
        delta = torch.zeros_like(embeds_init)

    # the main loop
    dp_masks = None
    for astep in range(args.adv_steps):
        # (0) forward
        delta.requires_grad_()
        inputs['inputs_embeds'] = delta + embeds_init
        inputs['dp_masks'] = dp_masks

        outputs, dp_masks = model(**inputs)
        loss = outputs[0]  # model outputs are always tuple in transformers (see doc)
        # (1) backward
        if args.n_gpu > 1:
            loss = loss.mean()  # mean() to average on multi-gpu parallel training
        if args.gradient_accumulation_steps > 1:
            loss = loss / args.gradient_accumulation_steps

        loss = loss / args.adv_steps

        tr_loss += loss.item()

        loss.backward()

        if astep == args.adv_steps - 1:
            # further updates on delta
            break

        # (2) get gradient on delta
        delta_grad = delta.grad.clone().detach()

        # (3) update and clip
        if args.norm_type == "l2":
            denorm = torch.norm(delta_grad.view(delta_grad.size(0), -1), dim=1).view(-1, 1, 1)
            denorm = torch.clamp(denorm, min=1e-8)
            delta = (delta + args.adv_lr * delta_grad / denorm).detach()
            if args.adv_max_norm > 0:
                delta_norm = torch.norm(delta.view(delta.size(0), -1).float(), p=2, dim=1).detach()
                exceed_mask = (delta_norm > args.adv_max_norm).to(embeds_init)
                reweights = (args.adv_max_norm / delta_norm * exceed_mask \
                             + (1-exceed_mask)).view(-1, 1, 1)
                delta = (delta * reweights).detach()
        elif args.norm_type == "linf":
            denorm = torch.norm(delta_grad.view(delta_grad.size(0), -1), dim=1, p=float("inf")).view(-1, 1, 1)
            denorm = torch.clamp(denorm, min=1e-8)
            delta = (delta + args.adv_lr * delta_grad / denorm).detach()
            if args.adv_max_norm > 0:
                delta = torch.clamp(delta, -args.adv_max_norm, args.adv_max_norm).detach()
        else:
            print("Norm type {} not specified.".format(args.norm_type))
            exit()

        if isinstance(model, torch.nn.DataParallel):
            embeds_init = model.module.encoder.embeddings.word_embeddings(batch[0])
        else:
            embeds_init = model.encoder.embeddings.word_embeddings(batch[0])
    # ============================ End (2) ==================

    if (step + 1) % args.gradient_accumulation_steps == 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)

        optimizer.step()
        model.zero_grad()
        global_step += 1
    print(step, 'tr_loss %.4f' % tr_loss)
