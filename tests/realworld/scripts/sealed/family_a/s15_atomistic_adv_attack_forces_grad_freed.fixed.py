# source: https://github.com/learningmatter-mit/Atomistic-Adversarial-Attacks/issues/1 (Attacker of robust/schnet/attacker.py and AdvLoss of robust/loss.py, used with the reporter's own model that computes the forces inside forward instead of an NFF NeuralFF; a small pairwise-distance neural potential and an ase-free atoms stand-in with a full neighbor list, no tqdm)
# style: physics
# cause: double_backward
# line: 30
# expert: The reporter's model computes the forces inside forward with torch.autograd.grad(energy, xyz) without retain_graph/create_graph, which frees the energy graph; the adversarial loss then multiplies the force variance by a Boltzmann factor of the same energies and loss.backward() walks that freed graph (and the forces carry no graph back to the attack displacement). The maintainer pointed to NFF's compute_grad, which calls torch.autograd.grad(..., create_graph=True, retain_graph=True); passing those flags fixed it.
import copy

import torch as ch
import torch.nn as nn

ch.manual_seed(0)


class PairPotential(nn.Module):
    """The reporter's own force field: energies from pairwise distances, forces inside forward."""

    def __init__(self, n_rbf=16, cutoff=5.0):
        super().__init__()
        self.centers = nn.Parameter(ch.linspace(0.5, cutoff, n_rbf), requires_grad=False)
        self.net = nn.Sequential(nn.Linear(n_rbf, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, batch):
        xyz = batch['nxyz'][:, 1:]
        i, j = batch['nbr_list'][:, 0], batch['nbr_list'][:, 1]
        r = (xyz[i] - xyz[j]).norm(dim=-1, keepdim=True)
        rbf = ch.exp(-(r - self.centers) ** 2)
        energy = self.net(rbf).sum()

        # forces as the negative gradient of the energy w.r.t. the positions
        energy_grad = ch.autograd.grad(
            energy, xyz, grad_outputs=ch.ones_like(energy), create_graph=True, retain_graph=True
        )[0]
        return {'energy': energy.reshape(1), 'energy_grad': energy_grad}


class Ensemble:
    def __init__(self, models):
        self.models = models


class Atoms:
    """Stand-in for nff's AtomsBatch: atomic numbers, positions and a full neighbor list."""

    def __init__(self, numbers, positions):
        self.numbers = numbers
        self.positions = positions

    def __len__(self):
        return len(self.numbers)

    def get_batch(self):
        nxyz = ch.cat([self.numbers[:, None].float(), self.positions], dim=1)
        n = len(self)
        nbr_list = ch.tensor([[a, b] for a in range(n) for b in range(n) if a != b])
        return {'nxyz': nxyz, 'nbr_list': nbr_list, 'num_atoms': ch.tensor([n])}


class AdvLoss:
    def __init__(self, train_energies, temperature=1.0):
        self.e = train_energies
        self.temperature = temperature

    def boltzmann_probability(self, e):
        return ch.exp(-e / self.temperature)

    @property
    def partition_fn(self):
        return self.boltzmann_probability(self.e).mean()

    def probability_fn(self, yp):
        return self.boltzmann_probability(yp) / self.partition_fn

    def loss_fn(self, x, e, f=None, s=None):
        if f is not None:
            return -f.var(-1).mean(-1, keepdims=True) * self.probability_fn(e.mean(-1).reshape(-1, 1))


class Attacker:
    """Performs an adversarial attack on an `initial` atom using the `ensemble` models."""

    def __init__(self, initial, ensemble, adv_loss, delta_init=0.01, epsilon=3, optim_lr=1e-2, device='cpu'):
        self.initial = initial
        self.ensemble = ensemble
        self.loss_fn = adv_loss
        self.delta_init = delta_init
        self.epsilon = epsilon
        self.optim_lr = optim_lr
        self.device = device

    @property
    def num_atoms(self):
        return len(self.initial)

    def initialize_translation(self):
        delta = self.delta_init * ch.randn((self.num_atoms, 3), device=self.device)
        delta.requires_grad = True
        opt = ch.optim.Adam([delta], lr=self.optim_lr)
        return delta, opt

    def attack(self, epochs=3):
        delta, opt = self.initialize_translation()
        results = []
        for epoch in range(epochs):
            epoch_results = self.attack_epoch(opt, delta, epoch)
            results.append({'epoch': epoch, **epoch_results})
            print(f"epoch {epoch}: adversarial loss {epoch_results['loss']:.5f}")
        return results

    def attack_epoch(self, opt, delta, epoch):
        opt.zero_grad()
        batch = self.prepare_attack(delta)

        results = [m(batch) for m in self.ensemble.models]
        forces = ch.stack([r['energy_grad'] for r in results], dim=-1)
        energy = ch.stack([r['energy'] for r in results], dim=-1)

        energy_per_atom = energy / self.num_atoms
        loss = self.loss_fn.loss_fn(x=None, e=energy_per_atom, f=forces).sum()
        loss_item = loss.item()

        opt.zero_grad()
        loss.backward()
        opt.step()
        delta.data.clamp_(-self.epsilon, self.epsilon)

        return {
            'delta': batch['delta'].clone().detach().cpu().numpy(),
            'energy': energy.detach().cpu().numpy(),
            'forces': forces.detach().cpu().numpy(),
            'loss': loss_item,
        }

    def prepare_attack(self, delta):
        batch = self.get_batch()
        nxyz_translation = self.get_translation(delta)
        # The following two lines allow the deltas to be backpropagated with the correct
        # neighbor list AND the attacked translation
        batch['nxyz'].requires_grad = True
        batch['nxyz'] = batch['nxyz'] + nxyz_translation
        batch['delta'] = delta
        return batch

    def get_translation(self, delta):
        return ch.cat([ch.zeros((self.num_atoms, 1), device=delta.device), delta], dim=1)

    def get_batch(self):
        atoms = copy.deepcopy(self.initial)
        batch = atoms.get_batch()
        batch['energy'] = 0
        batch['energy_grad'] = []
        return batch


initial = Atoms(ch.tensor([7, 1, 1, 1]), ch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [-0.4, 0.9, 0.0], [-0.4, -0.5, 0.8]]))
ensemble = Ensemble([PairPotential() for _ in range(3)])
adv_loss = AdvLoss(train_energies=ch.randn(20), temperature=1.0)
attacker = Attacker(initial, ensemble, adv_loss)
attacker.attack(epochs=3)
