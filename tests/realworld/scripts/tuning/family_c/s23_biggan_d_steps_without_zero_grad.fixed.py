# source: https://github.com/ajbrock/BigGAN-PyTorch/issues/25
# style: gan
# cause: grads_not_zeroed
# line: 204
# expert: GAN_training_function zeroes D's gradients once per call, before the num_D_steps loop, so with several D steps (launch_cifar_ema.sh uses --num_D_steps 4) every D.optim.step() after the first applies the sum of all earlier steps' gradients. The maintainer confirmed it as a typo and fixed it in b70f16c by calling D.optim.zero_grad() at the start of every D step (inside `for step_index in range(config['num_D_steps'])`).
# GAN_training_function of train_fns.py, the hinge losses of losses.py, utils.Distribution /
# prepare_z_y / toggle_grad and the G_D wrapper of BigGAN.py at b70f16c^ (before the fix),
# driven like train.py's main loop with the CIFAR settings of scripts/launch_cifar_ema.sh
# (batch_size 50, num_D_steps 4, lr 2e-4, no ortho reg). BigGAN's G and D are replaced by tiny
# class-conditional MLPs with the same interface (G.shared, G.dim_z, G.optim, D.optim, fp16 flags),
# random 3x8x8 "CIFAR" images replace the loader, EMA/saving/testing are off; 20 iterations, CPU.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


# ---- losses.py ----
class losses:
  # Hinge Loss
  @staticmethod
  def loss_hinge_dis(dis_fake, dis_real):
    loss_real = torch.mean(F.relu(1. - dis_real))
    loss_fake = torch.mean(F.relu(1. + dis_fake))
    return loss_real, loss_fake

  @staticmethod
  def loss_hinge_gen(dis_fake):
    loss = -torch.mean(dis_fake)
    return loss

  # Default to hinge loss
  generator_loss = loss_hinge_gen
  discriminator_loss = loss_hinge_dis


# ---- utils.py (the parts train_fns uses) ----
class Distribution(torch.Tensor):
  # Init the params of the distribution
  def init_distribution(self, dist_type, **kwargs):    
    self.dist_type = dist_type
    self.dist_kwargs = kwargs
    if self.dist_type == 'normal':
      self.mean, self.var = kwargs['mean'], kwargs['var']
    elif self.dist_type == 'categorical':
      self.num_categories = kwargs['num_categories']

  def sample_(self):
    if self.dist_type == 'normal':
      self.normal_(self.mean, self.var)
    elif self.dist_type == 'categorical':
      self.random_(0, self.num_categories)    
    # return self.variable
    
  # Silly hack: overwrite the to() method to wrap the new object
  # in a distribution as well
  def to(self, *args, **kwargs):
    new_obj = Distribution(self)
    new_obj.init_distribution(self.dist_type, **self.dist_kwargs)
    new_obj.data = super().to(*args, **kwargs)    
    return new_obj


class utils:
  Distribution = Distribution

  # Convenience function to prepare a z and y vector
  @staticmethod
  def prepare_z_y(G_batch_size, dim_z, nclasses, device='cuda', 
                  fp16=False,z_var=1.0):
    z_ = Distribution(torch.randn(G_batch_size, dim_z, requires_grad=False))
    z_.init_distribution('normal', mean=0, var=z_var)
    z_ = z_.to(device,torch.float16 if fp16 else torch.float32)   
    
    if fp16:
      z_ = z_.half()

    y_ = Distribution(torch.zeros(G_batch_size, requires_grad=False))
    y_.init_distribution('categorical',num_categories=nclasses)
    y_ = y_.to(device, torch.int64)
    return z_, y_

  @staticmethod
  def toggle_grad(model, on_or_off):
    for param in model.parameters():
      param.requires_grad = on_or_off


# ---- tiny stand-ins for BigGAN.Generator / BigGAN.Discriminator ----
class Generator(nn.Module):
  def __init__(self, dim_z=32, shared_dim=16, n_classes=10, G_lr=2e-4):
    super(Generator, self).__init__()
    self.dim_z = dim_z
    self.fp16 = False
    self.shared = nn.Embedding(n_classes, shared_dim)
    self.net = nn.Sequential(nn.Linear(dim_z + shared_dim, 128), nn.ReLU(), nn.Linear(128, 3 * 8 * 8), nn.Tanh())
    self.optim = torch.optim.Adam(self.parameters(), lr=G_lr, betas=(0.0, 0.999), eps=1e-8)

  def forward(self, z, y):
    return self.net(torch.cat([z, y], 1)).view(-1, 3, 8, 8)


class Discriminator(nn.Module):
  def __init__(self, n_classes=10, D_lr=2e-4):
    super(Discriminator, self).__init__()
    self.fp16 = False
    self.body = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 128), nn.ReLU())
    self.linear = nn.Linear(128, 1)
    self.embed = nn.Embedding(n_classes, 128)
    self.optim = torch.optim.Adam(self.parameters(), lr=D_lr, betas=(0.0, 0.999), eps=1e-8)

  def forward(self, x, y=None):
    h = self.body(x)
    out = self.linear(h)
    # Projection discriminator as in BigGAN.Discriminator
    out = out + torch.sum(self.embed(y) * h, 1, keepdim=True)
    return out


# ---- BigGAN.py ----
class G_D(nn.Module):
  def __init__(self, G, D):
    super(G_D, self).__init__()
    self.G = G
    self.D = D

  def forward(self, z, gy, x=None, dy=None, train_G=False, return_G_z=False,
              split_D=False):              
    # If training G, enable grad tape
    with torch.set_grad_enabled(train_G):
      # Get Generator output given noise
      G_z = self.G(z, self.G.shared(gy))
      # Cast as necessary
      if self.G.fp16 and not self.D.fp16:
        G_z = G_z.float()
      if self.D.fp16 and not self.G.fp16:
        G_z = G_z.half()
    # Split_D means to run D once with real data and once with fake,
    # rather than concatenating along the batch dimension.
    if split_D:
      D_fake = self.D(G_z, gy)
      if x is not None:
        D_real = self.D(x, dy)
        return D_fake, D_real
      else:
        if return_G_z:
          return D_fake, G_z
        else:
          return D_fake
    # If real data is provided, concatenate it with the Generator's output
    # along the batch dimension for improved efficiency.
    else:
      D_input = torch.cat([G_z, x], 0) if x is not None else G_z
      D_class = torch.cat([gy, dy], 0) if dy is not None else gy
      # Get Discriminator output
      D_out = self.D(D_input, D_class)
      if x is not None:
        return torch.split(D_out, [G_z.shape[0], x.shape[0]]) # D_fake, D_real
      else:
        if return_G_z:
          return D_out, G_z
        else:
          return D_out


# ---- train_fns.py ----
def GAN_training_function(G, D, GD, z_, y_, ema, state_dict, config):
  def train(x, y):
    G.optim.zero_grad()
    D.optim.zero_grad()
    # How many chunks to split x and y into?
    x = torch.split(x, config['batch_size'])
    y = torch.split(y, config['batch_size'])
    counter = 0
    
    # Optionally toggle D and G's "require_grad"
    if config['toggle_grads']:
      utils.toggle_grad(D, True)
      utils.toggle_grad(G, False)
      
    for step_index in range(config['num_D_steps']):
      # If accumulating gradients, loop multiple times before an optimizer step
      D.optim.zero_grad()
      for accumulation_index in range(config['num_D_accumulations']):
        z_.sample_()
        y_.sample_()
        D_fake, D_real = GD(z_[:config['batch_size']], y_[:config['batch_size']], 
                            x[counter], y[counter], train_G=False, 
                            split_D=config['split_D'])
         
        # Compute components of D's loss, average them, and divide by 
        # the number of gradient accumulations
        D_loss_real, D_loss_fake = losses.discriminator_loss(D_fake, D_real)
        D_loss = (D_loss_real + D_loss_fake) / float(config['num_D_accumulations'])
        D_loss.backward()
        counter += 1
        
      # Optionally apply ortho reg in D
      if config['D_ortho'] > 0.0:
        # Debug print to indicate we're using ortho reg in D.
        print('using modified ortho reg in D')
        utils.ortho(D, config['D_ortho'])
      
      D.optim.step()
    
    # Optionally toggle "requires_grad"
    if config['toggle_grads']:
      utils.toggle_grad(D, False)
      utils.toggle_grad(G, True)
      
    # Zero G's gradients by default before training G, for safety
    G.optim.zero_grad()
    
    # If accumulating gradients, loop multiple times
    for accumulation_index in range(config['num_G_accumulations']):    
      z_.sample_()
      y_.sample_()
      D_fake = GD(z_, y_, train_G=True, split_D=config['split_D'])
      G_loss = losses.generator_loss(D_fake) / float(config['num_G_accumulations'])
      G_loss.backward()
    
    # Optionally apply modified ortho reg in G
    if config['G_ortho'] > 0.0:
      print('using modified ortho reg in G') # Debug print to indicate we're using ortho reg in G
      # Don't ortho reg shared, it makes no sense. Really we should blacklist any embeddings for this
      utils.ortho(G, config['G_ortho'], 
                  blacklist=[param for param in G.shared.parameters()])
    G.optim.step()
    
    # If we have an ema, update it, regardless of if we test with it or not
    if config['ema']:
      ema.update(state_dict['itr'])
    
    out = {'G_loss': float(G_loss.item()), 
            'D_loss_real': float(D_loss_real.item()),
            'D_loss_fake': float(D_loss_fake.item())}
    # Return G's loss and the components of D's loss.
    return out
  return train


# ---- train.py (main loop, CIFAR settings of scripts/launch_cifar_ema.sh) ----
config = {'batch_size': 50, 'G_batch_size': 0, 'num_D_steps': 4, 'num_D_accumulations': 1,
          'num_G_accumulations': 1, 'n_classes': 10, 'toggle_grads': True, 'split_D': False,
          'D_ortho': 0.0, 'G_ortho': 0.0, 'ema': False, 'G_fp16': False, 'D_fp16': False,
          'num_epochs': 1}
device = 'cpu'
state_dict = {'itr': 0, 'epoch': 0}
G = Generator(n_classes=config['n_classes'])
D = Discriminator(n_classes=config['n_classes'])
GD = G_D(G, D)
ema = None

D_batch_size = (config['batch_size'] * config['num_D_steps']
                * config['num_D_accumulations'])
# 20 random batches of 3x8x8 "images" with labels stand in for the CIFAR-10 loader
loader = [(torch.rand(D_batch_size, 3, 8, 8) * 2 - 1, torch.randint(0, 10, (D_batch_size,)))
          for _ in range(20)]

G_batch_size = max(config['G_batch_size'], config['batch_size'])
z_, y_ = utils.prepare_z_y(G_batch_size, G.dim_z, config['n_classes'],
                           device=device, fp16=config['G_fp16'])
train = GAN_training_function(G, D, GD, z_, y_, ema, state_dict, config)

print('Beginning training at epoch %d...' % state_dict['epoch'])
for epoch in range(state_dict['epoch'], config['num_epochs']):
  for i, (x, y) in enumerate(loader):
    state_dict['itr'] += 1
    G.train()
    D.train()
    x, y = x.to(device), y.to(device)
    metrics = train(x, y)
    print(', '.join(['itr: %d' % state_dict['itr']]
                    + ['%s : %+4.3f' % (key, metrics[key]) for key in metrics]))
  state_dict['epoch'] += 1
