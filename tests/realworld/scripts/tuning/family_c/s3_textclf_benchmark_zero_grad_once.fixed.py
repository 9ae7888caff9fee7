# source: https://github.com/FreedomIntelligence/TextClassificationBenchmark/issues/20
# style: nlp
# cause: grads_not_zeroed
# line: 62
# expert: move optimizer.zero_grad() inside the batch loop (before loss.backward()) instead of calling it once before training
import torch
import torch.nn as nn
import torch.optim as optim
from torch.nn.modules.loss import NLLLoss

torch.manual_seed(0)


class Opt:
    batch_size = 8
    learning_rate = 0.002
    grad_clip = 1e-1
    embedding_dim = 16
    hidden_dim = 16
    vocab_size = 60
    label_size = 2


class LSTMClassifier(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.word_embeddings = nn.Embedding(opt.vocab_size, opt.embedding_dim)
        self.lstm = nn.LSTM(opt.embedding_dim, opt.hidden_dim)
        self.hidden2label = nn.Linear(opt.hidden_dim, opt.label_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)  # (seq, batch, dim)
        lstm_out, _ = self.lstm(embeds)
        y = self.hidden2label(lstm_out[-1])
        return torch.log_softmax(y, dim=-1)


def clip_gradient(optimizer, grad_clip):
    for group in optimizer.param_groups:
        for param in group['params']:
            if param.grad is not None:
                param.grad.data.clamp_(-grad_clip, grad_clip)


class Batch:
    def __init__(self, opt):
        self.text = (torch.randint(0, opt.vocab_size, (10, opt.batch_size)), None)
        self.label = torch.randint(0, opt.label_size, (opt.batch_size,))


opt = Opt()
train_iter = [Batch(opt) for _ in range(12)]
model = LSTMClassifier(opt)
model.train()
optimizer = optim.Adam(model.parameters(), lr=opt.learning_rate)
loss_fun = NLLLoss()

for index, batch in enumerate(train_iter):
    if len(batch.text[0][0]) == opt.batch_size:
        predicted = model(batch.text[0])
        loss = loss_fun(predicted, batch.label)
        optimizer.zero_grad()
        loss.backward()
        clip_gradient(optimizer, opt.grad_clip)
        optimizer.step()
        print("loss : %.5f" % loss.item())
