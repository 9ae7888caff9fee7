# source: https://github.com/facebookresearch/pytorch_GAN_zoo/issues/83
# scenario: gan_multiloss
# cause: shared_subgraph_multiple_backward
# root: cell 3 line 8
# expert: the generator step calls lossGFake.backward() and afterwards backpropagates the GDPP loss through phiGFake, the discriminator features of the same fake batch whose graph the first backward freed; keep the graph for the GDPP term (lossGFake.backward(retain_graph=True), PR #85) or add both terms and call backward once
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class DNet(nn.Module):
    def __init__(self, dimIn=16, dimFeat=8):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(dimIn, 32), nn.LeakyReLU(0.2),
                                      nn.Linear(32, dimFeat), nn.LeakyReLU(0.2))
        self.decisionLayer = nn.Linear(dimFeat, 1)

    def forward(self, x, getFeature=False):
        phi = self.features(x)
        out = self.decisionLayer(phi)
        if getFeature:
            return out, phi
        return out

class WGANGP:
    def getCriterion(self, input, status):
        if status:
            return -input[:, 0].sum()
        return input[:, 0].sum()

netG = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 16))
netD = DNet()
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.0, 0.99))
optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.0, 0.99))
lossCriterion = WGANGP()
n_samples = 8
real_input = torch.randn(n_samples, 16)

def buildNoiseData(n_samples):
    return torch.randn(n_samples, 4), None
# %%
def GDPPLoss(phiFake, phiReal, backward=True):
    def compute_diversity(phi):
        phi = F.normalize(phi, p=2, dim=1)
        SB = torch.mm(phi, phi.t())
        eigVals, eigVecs = torch.linalg.eigh(SB)  # torch.symeig(SB, eigenvectors=True) in the original
        return eigVals, eigVecs

    def normalize_min_max(eigVals):
        minV, maxV = torch.min(eigVals), torch.max(eigVals)
        if abs(minV - maxV) < 1e-10:
            return eigVals
        return (eigVals - minV) / (maxV - minV)

    fakeEigVals, fakeEigVecs = compute_diversity(phiFake)
    realEigVals, realEigVecs = compute_diversity(phiReal)

    # Scaling factor to make the two losses operating in comparable ranges.
    magnitudeLoss = 0.0001 * F.mse_loss(target=realEigVals, input=fakeEigVals)
    structureLoss = -torch.sum(torch.mul(fakeEigVecs, realEigVecs), 0)
    normalizedRealEigVals = normalize_min_max(realEigVals)
    weightedStructureLoss = torch.sum(
        torch.mul(normalizedRealEigVals, structureLoss))
    gdppLoss = magnitudeLoss + weightedStructureLoss

    if backward:
        gdppLoss.backward(retain_graph=True)

    return gdppLoss.item()
# %%
# #2 Discriminator update
optimizerD.zero_grad()
predRealD = netD(real_input, False)
lossD = lossCriterion.getCriterion(predRealD, True)
inputLatent, targetRandCat = buildNoiseData(n_samples)
predFakeG = netG(inputLatent).detach()
predFakeD = netD(predFakeG, False)
lossD += lossCriterion.getCriterion(predFakeD, False)
lossD.backward()
optimizerD.step()
# %%
# #3 Generator update
optimizerG.zero_grad()
optimizerD.zero_grad()
inputLatent, targetCatNoise = buildNoiseData(n_samples)
predFakeG = netG(inputLatent)
predFakeD, phiGFake = netD(predFakeG, True)
lossGFake = lossCriterion.getCriterion(predFakeD, True)
lossGFake.backward()
# %%
# GDPP term of the generator loss
_, phiDReal = netD.forward(real_input, True)
lossG_GDPP = GDPPLoss(phiDReal, phiGFake, backward=True)
optimizerG.step()
print(lossGFake.item(), lossG_GDPP)
