# source: https://github.com/NVIDIA-AI-IOT/jetbot/pull/117
# style: vision
# cause: graph_kept_alive
# line: 28
# expert: accumulate the epoch losses as Python floats (train_loss += float(loss), test_loss += float(loss)) so each batch's graph is freed
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
optimizer = torch.optim.Adam(model.parameters())
train_loader = [(torch.rand(8, 3, 32, 32), torch.rand(8, 2)) for _ in range(10)]
test_loader = [(torch.rand(8, 3, 32, 32), torch.rand(8, 2)) for _ in range(3)]
NUM_EPOCHS = 2
BEST_MODEL_PATH = 'best_steering_model_xy.pth'
best_loss = 1e9

for epoch in range(NUM_EPOCHS):

    model.train()
    train_loss = 0.0
    for images, labels in iter(train_loader):
        optimizer.zero_grad()
        outputs = model(images)
        loss = F.mse_loss(outputs, labels)
        train_loss += float(loss)
        loss.backward()
        optimizer.step()
    train_loss /= len(train_loader)

    model.eval()
    test_loss = 0.0
    for images, labels in iter(test_loader):
        outputs = model(images)
        loss = F.mse_loss(outputs, labels)
        test_loss += float(loss)
    test_loss /= len(test_loader)

    print('%f, %f' % (train_loss, test_loss))
    if test_loss < best_loss:
        best_loss = test_loss  # torch.save(model.state_dict(), BEST_MODEL_PATH) left out: no files written
