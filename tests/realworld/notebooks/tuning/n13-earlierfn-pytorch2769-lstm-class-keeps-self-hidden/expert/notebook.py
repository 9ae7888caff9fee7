# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
torch.manual_seed(0)
use_cuda = False

# stand-in for the per-video frame features: 6 clips, each 1 x 12 frames x 32 features, 10 classes
train_data = [(torch.randn(1, 12, 32), torch.randint(0, 10, (1,))) for _ in range(6)]
# %%
class LSTM(nn.Module):
    def __init__(self,
                 input_len=32,
                 hidden_len=16,
                 model_len=12,
                 target_size=10,
                 is_softmax=True):
        super(LSTM,self).__init__()
        self.hidden_len=hidden_len
        self.is_softmax=is_softmax
        self.lstm=nn.LSTM(input_len,hidden_len,batch_first=True)
        self.target_size=target_size
        self.hidden2class=nn.Linear(hidden_len,target_size)
        self.hidden=self.init_hidden()
    def init_hidden(self):
        return (Variable(torch.zeros(1, 1, self.hidden_len)),
            Variable(torch.zeros(1, 1, self.hidden_len)))
    def forward(self,x):
        lstm_out,self.hidden=self.lstm(
            x,self.hidden
        )
        cls_scores=self.hidden2class(lstm_out[:,-1,:]).view(-1,self.target_size)
        if self.is_softmax:
            cls_scores=F.log_softmax(cls_scores,dim=1)
        return cls_scores
# %%
def train(train_data,model,criterion,optimizer,epoch):
    model.train()
    for i,(input,target) in enumerate(train_data):

        if use_cuda:
            target=target.cuda(non_blocking=True)
        input_var=torch.autograd.Variable(input)
        target_var=torch.autograd.Variable(target)

        model.hidden=model.init_hidden()
        output=model(input_var)
        loss=criterion(output,target_var)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print('Epoch: [{0}] loss {1:.4f}'.format(epoch, loss.item()))
# %%
model=LSTM()
criterion=nn.NLLLoss()
optimizer=torch.optim.SGD(model.parameters(),lr=0.01,momentum=0.9)
# %%
for epoch in range(2):
    train(train_data,model,criterion,optimizer,epoch)
