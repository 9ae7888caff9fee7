# cause: computed_before_loop
# line: 21
# why: prompt = tanh(prompt_raw) is computed once in fit() before the loops and reused by every batch's backward.
import torch
import torch.nn as nn
import torch.nn.functional as F



class PromptTuner:
    def __init__(self, encoder, n_prompt=4, dim=16, n_classes=3):
        self.encoder = encoder
        for p in encoder.parameters():
            p.requires_grad_(False)
        self.prompt_raw = nn.Parameter(torch.zeros(n_prompt, dim))
        self.classifier = nn.Linear(dim, n_classes)
        self.opt = torch.optim.Adam([self.prompt_raw, *self.classifier.parameters()], lr=1e-2)
        self.log = []

    def fit(self, tokens, labels, epochs=3, bs=8):
        prompt = torch.tanh(self.prompt_raw)  # bounded prompt vectors
        for epoch in range(epochs):
            for i in range(0, len(tokens), bs):
                x = tokens[i:i + bs]
                p = prompt.unsqueeze(0).expand(x.shape[0], -1, -1)
                h = self.encoder(torch.cat([p, x], dim=1)).mean(1)
                loss = F.cross_entropy(self.classifier(h), labels[i:i + bs])
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            self.log.append(loss.item())
        return self


torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 16))
tokens = torch.randn(32, 6, 16)
labels = torch.randint(0, 3, (32,))
tuner = PromptTuner(encoder).fit(tokens, labels)
print(tuner.log)
