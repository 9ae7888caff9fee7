# source: https://github.com/Animadversio/GAN-Geometry/issues/4
# style: gan
# cause: non_scalar_backward
# line: 49
# expert: reduce the objective's activations to a scalar before torch.autograd.grad (activs.mean()), as the reporter did and the maintainer confirmed
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyGAN(nn.Module):
    def __init__(self, code_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(code_dim, 3 * 8 * 8), nn.Tanh())

    def visualize(self, code):
        return (self.net(code).view(-1, 3, 8, 8) + 1.0) / 2.0


class FeatureObjective(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())

    def forward(self, img):
        return self.features(img)[:, 1, 2, 2]  # one unit's activation per image


class GANForwardHVPOperator:
    def __init__(self, model, code, objective, preprocess=lambda img: F.interpolate(img, size=(12, 12), mode="bilinear"), EPS=1e-2):
        self.model = model
        self.objective = objective
        self.preprocess = preprocess
        self.code = code.detach().clone()
        self.perturb_norm = self.code.norm() * EPS

    def select_code(self, code):
        self.code = code.detach().clone()

    def apply(self, vec, EPS=None):
        vecnorm = vec.norm()
        perturb_vecs = self.code.detach() + self.perturb_norm * torch.tensor([1.0, -1.0]).view(-1, 1) * vec.detach() / vecnorm
        perturb_vecs.requires_grad_(True)
        img = self.model.visualize(perturb_vecs)
        resz_img = self.preprocess(img)
        activs = self.objective(resz_img)
        ftgrad_both = torch.autograd.grad(activs, perturb_vecs, retain_graph=False, create_graph=False, only_inputs=True)[0]
        hessvec_prod = (ftgrad_both[0, :] - ftgrad_both[1, :]) / (2 * self.perturb_norm)
        return hessvec_prod


G = TinyGAN()
objective = FeatureObjective()
feat = torch.randn(1, 16)
HVP = GANForwardHVPOperator(G, feat, objective)
vec = torch.randn(1, 16)
print(HVP.apply(vec).norm().item())
