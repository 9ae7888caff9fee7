# source: https://github.com/facebookresearch/pytorch_GAN_zoo/issues/83
# style: gan
# cause: shared_subgraph_multiple_backward
# line: 68
# expert: lossGFake.backward() frees the generator/discriminator-feature graph that the GDPP loss (computed from the same phiGFake features) backpropagates through next; keep the graph for the first backward (retain_graph=True, the fix merged in PR #85) or backprop lossGFake + lossGDPP together as in the paper
import torch
import torch.nn as nn

torch.manual_seed(0)


def GDPPLoss(phiFake, phiReal, backward=True):
    def compute_diversity(phi):
        phi = nn.functional.normalize(phi, p=2, dim=1)
        SB = torch.mm(phi, phi.t())
        eigVals, eigVecs = torch.linalg.eigh(SB)
        return eigVals, eigVecs

    def normalize_min_max(eigVals):
        minV, maxV = torch.min(eigVals), torch.max(eigVals)
        if abs(minV - maxV) < 1e-10:
            return eigVals
        return (eigVals - minV) / (maxV - minV)

    fakeEigVals, fakeEigVecs = compute_diversity(phiFake)
    realEigVals, realEigVecs = compute_diversity(phiReal)
    magnitudeLoss = 0.0001 * nn.functional.mse_loss(target=realEigVals, input=fakeEigVals)
    structureLoss = -torch.sum(torch.mul(fakeEigVecs, realEigVecs), 0)
    normalizedRealEigVals = normalize_min_max(realEigVals)
    weightedStructureLoss = torch.sum(torch.mul(normalizedRealEigVals, structureLoss))
    gdppLoss = magnitudeLoss + weightedStructureLoss
    if backward:
        gdppLoss.backward()
    return gdppLoss.item()


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(16, 8), nn.LeakyReLU(0.2))
        self.decision = nn.Linear(8, 1)

    def forward(self, x, getFeature=False):
        phi = self.features(x)
        out = self.decision(phi)
        return (out, phi) if getFeature else out


netG = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 16))
netD = Discriminator()
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3)
optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-3)
for step in range(3):
    input_batch = torch.randn(6, 16)
    # D update
    optimizerD.zero_grad()
    predRealD = netD(input_batch)
    predFakeD = netD(netG(torch.randn(6, 4)).detach())
    lossD = nn.functional.softplus(-predRealD).mean() + nn.functional.softplus(predFakeD).mean()
    lossD.backward()
    optimizerD.step()
    # G update
    optimizerG.zero_grad()
    optimizerD.zero_grad()
    inputNoise = torch.randn(6, 4)
    predFakeG, phiGFake = netD(netG(inputNoise), True)
    lossGFake = nn.functional.softplus(-predFakeG).mean()
    lossGFake.backward()
    _, phiDReal = netD(input_batch, True)
    GDPPLoss(phiGFake, phiDReal.detach())
    optimizerG.step()
    print(step, lossD.item(), lossGFake.item())
