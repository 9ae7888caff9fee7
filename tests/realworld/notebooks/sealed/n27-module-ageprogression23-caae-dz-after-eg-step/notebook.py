# source: https://github.com/mattans/AgeProgression/issues/23 (model.py's Net.teach as in the repository, which the traceback runs through: the encoder/generator loss backward(retain_graph=True) and eg_optimizer.step(), then dz_loss_tot.backward() and di_loss_tot.backward() through the same forward; the repository's notebooks import model and call Net().teach. Cut down: 32x32 images and smaller Encoder/Generator/Discriminators, plain ConvTranspose2d instead of DeConv2dLikeTF, teach without image saving/logging/validation, random images and +-1 age/gender label vectors instead of UTKFace, 2 batches of 8)
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file model.py line 232
# expert: Net.teach steps eg_optimizer (an in-place update of the Encoder and Generator weights) between the forward pass and dz_loss_tot.backward(), and d_z = self.Dz(z) ties the discriminator loss to the encoder output, so that backward reaches Encoder weights that were saved for backward and have since been modified in place. As the fix posted in the thread (after pytorch/pytorch#39141) does, feed the discriminators detached inputs: d_z_prior = self.Dz(z_prior.detach()), d_z = self.Dz(z.detach()); the image discriminator needs the same treatment (a later reply says the Dz change alone did not help, and indeed di_loss_tot.backward() then fails the same way through the Generator), so its loss uses self.Dimg(generated.detach(), ...) while the generator's dg_loss gets its own Dimg(generated, ...) call.
# %%
import torch
import consts
from model import Net
from torch.utils.data import TensorDataset
# %%
torch.manual_seed(0)
# stands in for get_utkface_dataset(utkface_path): 16 random faces with age/gender label vectors in {-1, 1}
images = torch.rand(16, 3, consts.IMAGE_LENGTH, consts.IMAGE_LENGTH) * 2 - 1
ages = torch.randint(0, consts.NUM_AGES, (16,))
genders = torch.randint(0, consts.NUM_GENDERS, (16,))
labels = -torch.ones(16, consts.LABEL_LEN_EXPANDED)
labels[torch.arange(16), ages] = 1
labels[torch.arange(16), consts.NUM_AGES + genders] = 1
dataset = TensorDataset(images, labels)
# %%
net = Net()
# %%
losses = net.teach(dataset, batch_size=8, epochs=1)
