# source: https://github.com/huggingface/transformers/pull/6999
# style: nlp
# cause: graph_kept_alive
# line: 40
# expert: return a detached loss from training_step (loss.detach()) so tr_loss, a running tensor, does not hold every step's graph for the whole training run
import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(50, 16)
        self.head = nn.Linear(16, 3)

    def forward(self, input_ids, labels):
        logits = self.head(self.emb(input_ids))
        return (nn.functional.cross_entropy(logits, labels), logits)


class Trainer:
    def __init__(self, model, train_dataset, learning_rate=1e-3, num_train_epochs=2, logging_steps=4):
        self.model = model
        self.train_dataset = train_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
        self.num_train_epochs = num_train_epochs
        self.logging_steps = logging_steps
        self.global_step = 0

    def compute_loss(self, model, inputs):
        outputs = model(**inputs)
        return outputs[0]

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def train(self):
        tr_loss = torch.tensor(0.0)
        logging_loss_scalar = 0.0
        self.model.zero_grad()
        for epoch in range(self.num_train_epochs):
            for step, inputs in enumerate(self.train_dataset):
                tr_loss += self.training_step(self.model, inputs)
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.model.zero_grad()
                self.global_step += 1
                if self.global_step % self.logging_steps == 0:
                    tr_loss_scalar = tr_loss.item()
                    print({"loss": (tr_loss_scalar - logging_loss_scalar) / self.logging_steps, "step": self.global_step})
                    logging_loss_scalar = tr_loss_scalar
        return tr_loss.item() / self.global_step


train_dataset = [{"input_ids": torch.randint(0, 50, (8, 12)), "labels": torch.randint(0, 3, (8,))} for _ in range(8)]
print(Trainer(TinyClassifier(), train_dataset).train())
