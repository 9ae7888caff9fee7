# source: https://github.com/pai4451/ML2021/issues/2
# style: nlp
# cause: graph_kept_alive
# line: 56
# expert: accumulate train_loss with output.loss.item() (or .detach()) so the whole BERT graph of every step is not kept alive until the logging step
from collections import namedtuple

import torch
import torch.nn as nn

torch.manual_seed(0)

QAOutput = namedtuple('QAOutput', ['loss', 'start_logits', 'end_logits'])


class TinyBertForQuestionAnswering(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.type_emb = nn.Embedding(2, hidden)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(hidden, 2, 64, batch_first=True), 1)
        self.qa_outputs = nn.Linear(hidden, 2)

    def forward(self, input_ids, token_type_ids, attention_mask, start_positions=None, end_positions=None):
        h = self.encoder(self.emb(input_ids) + self.type_emb(token_type_ids),
                         src_key_padding_mask=attention_mask == 0)
        start_logits, end_logits = self.qa_outputs(h).unbind(-1)
        loss = None
        if start_positions is not None:
            ce = nn.CrossEntropyLoss()
            loss = (ce(start_logits, start_positions) + ce(end_logits, end_positions)) / 2
        return QAOutput(loss, start_logits, end_logits)


model = TinyBertForQuestionAnswering()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
train_loader = []
for _ in range(8):
    data = [torch.randint(0, 100, (4, 24)), torch.randint(0, 2, (4, 24)), torch.ones(4, 24, dtype=torch.long),
            torch.randint(0, 24, (4,)), torch.randint(0, 24, (4,))]
    train_loader.append(data)

num_epoch = 1
logging_step = 4
model.train()
print("Start Training ...")
for epoch in range(num_epoch):
    step = 1
    train_loss = train_acc = 0
    for data in train_loader:
        output = model(input_ids=data[0], token_type_ids=data[1], attention_mask=data[2],
                       start_positions=data[3], end_positions=data[4])
        start_index = torch.argmax(output.start_logits, dim=1)
        end_index = torch.argmax(output.end_logits, dim=1)
        train_acc += ((start_index == data[3]) & (end_index == data[4])).float().mean()
        train_loss += output.loss
        output.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        step += 1
        if step % logging_step == 0:
            print(f"Epoch {epoch + 1} | Step {step} | loss = {train_loss.item() / logging_step:.3f}, "
                  f"acc = {train_acc / logging_step:.3f}")
            train_loss = train_acc = 0
