# source: variant of https://github.com/alterzero/DBPN-Pytorch/issues/37 (the GAN iteration of main_gan.py's train() split into a discriminator cell and a generator cell, re-run for a second batch; small stand-ins for the DBPN generator, the Discriminator and the VGG FeatureExtractor, random LR/HR patches, CPU)
# scenario: clean
# order: 0 1 2 1 2
# expert: clean: the discriminator cell feeds recon_image to D without .detach() (the line the issue asks about), so D_loss.backward() also sends gradients into the generator and frees its graph, but nothing is lost: optimizer.zero_grad() clears those generator gradients before the generator step, and the generator cell runs model(input) again, so its loss is built on a fresh graph; re-running both cells for the next batch recomputes everything too. Detaching would only save the wasted backward through the generator.
# %%
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(123)

def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)

class Net(nn.Module):  # stand-in for dbpn.Net (x4 up-projection network)
    def __init__(self, num_channels=3, base_filter=8, scale_factor=4):
        super().__init__()
        self.feat = nn.Sequential(nn.Conv2d(num_channels, base_filter, 3, 1, 1), nn.PReLU())
        self.up = nn.Sequential(nn.ConvTranspose2d(base_filter, base_filter, 8, scale_factor, 2), nn.PReLU())
        self.output_conv = nn.Conv2d(base_filter, num_channels, 3, 1, 1)

    def forward(self, x):
        return self.output_conv(self.up(self.feat(x)))

class Discriminator(nn.Module):
    def __init__(self, num_channels=3, base_filter=8, image_size=16):
        super().__init__()
        self.input_conv = nn.Sequential(nn.Conv2d(num_channels, base_filter, 3, 2, 1), nn.LeakyReLU(0.2))
        self.dense_layers = nn.Sequential(nn.Linear(base_filter * (image_size // 2) ** 2, 1), nn.Sigmoid())

    def forward(self, x):
        out = self.input_conv(x)
        return self.dense_layers(out.view(out.size(0), -1)).view(-1)

class FeatureExtractor(nn.Module):  # stand-in for FeatureExtractor(models.vgg19(pretrained=True))
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1), nn.ReLU()),
                                     nn.Sequential(nn.Conv2d(8, 8, 3, 2, 1), nn.ReLU())])

    def forward(self, x):
        results = []
        for block in self.blocks:
            x = block(x)
            results.append(x)
        return results

model = Net(num_channels=3, base_filter=8, scale_factor=4)
D = Discriminator(num_channels=3, base_filter=8, image_size=16)
feature_extractor = FeatureExtractor()
MSE_loss = nn.MSELoss()
BCE_loss = nn.BCELoss()
optimizer = optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8)
D_optimizer = optim.Adam(D.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8)

class opt:
    w1, w2, w3, w4 = 1e-2, 1e-1, 1e-3, 10

# two batches of (LR patch, HR patch)
training_batches = iter([(torch.rand(2, 3, 4, 4), torch.rand(2, 3, 16, 16)) for _ in range(2)])
model.train()
D.train()
# %%
batch = next(training_batches)
input, target = batch[0], batch[1]
minibatch = input.size()[0]
real_label = torch.ones(minibatch)
fake_label = torch.zeros(minibatch)

# Reset gradient
D_optimizer.zero_grad()

# Train discriminator with real data
D_real_decision = D(target)
D_real_loss = BCE_loss(D_real_decision, real_label)

# Train discriminator with fake data
recon_image = model(input)
D_fake_decision = D(recon_image)
D_fake_loss = BCE_loss(D_fake_decision, fake_label)

D_loss = D_real_loss + D_fake_loss

# Back propagation
D_loss.backward()
D_optimizer.step()
# %%
# Reset gradient
optimizer.zero_grad()

# Train generator
recon_image = model(input)
D_fake_decision = D(recon_image)

# Adversarial loss
GAN_loss = opt.w3 * BCE_loss(D_fake_decision, real_label)

# Content losses
mse_loss = opt.w1 * MSE_loss(recon_image, target)

# Perceptual loss
x_VGG = batch[1]
recon_VGG = recon_image.data
real_feature = feature_extractor(x_VGG)
fake_feature = feature_extractor(recon_VGG)

vgg_loss = opt.w2 * sum([MSE_loss(fake_feature[i], real_feature[i].detach()) for i in range(len(real_feature))])
style_loss = opt.w4 * sum([MSE_loss(gram_matrix(fake_feature[i]), gram_matrix(real_feature[i]).detach()) for i in range(len(real_feature))])

# Back propagation
G_loss = mse_loss + vgg_loss + GAN_loss + style_loss

G_loss.backward()
optimizer.step()
print("G_loss: %.8f, D_loss: %.8f, mse:%.8f, perceptual: %.8f, style: %.8f, adv: %.8f"
      % (G_loss.data, D_loss.data, mse_loss.data, vgg_loss.data, style_loss.data, GAN_loss.data))
