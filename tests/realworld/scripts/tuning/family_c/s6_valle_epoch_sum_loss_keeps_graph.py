# source: https://github.com/open-mmlab/Amphion/issues/263
# style: nlp
# cause: graph_kept_alive
# line: 137
# expert: _train_epoch sums the loss tensor itself (epoch_sum_loss += loss), so every step's autograd graph stays referenced for the whole epoch and CPU memory grows after each epoch; the maintainer's fix accumulates the Python number instead (epoch_sum_loss += loss.item())
import contextlib
import math
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Accelerator:
    """Minimal single-process stand-in for accelerate.Accelerator."""
    is_main_process = True
    sync_gradients = True

    def accumulate(self, model):
        return contextlib.nullcontext()

    def backward(self, loss):
        loss.backward()

    def clip_grad_norm_(self, parameters, max_norm):
        return torch.nn.utils.clip_grad_norm_(parameters, max_norm)

    def log(self, values, step=None):
        pass

    def wait_for_everyone(self):
        pass


class ValleAR(nn.Module):
    """Tiny decoder-only LM over (phone + codec) tokens, next-token cross entropy."""

    def __init__(self, vocab_size=32, d_model=16, nhead=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=32, batch_first=True)
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, input_ids):
        T = input_ids.shape[1]
        mask = torch.triu(torch.full((T, T), float('-inf')), diagonal=1)
        h = self.layer(self.emb(input_ids), src_mask=mask)
        logits = self.lm_head(h)
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), input_ids[:, 1:].reshape(-1))


class BaseTrainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.accelerator = Accelerator()
        self.model = ValleAR()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.train.adamw.lr)
        self.train_dataloader = [torch.randint(0, 32, (4, 12)) for _ in range(8)]
        self.valid_dataloader = [torch.randint(0, 32, (4, 12)) for _ in range(2)]
        self.epoch, self.step, self.batch_count = 0, 0, 0

    def train_loop(self):
        while self.epoch < self.cfg.train.max_epoch:
            # Do training & validating epoch
            train_loss = self._train_epoch()
            print("  |- Train/Loss: {:.6f}".format(train_loss))
            valid_loss = self._valid_epoch()
            print("  |- Valid/Loss: {:.6f}".format(valid_loss))
            self.accelerator.log(
                {"Epoch/Train Loss": train_loss, "Epoch/Valid Loss": valid_loss},
                step=self.epoch,
            )
            self.accelerator.wait_for_everyone()
            # Update info for each epoch
            self.epoch += 1

    def get_lr(self, it):
        # 1) linear warmup for warmup_iters steps
        if it < self.cfg.train.scheduler.warmup_steps:
            return self.cfg.train.adamw.lr * it / self.cfg.train.scheduler.warmup_steps
        # 2) if it > lr_decay_iters, return min learning rate
        if it > self.cfg.train.scheduler.total_steps:
            return self.cfg.train.scheduler.min_lr
        # 3) in between, use cosine decay down to min learning rate
        decay_ratio = (it - self.cfg.train.scheduler.warmup_steps) / (
            self.cfg.train.scheduler.total_steps - self.cfg.train.scheduler.warmup_steps
        )
        assert 0 <= decay_ratio <= 1
        coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))  # coeff ranges 0..1
        return self.cfg.train.scheduler.min_lr + coeff * (
            self.cfg.train.adamw.lr - self.cfg.train.scheduler.min_lr
        )

    def _train_epoch(self):
        self.model.train()
        epoch_sum_loss: float = 0.0
        ema_loss = None

        for batch in self.train_dataloader:
            assert batch is not None

            # update learning rate
            lr = self.get_lr(self.step)
            for param_group in self.optimizer.param_groups:
                param_group["lr"] = lr

            # Do training step and BP
            with self.accelerator.accumulate(self.model):
                loss = self._train_step(batch)
                self.current_loss = loss.item()
                ema_loss = (
                    0.99 * ema_loss + 0.01 * self.current_loss
                    if ema_loss is not None
                    else self.current_loss
                )
                self.accelerator.backward(loss)
                if self.accelerator.sync_gradients:
                    self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.optimizer.zero_grad()
            self.batch_count += 1

            if self.accelerator.sync_gradients:
                if self.accelerator.is_main_process:
                    if self.step % 100 == 0:
                        print(f"EMA Loss: {ema_loss:.6f}")
                self.accelerator.log(
                    {
                        "Step/Train Loss": loss,
                        "Step/Learning Rate": self.optimizer.param_groups[0]["lr"],
                    },
                    step=self.step,
                )
                epoch_sum_loss += loss
                self.step += 1

        return (
            epoch_sum_loss
            / len(self.train_dataloader)
            * self.cfg.train.gradient_accumulation_step
        )

    @torch.inference_mode()
    def _valid_epoch(self):
        self.model.eval()
        epoch_sum_loss = 0.0
        for batch in self.valid_dataloader:
            batch_loss = self._valid_step(batch)
            epoch_sum_loss += batch_loss.item()
        return epoch_sum_loss / len(self.valid_dataloader)

    def _train_step(self, batch):
        return self._forward_step(batch)

    @torch.inference_mode()
    def _valid_step(self, batch):
        return self._forward_step(batch)

    def _forward_step(self, batch):
        return self.model(batch)


cfg = SimpleNamespace(train=SimpleNamespace(
    max_epoch=2, gradient_accumulation_step=1,
    adamw=SimpleNamespace(lr=1e-3),
    scheduler=SimpleNamespace(warmup_steps=4, total_steps=16, min_lr=1e-5)))
trainer = BaseTrainer(cfg)
trainer.train_loop()
