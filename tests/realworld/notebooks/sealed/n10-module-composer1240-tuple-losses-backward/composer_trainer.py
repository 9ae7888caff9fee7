"""A condensed stand-in for composer's Trainer (composer/trainer/trainer.py, mid-2022):
ComposerModel.loss() may return a tensor or a tuple of tensors, and the non-DeepSpeed
branch of _train_microbatch scales each loss and calls backward() on each one."""
import torch


def ensure_tuple(x):
    if isinstance(x, (tuple, list)):
        return tuple(x)
    if isinstance(x, dict):
        return tuple(x.values())
    return (x,)


class ComposerModel(torch.nn.Module):
    def forward(self, batch):
        raise NotImplementedError

    def loss(self, outputs, batch):
        raise NotImplementedError


class State:
    def __init__(self, model, optimizers):
        self.model = model
        self.optimizers = optimizers
        self.outputs = None
        self.loss = None


class Trainer:
    def __init__(self, model, train_dataloader, max_duration, optimizers, grad_accum=1):
        self.state = State(model, optimizers)
        self.train_dataloader = train_dataloader
        self.max_duration = max_duration
        self.grad_accum = grad_accum
        self._backwards_create_graph = False

    def fit(self):
        self.state.model.train()
        for epoch in range(self.max_duration):
            for batch in self.train_dataloader:
                total_loss = self._train_batch(batch)
            print(f"epoch {epoch}: loss/train {total_loss.item():.4f}")

    def _train_batch(self, device_batch):
        for optimizer in ensure_tuple(self.state.optimizers):
            optimizer.zero_grad()
        current_batch_size = len(device_batch[0])
        microbatches = list(zip(*(t.chunk(self.grad_accum) for t in device_batch)))
        total_loss = torch.zeros(size=(1,))
        for microbatch in microbatches:
            self._train_microbatch(microbatch, current_batch_size, total_loss)
        for optimizer in ensure_tuple(self.state.optimizers):
            optimizer.step()
        return total_loss

    def _train_microbatch(self, microbatch, current_batch_size, total_loss):
        microbatch_num_samples = len(microbatch[0])
        # forward pass
        self.state.outputs = self.state.model(microbatch)
        # loss
        self.state.loss = self.state.model.loss(self.state.outputs, microbatch)

        # We always want to scale loss by the grad_accum before the backwards pass and
        # also for sake of metrics.
        for loss in ensure_tuple(self.state.loss):
            loss.mul_(microbatch_num_samples / current_batch_size)
            total_loss += loss.detach().clone()

        # backward
        for loss in ensure_tuple(self.state.loss):
            loss.backward(create_graph=self._backwards_create_graph)
