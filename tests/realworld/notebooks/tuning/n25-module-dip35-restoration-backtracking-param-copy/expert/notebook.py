# source: https://github.com/DmitryUlyanov/deep-image-prior/issues/35 ("Backtracking condition fails and gives an error": net_param.copy_(new_param.cuda()) in the closure of restoration.ipynb raises "a leaf Variable that requires grad has been used in an in-place operation"; the maintainer's fix, commit df37697 "Update restoration.ipynb", copies into net_param.data). restoration.ipynb as it was before that commit, with the 'kate' configuration the notebook offers (f = kate.png), its setup, network and closure cells; models/skip.py, models/common.py, utils/common_utils.py and utils/inpainting_utils.py are the repository's, kept next to the notebook as flat modules (plot/PIL image loading replaced by stand-ins, _stub_pil.py for PIL, _stub_skimage.py for skimage.measure.compare_psnr, mpl_stub.py for matplotlib); CPU instead of CUDA (torch.FloatTensor, new_param.to(net_param.device) for new_param.cuda()); a seeded synthetic 3x64x64 image for kate.png, 8 channels per scale instead of 16..128, show_every 5, num_iter 20, and LR 1.0 instead of 0.01 so that the PSNR drop that makes the closure fall back to the previous checkpoint, which the reporter hit on the real image, happens within the short run
# scenario: imported_module
# cause: leaf_inplace
# root: cell 3 line 27
# expert: When the masked PSNR drops by more than 5 dB, the closure restores the previous checkpoint with net_param.copy_(...) on the network's parameters, which are leaf tensors requiring grad, and autograd refuses the in-place copy (the error surfaces inside common_utils.optimize, which calls the closure). The maintainer's fix (commit df37697) copies into the parameter's data instead: net_param.data.copy_(new_param.cuda()), here new_param.to(net_param.device) on CPU.
# %%
from __future__ import print_function
import mpl_stub as plt  # stands in for matplotlib.pyplot

import os
#os.environ['CUDA_VISIBLE_DEVICES'] = '1'

import numpy as np
from skip import skip
import torch
import torch.optim
from _stub_skimage import compare_psnr  # stands in for skimage.measure.compare_psnr

from inpainting_utils import *

torch.backends.cudnn.enabled = True
torch.backends.cudnn.benchmark =True
dtype = torch.FloatTensor

PLOT = True
imsize=-1
dim_div_by = 64
dtype = torch.FloatTensor
torch.manual_seed(0)
np.random.seed(0)
# %%
# fig. 7 (bottom)
# f = './data/restoration/barbara.png'

# fig. 14 of supmat
f = './data/restoration/kate.png'


img_pil, img_np = get_image(f, imsize)

if 'barbara' in f:
    img_np = nn.ReflectionPad2d(1)(np_to_torch(img_np))[0].numpy()
    img_pil = np_to_pil(img_np)
    
    img_mask = get_bernoulli_mask(img_pil, 0.50)
    img_mask_np = pil_to_np(img_mask)
elif 'kate' in f:
    img_mask = get_bernoulli_mask(img_pil, 0.98)

    img_mask_np = pil_to_np(img_mask)
    img_mask_np[1] = img_mask_np[0]
    img_mask_np[2] = img_mask_np[0]
else:
    assert False
    

img_masked = img_np * img_mask_np

mask_var = np_to_torch(img_mask_np).type(dtype)

plot_image_grid([img_np, img_mask_np, img_mask_np * img_np], 3,11);
# %%
show_every=5
figsize=5
pad = 'reflection' # 'zero'
INPUT = 'noise'
input_depth = 32
OPTIMIZER = 'adam'
OPT_OVER =  'net'
if 'barbara' in f:
    OPTIMIZER = 'adam'
    
    LR = 0.001
    num_iter = 11000
    reg_noise_std = 0.03
    
    NET_TYPE = 'skip'
    net = get_net(input_depth, 'skip', pad, n_channels=1,
                  skip_n33d=128, 
                  skip_n33u=128, 
                  skip_n11=4, 
                  num_scales=5,
                  upsample_mode='bilinear').type(dtype)
elif 'kate' in f:
    OPT_OVER = 'net'
    num_iter = 20
    LR = 1.0
    reg_noise_std = 0.00
        
    net = skip(input_depth, 
               img_np.shape[0], 
               num_channels_down = [8, 8, 8, 8, 8],
               num_channels_up   = [8, 8, 8, 8, 8],
               num_channels_skip =    [0, 0, 0, 0, 0],   
               filter_size_down = 3, filter_size_up = 3, filter_skip_size=1,
               upsample_mode='bilinear', 
               downsample_mode='avg',
               need_sigmoid=True, need_bias=True, pad=pad).type(dtype)
    
# Loss
mse = torch.nn.MSELoss().type(dtype)
img_var = np_to_torch(img_np).type(dtype)

net_input = get_noise(input_depth, INPUT, img_np.shape[1:]).type(dtype).detach()
# %%
def closure():

    global i, psrn_masked_last, last_net, net_input
    
    if reg_noise_std > 0:
        net_input = net_input_saved + (noise.normal_() * reg_noise_std)
    
    out = net(net_input)

    total_loss = mse(out * mask_var, img_var * mask_var)
    total_loss.backward()
    
    psrn_masked = compare_psnr(img_masked, out.detach().cpu().numpy()[0] * img_mask_np) 
    psrn = compare_psnr(img_np, out.detach().cpu().numpy()[0]) 

    print ('Iteration %05d    Loss %f PSNR_masked %f PSNR %f' % (i, total_loss.item(), psrn_masked, psrn),'\r', end='')
    
    
    if  PLOT and i % show_every == 0:
        out_np = torch_to_np(out)
        
        # Backtracking
        if psrn_masked - psrn_masked_last < -5: 
            print('Falling back to previous checkpoint.')

            for new_param, net_param in zip(last_net, net.parameters()):
                net_param.data.copy_(new_param.to(net_param.device))

            return total_loss*0
        else:
            last_net = [x.cpu() for x in net.parameters()]
            psrn_masked_last = psrn_masked



        plot_image_grid([np.clip(out_np, 0, 1)], factor=figsize, nrow=1)

    i += 1

    return total_loss

# Init globals 
last_net = None
psrn_masked_last = 0
i = 0

net_input_saved = net_input.detach().clone()
noise = net_input.detach().clone()

# Run
p = get_params(OPT_OVER, net, net_input)
optimize(OPTIMIZER, p, closure, LR=LR, num_iter=num_iter)
