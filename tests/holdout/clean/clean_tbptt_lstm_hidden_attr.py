import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, HID = 20, 24


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HID)
        self.lstm = nn.LSTM(HID, HID, batch_first=True)
        self.head = nn.Linear(HID, VOCAB)
        self.hidden = None

    def reset_state(self, bsz):
        self.hidden = (torch.zeros(1, bsz, HID), torch.zeros(1, bsz, HID))

    def detach_state(self):
        self.hidden = tuple(h.detach() for h in self.hidden)

    def forward(self, x):
        out, self.hidden = self.lstm(self.emb(x), self.hidden)
        return self.head(out)


model = CharLM()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
stream = torch.randint(0, VOCAB, (4, 41))
bptt = 10
for epoch in range(2):
    model.reset_state(4)
    for i in range(0, 40, bptt):
        model.detach_state()
        inp, tgt = stream[:, i:i + bptt], stream[:, i + 1:i + 1 + bptt]
        logits = model(inp)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
