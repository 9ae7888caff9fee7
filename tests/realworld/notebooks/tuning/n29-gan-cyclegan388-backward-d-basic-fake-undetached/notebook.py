# source: variant of https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/388 ("In the function backward_D_basic, why operate detach() for fake???"; junyanz: "detach() stops the gradient. fake.detach() will make sure that G does not get gradients"). Here backward_D_basic is written without the detach the question asks about, and the model is trained with --pool_size 0, so the image pool hands back the generators' own outputs rather than stored .data copies. models/cycle_gan_model.py at 032e884 with BaseModel.set_requires_grad and util/image_pool.py kept next to the notebook in cycle_gan_model.py; networks.define_G / define_D replaced by a small conv generator and a small PatchGAN-shaped discriminator (no norm layers), lsgan GANLoss; train.py's loop split into notebook cells with the options as a namespace, random 16x16 images instead of a horse2zebra folder, seeded
# scenario: gan_multiloss
# cause: shared_subgraph_multiple_backward
# root: file cycle_gan_model.py line 134
# expert: optimize_parameters first backpropagates loss_G through the generators' graph (fake_B = netG_A(real_A), fake_A = netG_B(real_B)), which frees it, then trains the discriminators on those same fake images. Without the detach, loss_D.backward() in backward_D_basic continues from netD(fake) into the freed generator graph and fails on the first iteration. As the maintainer explains, the discriminator step must not send gradients to G: pred_fake = netD(fake.detach()).
# %%
import time
import random
from types import SimpleNamespace

import torch
from cycle_gan_model import CycleGANModel

random.seed(0)
torch.manual_seed(0)
# options/train_options.py + base_options.py (only those the model reads)
opt = SimpleNamespace(isTrain=True, input_nc=3, output_nc=3, ngf=8, ndf=8, direction='AtoB',
                      lambda_A=10.0, lambda_B=10.0, lambda_identity=0.5, pool_size=0,
                      gan_mode='lsgan', lr=0.0002, beta1=0.5, niter=2, print_freq=4)
# %%
# a tiny unaligned dataset: unpaired images of domain A and domain B
dataset = [{'A': torch.rand(1, 3, 16, 16) * 2 - 1, 'B': torch.rand(1, 3, 16, 16) * 2 - 1,
            'A_paths': ['trainA/%d.jpg' % i], 'B_paths': ['trainB/%d.jpg' % i]} for i in range(8)]
dataset_size = len(dataset)
print('#training images = %d' % dataset_size)
# %%
model = CycleGANModel(opt)
total_steps = 0
# %%
for epoch in range(1, opt.niter + 1):
    epoch_start_time = time.time()
    for i, data in enumerate(dataset):
        total_steps += 1
        model.set_input(data)
        model.optimize_parameters()

        if total_steps % opt.print_freq == 0:
            losses = model.get_current_losses()
            print(epoch, total_steps, losses)
    print('End of epoch %d / %d \t Time Taken: %d sec' % (epoch, opt.niter, time.time() - epoch_start_time))
