# source: https://github.com/samuelyu2002/ImVisible/issues/2
# style: vision
# cause: graph_kept_alive
# line: 60
# expert: add the per-batch statistics as Python numbers (running_loss += loss.item(), and likewise for MSE and cross_entropy, also in validation) so the graphs of every batch are not stored for the whole epoch
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class LytNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU6(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU6(),
            nn.AdaptiveAvgPool2d(1))
        self.fc1 = nn.Linear(16, 5)   # light classes
        self.fc2 = nn.Linear(16, 4)   # zebra crossing end points (x1, y1, x2, y2)

    def forward(self, x):
        x = self.features(x).flatten(1)
        return self.fc1(x), self.fc2(x)


def my_loss(pred_classes, pred_direc, points, mode):
    cross_entropy = nn.functional.cross_entropy(pred_classes, mode)
    MSE = nn.functional.mse_loss(pred_direc, points)
    loss = MSE * 0.5 + cross_entropy
    return loss, MSE, cross_entropy


traindataloader = [{'image': torch.randn(8, 3, 32, 32), 'mode': torch.randint(0, 5, (8,)),
                    'points': torch.rand(8, 4)} for _ in range(6)]
valdataloader = [{'image': torch.randn(8, 3, 32, 32), 'mode': torch.randint(0, 5, (8,)),
                  'points': torch.rand(8, 4)} for _ in range(2)]

net = LytNet()
optimizer = optim.Adam(net.parameters(), lr=0.001, weight_decay=0.00005)
num_epochs = 3
for epoch in range(num_epochs):
    net.train()
    running_loss = 0.0
    running_loss_MSE = 0.0
    running_loss_cross_entropy = 0.0
    num_correct = 0
    total = 0
    for j, data in enumerate(traindataloader, 0):
        images, mode, points = data['image'], data['mode'], data['points']
        optimizer.zero_grad()
        pred_classes, pred_direc = net(images)
        _, predicted = torch.max(pred_classes, 1)
        num_correct += (predicted == mode).sum().item()
        total += mode.size(0)
        loss, MSE, cross_entropy = my_loss(pred_classes, pred_direc, points, mode)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        running_loss_MSE += MSE.item()
        running_loss_cross_entropy += cross_entropy.item()
    print('epoch %d train loss %.4f mse %.4f ce %.4f acc %.3f' % (
        epoch, running_loss / len(traindataloader), running_loss_MSE / len(traindataloader),
        running_loss_cross_entropy / len(traindataloader), num_correct / total))
