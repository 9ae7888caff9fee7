# source: https://github.com/ray-project/ray/pull/40940
# style: nlp
# cause: graph_kept_alive
# line: 44
# expert: accumulate the logged loss as a number (loss_sum += loss.item(), or loss.detach()) so the graph of each step can be freed after backward
import time

import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, input_ids, labels):
        h, _ = self.rnn(self.emb(input_ids))
        logits = self.lm_head(h)
        loss = nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return type("Out", (), {"loss": loss, "logits": logits})


def training_function(kwargs: dict):
    config = kwargs["config"]
    num_epochs = config["num_epochs"]
    model = TinyCausalLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
    train_ds = [torch.randint(0, 64, (4, 16)) for _ in range(config["steps_per_epoch"])]
    for epoch in range(num_epochs):
        fwd_time_sum, bwd_time_sum, optim_step_time_sum = 0, 0, 0
        s_epoch = time.time()
        model.train()
        loss_sum = torch.tensor(0.0)
        for step, input_ids in enumerate(train_ds):
            batch = {"input_ids": input_ids, "labels": input_ids}
            s_fwd = time.time()
            outputs = model(**batch)
            loss = outputs.loss
            loss_sum += loss.item()
            e_fwd = time.time()
            fwd_time_sum += e_fwd - s_fwd
            s_bwd = time.time()
            loss.backward()
            e_bwd = time.time()
            bwd_time_sum += e_bwd - s_bwd
            s_opt_step = time.time()
            optimizer.step()
            optimizer.zero_grad()
            e_opt_step = time.time()
            optim_step_time_sum += e_opt_step - s_opt_step
            aggregated_loss = float(loss_sum) / (step + 1)
            if step % 4 == 0:
                print(f"[epoch {epoch} step {step}] loss: {loss.item():.4f} avg loss: {aggregated_loss:.4f}")
        print(f"epoch {epoch} took {time.time() - s_epoch:.2f}s")


training_function({"config": {"num_epochs": 2, "lr": 1e-3, "steps_per_epoch": 8}})
