# source: https://github.com/cyclomon/3dbraingen/issues/13 (Alpha_WGAN_ADNI_train.ipynb of the repository, whose training cell raises the in-place error at loss3.backward(retain_graph=True) on PyTorch > 1.9 as the issue reports; Model_alphaWGAN.py is the repository's, kept next to the notebook. Ported to run on CPU: .cuda(async=True) calls replaced by .to(device), loss.data[0] by loss.item(), the nilearn/nibabel plotting and checkpoint saving dropped; a random 64^3 volume dataset stands in for ADNIdataset, small channel widths and latent_dim 32, workers=0, TOTAL_ITER 2)
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 8 line 41
# expert: The code-discriminator loss reuses c_loss = -CD(z_hat).mean() from the encoder-generator step, whose graph runs back through the encoder E; e_optimizer.step() has since updated E's weights in place, so loss3.backward() finds the saved weights modified (the repository was written for PyTorch 0.4, as the maintainer says in issue #16). As users report in issue #5 ("I have to input a new image in each neural network"), recompute the code term in the code-discriminator step from the current encoding, c_loss = -CD(z_hat).mean(), instead of reusing the tensor from the earlier step.
# %%
import numpy as np
import torch
import os
from torch import nn
from torch import optim
from torch.nn import functional as F
from torch import autograd
from torch.autograd import Variable
from torch.utils.data.dataset import Dataset
from torch.utils.data import dataloader
from Model_alphaWGAN import *

torch.manual_seed(0)
device = 'cpu'
# %%
BATCH_SIZE=4
gpu = False
workers = 0

LAMBDA= 10
_eps = 1e-15
Use_BRATS=False
Use_ATLAS = False

#setting latent variable sizes
latent_dim = 32
# %%
# stand-in for ADNI_dataset.ADNIdataset: random 64x64x64 brain-like volumes in [-1, 1]
class ADNIdataset(Dataset):
    def __init__(self, root='../ADNI', augmentation=False):
        self.augmentation = augmentation
        self.volumes = torch.rand(16, 1, 64, 64, 64) * 2 - 1
    def __len__(self):
        return len(self.volumes)
    def __getitem__(self, index):
        return self.volumes[index]

trainset = ADNIdataset(augmentation=True)
train_loader = torch.utils.data.DataLoader(trainset,batch_size=BATCH_SIZE,
                                          shuffle=True,num_workers=workers)
# %%
def inf_train_gen(data_loader):
    while True:
        for _,images in enumerate(data_loader):
            yield images
# %%
G = Generator(noise = latent_dim, channel = 4)
CD = Code_Discriminator(code_size = latent_dim ,num_units = 64)
D = Discriminator(channel = 32, is_dis=True)
E = Discriminator(channel = 32, out_class = latent_dim,is_dis=False)

G.to(device)
D.to(device)
CD.to(device)
E.to(device)
# %%
g_optimizer = optim.Adam(G.parameters(), lr=0.0002)
d_optimizer = optim.Adam(D.parameters(), lr=0.0002)
e_optimizer = optim.Adam(E.parameters(), lr = 0.0002)
cd_optimizer = optim.Adam(CD.parameters(), lr = 0.0002)
# %%
def calc_gradient_penalty(model, x, x_gen, w=10):
    """WGAN-GP gradient penalty"""
    assert x.size()==x_gen.size(), "real and sampled sizes do not match"
    alpha_size = tuple((len(x), *(1,)*(x.dim()-1)))
    alpha_t = torch.cuda.FloatTensor if x.is_cuda else torch.Tensor
    alpha = alpha_t(*alpha_size).uniform_()
    x_hat = x.data*alpha + x_gen.data*(1-alpha)
    x_hat = Variable(x_hat, requires_grad=True)

    def eps_norm(x):
        x = x.view(len(x), -1)
        return (x*x+_eps).sum(-1).sqrt()
    def bi_penalty(x):
        return (x-1)**2

    grad_xhat = torch.autograd.grad(model(x_hat).sum(), x_hat, create_graph=True, only_inputs=True)[0]

    penalty = w*bi_penalty(eps_norm(grad_xhat)).mean()
    return penalty
# %%
real_y = Variable(torch.ones((BATCH_SIZE, 1)).to(device))
fake_y = Variable(torch.zeros((BATCH_SIZE, 1)).to(device))

criterion_bce = nn.BCELoss()
criterion_l1 = nn.L1Loss()
criterion_mse = nn.MSELoss()
# %%
g_iter = 1
d_iter = 1
cd_iter =1
TOTAL_ITER = 2
gen_load = inf_train_gen(train_loader)
for iteration in range(TOTAL_ITER):
    for p in D.parameters():  
        p.requires_grad = False
    for p in CD.parameters():  
        p.requires_grad = False
    for p in E.parameters():  
        p.requires_grad = True
    for p in G.parameters():  
        p.requires_grad = True

    ###############################################
    # Train Encoder - Generator 
    ###############################################
    for iters in range(g_iter):
        G.zero_grad()
        E.zero_grad()
        real_images = gen_load.__next__()
        _batch_size = real_images.size(0)
        real_images = Variable(real_images).to(device)
        z_rand = Variable(torch.randn((_batch_size,latent_dim))).to(device)
        z_hat = E(real_images).view(_batch_size,-1)
        x_hat = G(z_hat)
        x_rand = G(z_rand)
        c_loss = -CD(z_hat).mean()

        d_real_loss = D(x_hat).mean()
        d_fake_loss = D(x_rand).mean()
        d_loss = -d_fake_loss-d_real_loss
        l1_loss =10* criterion_l1(x_hat,real_images)
        loss1 = l1_loss + c_loss + d_loss

        if iters<g_iter-1:
            loss1.backward()
        else:
            loss1.backward(retain_graph=True)
        e_optimizer.step()
        g_optimizer.step()
        g_optimizer.step()


    ###############################################
    # Train D
    ###############################################
    for p in D.parameters():  
        p.requires_grad = True
    for p in CD.parameters():  
        p.requires_grad = False
    for p in E.parameters():  
        p.requires_grad = False
    for p in G.parameters():  
        p.requires_grad = False

    for iters in range(d_iter):
        d_optimizer.zero_grad()
        real_images = gen_load.__next__()
        _batch_size = real_images.size(0)
        z_rand = Variable(torch.randn((_batch_size,latent_dim))).to(device)
        real_images = Variable(real_images).to(device)
        z_hat = E(real_images).view(_batch_size,-1)
        x_hat = G(z_hat)
        x_rand = G(z_rand)
        x_loss2 = -2*D(real_images).mean()+D(x_hat).mean()+D(x_rand).mean()
        gradient_penalty_r = calc_gradient_penalty(D,real_images.data, x_rand.data)
        gradient_penalty_h = calc_gradient_penalty(D,real_images.data, x_hat.data)

        loss2 = x_loss2+gradient_penalty_r+gradient_penalty_h
        loss2.backward(retain_graph=True)
        d_optimizer.step()

    ###############################################
    # Train CD
    ###############################################
    for p in D.parameters():  
        p.requires_grad = False
    for p in CD.parameters():  
        p.requires_grad = True
    for p in E.parameters():  
        p.requires_grad = False
    for p in G.parameters():  
        p.requires_grad = False

    for iters in range(cd_iter):
        cd_optimizer.zero_grad()
        z_rand = Variable(torch.randn((_batch_size,latent_dim))).to(device)
        gradient_penalty_cd = calc_gradient_penalty(CD,z_hat.data, z_rand.data)
        c_loss = -CD(z_hat).mean()
        loss3 = -CD(z_rand).mean() - c_loss + gradient_penalty_cd

        loss3.backward(retain_graph=True)
        cd_optimizer.step()

    ###############################################
    # Visualization
    ###############################################

    if iteration % 10 == 0:
        print('[{}/{}]'.format(iteration,TOTAL_ITER),
              'D: {:<8.3}'.format(loss2.item()), 
              'En_Ge: {:<8.3}'.format(loss1.item()),
              'Code: {:<8.3}'.format(loss3.item()),
              )
