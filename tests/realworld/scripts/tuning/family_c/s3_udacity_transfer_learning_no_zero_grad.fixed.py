# source: https://github.com/udacity/deep-learning-v2-pytorch/pull/160
# style: tutorial
# cause: grads_not_zeroed
# line: 51
# expert: add optimizer.zero_grad() in the training loop before loss.backward() so each step only uses the current batch's gradient
import torch
from torch import nn, optim

torch.manual_seed(0)

device = torch.device("cpu")


class TinyDenseNet(nn.Module):
    """Stand-in for the pretrained densenet121 feature extractor."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(128, 1000)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


model = TinyDenseNet()
# Freeze parameters so we don't backprop through them
for param in model.parameters():
    param.requires_grad = False

model.classifier = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Dropout(0.2),
                                 nn.Linear(64, 2), nn.LogSoftmax(dim=1))
criterion = nn.NLLLoss()
# Only train the classifier parameters, feature parameters are frozen
optimizer = optim.Adam(model.classifier.parameters(), lr=0.003)
model.to(device)

trainloader = [(torch.randn(8, 3, 16, 16), torch.randint(0, 2, (8,))) for _ in range(10)]
testloader = [(torch.randn(8, 3, 16, 16), torch.randint(0, 2, (8,))) for _ in range(2)]

epochs = 1
steps = 0
running_loss = 0
print_every = 5
for epoch in range(epochs):
    for inputs, labels in trainloader:
        steps += 1
        # Move input and label tensors to the default device
        inputs, labels = inputs.to(device), labels.to(device)
        logps = model.forward(inputs)
        optimizer.zero_grad()
        loss = criterion(logps, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if steps % print_every == 0:
            test_loss = 0
            accuracy = 0
            model.eval()
            with torch.no_grad():
                for inputs, labels in testloader:
                    inputs, labels = inputs.to(device), labels.to(device)
                    logps = model.forward(inputs)
                    batch_loss = criterion(logps, labels)
                    test_loss += batch_loss.item()
                    ps = torch.exp(logps)
                    top_p, top_class = ps.topk(1, dim=1)
                    equals = top_class == labels.view(*top_class.shape)
                    accuracy += torch.mean(equals.type(torch.FloatTensor)).item()
            print(f"Epoch {epoch+1}/{epochs}.. "
                  f"Train loss: {running_loss/print_every:.3f}.. "
                  f"Test loss: {test_loss/len(testloader):.3f}.. "
                  f"Test accuracy: {accuracy/len(testloader):.3f}")
            running_loss = 0
            model.train()
