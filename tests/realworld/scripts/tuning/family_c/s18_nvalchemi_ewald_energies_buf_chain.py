# source: https://github.com/NVIDIA/nvalchemi-toolkit/pull/82 (EwaldModelWrapper.forward of nvalchemi/models/ewald.py as it was before commit df001ca, cut down: the nvalchemiops Warp kernels ewald_real_space / ewald_reciprocal_space replaced by a small real-space-only torch stand-in returning per-atom energies and analytical hybrid-mode forces, a tiny learned charge model q(R) so that per_atom_energies carries a grad_fn, and a 40-step velocity-Verlet MD loop on a random 24-atom system instead of the toolkit's dynamics pipeline)
# style: physics
# cause: graph_kept_alive
# line: 83
# expert: The wrapper reuses a persistent self._energies_buf every forward via zero_() + scatter_add_(0, batch_idx, per_atom_energies). Because per_atom_energies carries a grad_fn (learned charges), the in-place ops chain each step's autograd graph onto a buffer owned by the module, so the chain is never freed: per-step cost grows linearly and memory climbs without bound in long MD runs. The merged fix keeps the clone for the caller and then calls self._energies_buf.detach_() so the next forward's zero_() starts a fresh autograd chain.
from typing import Any

import torch
import torch.nn as nn

torch.manual_seed(0)


def ewald_real_space(positions, charges, alpha, batch_idx, cutoff, hybrid_forces=True):
    """Stand-in for nvalchemiops' Warp kernel: real-space Ewald energy per atom (+ analytical forces)."""
    rij = positions[:, None, :] - positions[None, :, :]                 # (N, N, 3)
    same = batch_idx[:, None] == batch_idx[None, :]
    eye = torch.eye(positions.shape[0], dtype=torch.bool)
    d = rij.norm(dim=-1).masked_fill(eye, 1.0)
    mask = same & ~eye & (d < cutoff)
    qq = charges[:, None] * charges[None, :]
    pair = torch.where(mask, qq * torch.erfc(alpha * d) / d, torch.zeros_like(d))
    energies = 0.5 * pair.sum(1)
    # hybrid_forces: analytical forces from detached charges, no tape
    with torch.no_grad():
        qd = qq.detach()
        dEdr = -qd * (torch.erfc(alpha * d) / d ** 2
                      + 2 * alpha / torch.pi ** 0.5 * torch.exp(-(alpha * d) ** 2) / d)
        dEdr = torch.where(mask, dEdr, torch.zeros_like(d))
        forces = -(dEdr[..., None] * rij / d[..., None]).sum(1)
    return energies, forces


class ChargeModel(nn.Module):
    """Tiny learned q(R): charges from atom types and local coordination."""

    def __init__(self, n_types=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_types + 1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, types_onehot, positions):
        d = torch.cdist(positions, positions)
        coord = torch.exp(-d).sum(1, keepdim=True) - 1.0
        q = self.net(torch.cat([types_onehot, coord], dim=1)).view(-1)
        return q - q.mean()  # neutral system


class EwaldModelWrapper(nn.Module):
    def __init__(self, cutoff: float, coulomb_constant: float = 14.3996, hybrid_forces: bool = True) -> None:
        super().__init__()
        self.cutoff = cutoff
        self.coulomb_constant = coulomb_constant
        self.hybrid_forces = hybrid_forces
        self.alpha = torch.tensor(0.3)
        # Pre-allocated energy accumulation buffer (shape [B]).
        self._energies_buf: torch.Tensor | None = None

    def forward(self, positions, charges, batch_idx, B) -> dict[str, Any]:
        if self.hybrid_forces:
            positions = positions.detach()

        # --- Real-space contribution ---
        e_real, f_real = ewald_real_space(positions, charges, self.alpha, batch_idx, self.cutoff,
                                          hybrid_forces=self.hybrid_forces)
        per_atom_energies = e_real.to(positions.dtype)
        forces = f_real

        # Scale by Coulomb constant.
        per_atom_energies = per_atom_energies * self.coulomb_constant
        forces = forces * self.coulomb_constant

        # Scatter per-atom energies -> per-system totals using pre-allocated buffer.
        if (
            self._energies_buf is None
            or self._energies_buf.shape[0] != B
            or self._energies_buf.dtype != positions.dtype
            or self._energies_buf.device != positions.device
        ):
            self._energies_buf = torch.empty(
                B, dtype=positions.dtype, device=positions.device
            )
        self._energies_buf.zero_()
        self._energies_buf.scatter_add_(0, batch_idx, per_atom_energies)

        # Clone from pre-allocated buffer so the caller receives an independent tensor.
        # Without cloning, the next forward pass would overwrite this tensor in-place.
        model_output: dict[str, Any] = {
            "energy": self._energies_buf.unsqueeze(-1).clone()
        }
        model_output["forces"] = forces
        return model_output


# ---- a short MD run (two systems of 12 atoms) ----------------------------------------------
N, B = 24, 2
batch_idx = torch.arange(B).repeat_interleave(N // B)
types = torch.randint(0, 3, (N,))
types_onehot = nn.functional.one_hot(types, 3).float()
positions = torch.rand(N, 3) * 6.0
velocities = torch.zeros(N, 3)
dt, mass = 1e-3, 1.0

charge_model = ChargeModel()
model = EwaldModelWrapper(cutoff=5.0)

out = None
for step in range(40):
    charges = charge_model(types_onehot, positions)
    out = model(positions, charges, batch_idx, B)
    velocities = velocities + 0.5 * dt * out["forces"] / mass
    positions = positions + dt * velocities
    charges = charge_model(types_onehot, positions)
    out = model(positions, charges, batch_idx, B)
    velocities = velocities + 0.5 * dt * out["forces"] / mass
    if step % 10 == 0:
        print(f"step {step}: E = {out['energy'].view(-1).tolist()}")

print("final energies", out["energy"].view(-1).tolist())
