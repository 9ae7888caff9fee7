# source: https://github.com/acrarshin/RPNet/pull/6
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file network.py line 58
# expert: in network.py the stage e2 starts with nn.LeakyReLU(0.2, inplace=True), which overwrites en1, the output of IncResBlock's ReLU that ReLU's backward still needs (en1 is also reused in the skip connection); the merged PR drops inplace=True from every LeakyReLU in IncUNet
# %%
### Importing basic libraries
import numpy as np
import torch
import random

### Importing torch related libraries
from torch.utils.data import DataLoader
from torch.utils.data import TensorDataset
import torch.nn as nn
import torch.optim as optim

### Importing Custom Libraries
from network import IncUNet
torch.manual_seed(0)  # the data below is random (the report read CPSC records)
# %%
BATCH_SIZE = 4
C, H, W = 1, 1, 256
learn_rate = 0.05
num_epochs = 2
# %%
# ECG windows and their distance-transform targets (random stand-ins for the CPSC records)
patient_ecg_train = torch.randn(8, 1, W)
dist_transform_train = torch.rand(8, 1, W)
patient_ecg_test = torch.randn(4, 1, W)
dist_transform_test = torch.rand(4, 1, W)

patient_ecg_train_td = TensorDataset(patient_ecg_train, dist_transform_train)
trainloader = DataLoader(patient_ecg_train_td, batch_size=BATCH_SIZE, shuffle=True)

patient_ecg_test_td = TensorDataset(patient_ecg_test, dist_transform_test)
testloader = DataLoader(patient_ecg_test_td, batch_size=BATCH_SIZE)
# %%
manualSeed = 4
random.seed(manualSeed)
torch.manual_seed(manualSeed)
# %%
model = IncUNet(in_shape=(C, H, W))

optimizer = optim.Adam(model.parameters(), lr=learn_rate)
scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[90, 190, 450], gamma=0.1)

criterion = nn.SmoothL1Loss()
# %%
epoch_loss = []
min_test_loss = 1000 ### Set a very high number

for epoch in range(num_epochs):
    print('-' * 40)
    model.train()
    print('Epoch {}/{}'.format(epoch + 1, num_epochs))
    net_loss = 0

    for step, (x, y) in enumerate(trainloader):
        y_predict = model(x)

        ### Loss computation and Optimization ###
        loss = criterion(y, y_predict)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        net_loss += loss

    net_loss = net_loss / (step + 1)
    print("Net loss is:", net_loss)
    epoch_loss.append(net_loss.data)
    scheduler.step()

    ### Evaluation ###
    model.eval()
    with torch.no_grad():
        net_test_loss = 0
        for step, (x, y) in enumerate(testloader):
            y_predict_test = model(x)
            test_loss = criterion(y_predict_test, y)
            net_test_loss += test_loss
        net_test_loss /= step + 1
    if net_test_loss < min_test_loss:
        min_test_loss = net_test_loss
