# %%
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)


class GaussianNoise(nn.Module):
    def __init__(self, sigma=1.0):
        super().__init__()
        self.sigma = sigma
        self.noise = torch.tensor(0.0)

    def forward(self, x):
        if self.training:
            sampled_noise = self.noise.repeat(*x.size()).normal_(mean=0, std=self.sigma)
            x = x + sampled_noise
        return x


class Classifier(nn.Module):
    def __init__(self, n_features=8, classes=10):
        super(Classifier, self).__init__()
        self.feature_extractor = nn.Sequential(
            nn.InstanceNorm2d(3, momentum=1, eps=1e-3),
            nn.Conv2d(3, n_features, 3, 1, 1),
            nn.BatchNorm2d(n_features, momentum=0.99, eps=1e-3),
            nn.LeakyReLU(negative_slope=0.1, inplace=True),
            nn.MaxPool2d(2),
            nn.Dropout(0.5),
            GaussianNoise(1.0),
            nn.Conv2d(n_features, n_features, 3, 1, 1),
            nn.BatchNorm2d(n_features, momentum=0.99, eps=1e-3),
            nn.LeakyReLU(negative_slope=0.1, inplace=True),
            nn.MaxPool2d(2),
            nn.Dropout(0.5),
            GaussianNoise(1.0),
        )
        self.classifier = nn.Sequential(
            nn.Conv2d(n_features, n_features, 3, 1, 1),
            nn.BatchNorm2d(n_features, momentum=0.99, eps=1e-3),
            nn.LeakyReLU(negative_slope=0.1, inplace=True),
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(n_features, classes, 1)
        )
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.track_running_stats = False

    def track_bn_stats(self, track):
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.track_running_stats = track

    def forward(self, x, track_bn=False):
        if track_bn:
            self.track_bn_stats(True)
        features = self.feature_extractor(x)
        logits = self.classifier(features)
        if track_bn:
            self.track_bn_stats(False)
        return features, logits.view(x.size(0), 10)


class Discriminator(nn.Module):
    def __init__(self, n_features=8):
        super(Discriminator, self).__init__()
        self.disc = nn.Sequential(
            nn.Linear(n_features * 4 * 4, 100),
            nn.ReLU(True),
            nn.Linear(100, 1)
        )

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return self.disc(x).view(x.size(0), -1)


class EMA:
    def __init__(self, decay):
        self.decay = decay
        self.shadow = {}

    def register(self, model):
        for name, param in model.named_parameters():
            if param.requires_grad:
                self.shadow[name] = param.data.clone()
        self.params = self.shadow.keys()

    def __call__(self, model):
        if self.decay > 0:
            for name, param in model.named_parameters():
                if name in self.params and param.requires_grad:
                    self.shadow[name] -= (1 - self.decay) * (self.shadow[name] - param.data)
                    param.data = self.shadow[name]


class ConditionalEntropyLoss(torch.nn.Module):
    def forward(self, x):
        b = F.softmax(x, dim=1) * F.log_softmax(x, dim=1)
        b = b.sum(dim=1)
        return -1.0 * b.mean(dim=0)


class VAT(nn.Module):
    def __init__(self, model, n_power=1, radius=3.5):
        super(VAT, self).__init__()
        self.n_power = n_power
        self.XI = 1e-6
        self.model = model
        self.epsilon = radius

    def forward(self, X, logit):
        return self.virtual_adversarial_loss(X, logit)

    def generate_virtual_adversarial_perturbation(self, x, logit):
        d = torch.randn_like(x)
        for _ in range(self.n_power):
            d = self.XI * self.get_normalized_vector(d).requires_grad_()
            _, logit_m = self.model(x + d)
            dist = self.kl_divergence_with_logit(logit, logit_m)
            grad = torch.autograd.grad(dist, [d])[0]
            d = grad.detach()
        return self.epsilon * self.get_normalized_vector(d)

    def kl_divergence_with_logit(self, q_logit, p_logit):
        q = F.softmax(q_logit, dim=1)
        qlogq = torch.mean(torch.sum(q * F.log_softmax(q_logit, dim=1), dim=1))
        qlogp = torch.mean(torch.sum(q * F.log_softmax(p_logit, dim=1), dim=1))
        return qlogq - qlogp

    def get_normalized_vector(self, d):
        return F.normalize(d.view(d.size(0), -1), p=2, dim=1).reshape(d.size())

    def virtual_adversarial_loss(self, x, logit):
        r_vadv = self.generate_virtual_adversarial_perturbation(x, logit)
        logit_p = logit.detach()
        _, logit_m = self.model(x + r_vadv)
        return self.kl_divergence_with_logit(logit_p, logit_m)
# %%
feature_discriminator = Discriminator()
classifier = Classifier()
cent = ConditionalEntropyLoss()
xent = nn.CrossEntropyLoss(reduction='mean')
sigmoid_xent = nn.BCEWithLogitsLoss(reduction='mean')
vat_loss = VAT(classifier)
optimizer_cls = torch.optim.Adam(classifier.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizer_disc = torch.optim.Adam(feature_discriminator.parameters(), lr=2e-3, betas=(0.5, 0.999))
dw, cw, sw, tw = 1e-2, 1, 1, 1e-2
ema = EMA(0.998)
ema.register(classifier)
# one source batch (labelled) and one target batch
images_source, labels_source = torch.rand(4, 3, 16, 16), torch.randint(0, 10, (4,))
images_target = torch.rand(4, 3, 16, 16)
# %%
# pass images through the classifier network.
feats_source, pred_source = classifier(images_source)
feats_target, pred_target = classifier(images_target, track_bn=True)

' Discriminator losses setup. '
real_logit_disc = feature_discriminator(feats_source.detach())
fake_logit_disc = feature_discriminator(feats_target.detach())
loss_disc = 0.5 * (
        sigmoid_xent(real_logit_disc, torch.ones_like(real_logit_disc)) +
        sigmoid_xent(fake_logit_disc, torch.zeros_like(fake_logit_disc))
)
# %%
# Update discriminator.
optimizer_disc.zero_grad()
loss_disc.backward()
optimizer_disc.step()
# %%
' Classifier losses setup. '
# supervised/source classification.
loss_src_class = xent(pred_source, labels_source)
# conditional entropy loss.
loss_trg_cent = cent(pred_target)
# virtual adversarial loss.
loss_src_vat = vat_loss(images_source, pred_source)
loss_trg_vat = vat_loss(images_target, pred_target)

# %%
# domain loss, built here so it sees the discriminator's current weights.
real_logit = feature_discriminator(feats_source)
fake_logit = feature_discriminator(feats_target)
loss_domain = 0.5 * (
        sigmoid_xent(real_logit, torch.zeros_like(real_logit)) +
        sigmoid_xent(fake_logit, torch.ones_like(fake_logit))
)

# combined loss.
loss_main = (
        dw * loss_domain +
        cw * loss_src_class +
        sw * loss_src_vat +
        tw * loss_trg_cent +
        tw * loss_trg_vat
)

# Update classifier.
optimizer_cls.zero_grad()
loss_main.backward()
optimizer_cls.step()

# Polyak averaging.
ema(classifier)
print('loss {:.3f}, domain {:.3f}, disc {:.3f}'.format(loss_main.item(), loss_domain.item(), loss_disc.item()))
