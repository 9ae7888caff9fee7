# source: https://github.com/heartcored98/Standalone-DeepLearning/issues/11
# style: tutorial
# cause: grads_not_zeroed
# line: 36
# expert: call optimizer.zero_grad() inside the mini-batch loop, before every loss.backward(), not once per epoch
import argparse

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self, in_channel, out_dim, act):
        super(CNN, self).__init__()
        self.conv1 = nn.Conv2d(in_channel, 8, 3, 1, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1, 1)
        self.pool = nn.MaxPool2d(2, 2)
        self.act = nn.ReLU() if act == 'relu' else nn.Tanh()
        self.fc = nn.Linear(16 * 4 * 4, out_dim)

    def forward(self, x):
        x = self.pool(self.act(self.conv1(x)))
        x = self.pool(self.act(self.conv2(x)))
        return self.fc(x.view(x.size(0), -1))


def train(net, partition, optimizer, criterion, args):
    trainloader = partition['train']
    net.train()
    correct = 0
    total = 0
    train_loss = 0.0
    optimizer.zero_grad()
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
    train_loss = train_loss / len(trainloader)
    train_acc = 100 * correct / total
    return net, train_loss, train_acc


def experiment(partition, args):
    net = CNN(args.in_channel, args.out_dim, args.act)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, weight_decay=args.l2)
    for epoch in range(args.epoch):
        net, train_loss, train_acc = train(net, partition, optimizer, criterion, args)
        print('Epoch {}, Acc(train) {:2.2f}, Loss(train) {:2.4f}'.format(epoch, train_acc, train_loss))


args = argparse.Namespace(in_channel=3, out_dim=10, act='relu', lr=0.01, l2=1e-5, epoch=2)
partition = {'train': [(torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))) for _ in range(8)]}
experiment(partition, args)
