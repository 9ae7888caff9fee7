# source: variant of https://github.com/NVIDIA/nvalchemi-toolkit/pull/82 (the same EwaldModelWrapper.forward as before commit df001ca, with the small torch stand-in for the Warp Ewald kernel and the learned charge model q(R), but driven by a training loop that fits the charge model to reference energies with energy.backward() every step, instead of the MD run the PR describes)
# style: physics
# cause: tensor_reused_across_iterations
# line: 83
# expert: The persistent self._energies_buf is reused every forward via zero_() + scatter_add_(0, batch_idx, per_atom_energies); since per_atom_energies carries a grad_fn, the in-place ops chain each step's autograd graph onto the module-owned buffer. In training, the second step's energy is a clone of a buffer whose graph still reaches the first step's (already backpropagated and freed) graph, so loss.backward() fails. The fix from the PR: call self._energies_buf.detach_() right after cloning the energy for the caller, so the next zero_() starts a fresh chain.
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
        self._energies_buf.detach_()
        model_output["forces"] = forces
        return model_output


# ---- fitting the charge model to reference energies (training mode) ---------------------------
N, B = 24, 2
batch_idx = torch.arange(B).repeat_interleave(N // B)
types = torch.randint(0, 3, (N,))
types_onehot = nn.functional.one_hot(types, 3).float()
frames = [torch.rand(N, 3) * 6.0 for _ in range(6)]
ref_energies = [torch.randn(B, 1) * 0.05 for _ in range(6)]

charge_model = ChargeModel()
model = EwaldModelWrapper(cutoff=5.0)
optimizer = torch.optim.Adam(charge_model.parameters(), lr=1e-2)

for epoch in range(2):
    for positions, e_ref in zip(frames, ref_energies):
        charges = charge_model(types_onehot, positions)
        out = model(positions, charges, batch_idx, B)
        loss = ((out["energy"] - e_ref) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.6f}")
