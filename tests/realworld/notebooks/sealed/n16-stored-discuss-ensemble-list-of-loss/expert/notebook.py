# %%
import torch
import torch.nn as nn
torch.manual_seed(0)
device = torch.device('cpu')
input_size, hidden_size, num_classes = 28 * 28, 16, 10
num_epochs, learning_rate = 1, 1e-3
train_loader = [(torch.randn(8, 1, 28, 28), torch.randint(0, num_classes, (8,))) for _ in range(3)]


class TestNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super(TestNet, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out = self.fc1(x)
        out = self.relu(out)
        out = self.fc2(out)
        return out
# %%
num_model = 3

list_of_model = []
list_of_cri = []
list_of_opt = []

for _ in range(num_model):
    tem_model = TestNet(input_size, hidden_size, num_classes).to(device)
    tem_cri = nn.CrossEntropyLoss()
    list_of_model.append(tem_model)
    list_of_cri.append(tem_cri)

for i in range(num_model):
    list_of_opt.append(torch.optim.Adam(list_of_model[i].parameters(), lr=learning_rate))

list_of_loss = []
# %%
total_step = len(train_loader)
for epoch in range(num_epochs):
    for j, (images, labels) in enumerate(train_loader):
        for i in range(num_model):
            images = images.reshape(-1, 28*28).to(device)
            labels = labels.to(device)

            output = list_of_model[i](images)
            loss = list_of_cri[i](output, labels)
            list_of_loss.append(loss.item())

            list_of_opt[i].zero_grad()
            loss.backward()
            list_of_opt[i].step()

            if (j+1) % 1 == 0:
                print('Epoch [{}/{}], Step [{}/{}], Model {}, Loss: {:.4f}'
                      .format(epoch+1, num_epochs, j+1, total_step, i, loss.item()))
