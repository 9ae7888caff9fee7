# cause: computed_before_loop
# line: 26
# why: self.prev_ft is computed by the feature extractor with grad tracking before the inner loop, and every inner-loop loss.backward() goes through it again.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.feature_extractor = nn.Sequential(nn.Linear(6, 6), nn.Tanh())
        self.model = nn.Linear(12, 2)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.criterion = nn.CrossEntropyLoss()

    def compute_loss(self, s, y):
        return self.criterion(s, y)

    def compute_accuracy(self, s, y):
        return (s.argmax(1) == y).float().mean().item()

    def train(self, loader):
        for j, (images, label) in enumerate(loader, 1):
            self.optimizer.zero_grad()
            self.prev_ft = self.feature_extractor(images[0])
            for i in range(1, len(images)):
                s = self.model(torch.cat([images[i], self.prev_ft], dim=1))
                acc = self.compute_accuracy(s.detach(), label[i])
                loss = self.compute_loss(s, label[i])
                loss.backward()
            self.optimizer.step()
            print(j, loss.item(), acc)


loader = [(torch.randn(4, 3, 6), torch.randint(0, 2, (4, 3))) for _ in range(2)]
trainer = Trainer()
trainer.train(loader)
