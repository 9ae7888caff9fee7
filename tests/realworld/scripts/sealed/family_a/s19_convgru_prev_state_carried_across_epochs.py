# source: variant of https://github.com/bionick87/ConvGRUCell-pytorch/issues/2 (ConvGRUCell of Conv-GRU.py v1.1, where the test loop feeds the previous hidden state back in as the issue proposed, h_next = model(input_gru[time], h_next) with h_next = None set once before the epoch loop; here that loop is turned into training with an optimizer step per epoch; 16x16 frames instead of 256x256)
# style: timeseries
# cause: recurrent_state_not_detached
# line: 58
# expert: Within an epoch the hand-written ConvGRU must carry h_next from frame to frame, but h_next is initialised only once, before the epoch loop, so the second epoch starts from the last hidden state of the first one, which is still attached to the first epoch's graph; err.backward() in epoch 2 runs back into that graph, already freed by epoch 1's backward, and raises "Trying to backward through the graph a second time". Start every pass over the sequence from a fresh state (h_next = None at the top of each epoch) or, for truncated BPTT across passes, carry h_next.detach().
import torch
from torch import nn
import torch.nn.functional as f
from torch.autograd import Variable

torch.manual_seed(0)


class ConvGRUCell(nn.Module):

    def __init__(self,input_size,hidden_size,kernel_size,cuda_flag):
        super(ConvGRUCell,self).__init__()
        self.input_size  = input_size
        self.cuda_flag   = cuda_flag
        self.hidden_size = hidden_size
        self.kernel_size = kernel_size
        self.ConvGates   = nn.Conv2d(self.input_size + self.hidden_size,2 * self.hidden_size,3,padding=self.kernel_size//2)
        self.Conv_ct     = nn.Conv2d(self.input_size + self.hidden_size,self.hidden_size,3,padding=self.kernel_size//2)
        dtype            = torch.FloatTensor

    def forward(self,input,hidden):
        if hidden is None:
           size_h    = [input.data.size()[0],self.hidden_size] + list(input.data.size()[2:])
           if self.cuda_flag  == True:
              hidden    = Variable(torch.zeros(size_h)).cuda()
           else:
              hidden    = Variable(torch.zeros(size_h))
        c1           = self.ConvGates(torch.cat((input,hidden),1))
        (rt,ut)      = c1.chunk(2, 1)
        reset_gate   = f.sigmoid(rt)
        update_gate  = f.sigmoid(ut)
        gated_hidden = torch.mul(reset_gate,hidden)
        p1           = self.Conv_ct(torch.cat((input,gated_hidden),1))
        ct           = f.tanh(p1)
        next_h       = torch.mul(update_gate,hidden) + (1-update_gate)*ct
        return next_h


def train(num_seqs,channels_img,\
          size_image,max_epoch,model,cuda_test):
    input_image   = torch.rand(num_seqs,1,channels_img,size_image,size_image)
    target_image  = torch.rand(num_seqs,1,channels_img,size_image,size_image)
    print('\n\n ==> Create Autograd Variables:')
    input_gru     = Variable(input_image)
    target_gru    = Variable(target_image)
    print('\n\n ==> Create a MSE criterion:')
    MSE_criterion = nn.MSELoss()
    optimizer     = torch.optim.Adam(model.parameters(), lr=1e-3)
    h_next        = None
    for e in range(max_epoch):
        err = 0
        for time in range(num_seqs):
            h_next = model(input_gru[time], h_next)
            err   += MSE_criterion(h_next [0], target_gru[time])
        optimizer.zero_grad()
        err.backward()
        optimizer.step()
        print("\n ... Epoch %d Error: %s" % (e, str(err.cpu().detach().numpy())))


def main():
    num_seqs     = 5
    hidden_size  = 3
    channels_img = 3
    size_image   = 16
    max_epoch    = 3
    cuda_flag    = False
    kernel_size  = 3
    print('Init Conv GRUs model:')
    model = ConvGRUCell(channels_img,hidden_size,kernel_size,cuda_flag)
    print(repr(model))
    train(num_seqs,channels_img,size_image,\
          max_epoch,model,cuda_flag)

if __name__ == '__main__':
    main()
