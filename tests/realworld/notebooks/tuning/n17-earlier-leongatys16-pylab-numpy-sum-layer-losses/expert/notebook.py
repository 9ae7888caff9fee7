# %%
from numpy import *  # what '%pylab inline' does to the namespace (numpy part)
import time
import os

import torch
from torch.autograd import Variable
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
torch.manual_seed(0)
# %%
#vgg definition that conveniently let's you grab the outputs from any layer
class VGG(nn.Module):
    def __init__(self, pool='max'):
        super(VGG, self).__init__()
        #vgg modules (channels cut down)
        self.conv1_1 = nn.Conv2d(3, 4, kernel_size=3, padding=1)
        self.conv1_2 = nn.Conv2d(4, 4, kernel_size=3, padding=1)
        self.conv2_1 = nn.Conv2d(4, 8, kernel_size=3, padding=1)
        self.conv2_2 = nn.Conv2d(8, 8, kernel_size=3, padding=1)
        self.conv3_1 = nn.Conv2d(8, 16, kernel_size=3, padding=1)
        self.conv4_1 = nn.Conv2d(16, 16, kernel_size=3, padding=1)
        self.conv4_2 = nn.Conv2d(16, 16, kernel_size=3, padding=1)
        self.conv5_1 = nn.Conv2d(16, 16, kernel_size=3, padding=1)
        self.pool1 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.pool2 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.pool3 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.pool4 = nn.MaxPool2d(kernel_size=2, stride=2)

    def forward(self, x, out_keys):
        out = {}
        out['r11'] = F.relu(self.conv1_1(x))
        out['r12'] = F.relu(self.conv1_2(out['r11']))
        out['p1'] = self.pool1(out['r12'])
        out['r21'] = F.relu(self.conv2_1(out['p1']))
        out['r22'] = F.relu(self.conv2_2(out['r21']))
        out['p2'] = self.pool2(out['r22'])
        out['r31'] = F.relu(self.conv3_1(out['p2']))
        out['p3'] = self.pool3(out['r31'])
        out['r41'] = F.relu(self.conv4_1(out['p3']))
        out['r42'] = F.relu(self.conv4_2(out['r41']))
        out['p4'] = self.pool4(out['r42'])
        out['r51'] = F.relu(self.conv5_1(out['p4']))
        return [out[key] for key in out_keys]
# %%
# gram matrix and loss
class GramMatrix(nn.Module):
    def forward(self, input):
        b,c,h,w = input.size()
        F = input.view(b, c, h*w)
        G = torch.bmm(F, F.transpose(1,2))
        G.div_(h*w)
        return G

class GramMSELoss(nn.Module):
    def forward(self, input, target):
        out = nn.MSELoss()(GramMatrix()(input), target)
        return(out)
# %%
#get network
vgg = VGG()
for param in vgg.parameters():
    param.requires_grad = False
# %%
#load images, ordered as [style_image, content_image] (random images here)
imgs_torch = [torch.rand(3, 16, 16) * 255, torch.rand(3, 16, 16) * 255]
imgs_torch = [Variable(img.unsqueeze(0)) for img in imgs_torch]
style_image, content_image = imgs_torch

opt_img = Variable(content_image.data.clone(), requires_grad=True)
# %%
#define layers, loss functions, weights and compute optimization targets
style_layers = ['r11','r21','r31','r41', 'r51']
content_layers = ['r42']
loss_layers = style_layers + content_layers
loss_fns = [GramMSELoss()] * len(style_layers) + [nn.MSELoss()] * len(content_layers)

#these are good weights settings:
style_weights = [1e3/n**2 for n in [64,128,256,512,512]]
content_weights = [1e0]
weights = style_weights + content_weights

#compute optimization targets
style_targets = [GramMatrix()(A).detach() for A in vgg(style_image, style_layers)]
content_targets = [A.detach() for A in vgg(content_image, content_layers)]
targets = style_targets + content_targets
# %%
#run style transfer
max_iter = 6
show_iter = 2
optimizer = optim.LBFGS([opt_img]);
n_iter=[0]

while n_iter[0] <= max_iter:

    def closure():
        optimizer.zero_grad()
        out = vgg(opt_img, loss_layers)
        layer_losses = [weights[a] * loss_fns[a](A, targets[a]) for a,A in enumerate(out)]
        loss = torch.sum(torch.stack(layer_losses))
        loss.backward()
        n_iter[0]+=1
        #print loss
        if n_iter[0]%show_iter == (show_iter-1):
            print('Iteration: %d, loss: %f'%(n_iter[0]+1, loss.item()))
        return loss

    optimizer.step(closure)
