# source: https://github.com/TorchSim/torch-sim/pull/559
# style: physics
# cause: graph_kept_alive
# line: 307
# expert: With a conservative force field the model sets positions.requires_grad=True, so s_new = positions - prev_positions has a grad_fn; lbfgs_step extends state.s_history / state.y_history with torch.cat each step and the next step's search direction (and positions) is computed from them, so every step adds one link and all previous history buffers plus their saved intermediates stay alive (memory grows linearly until OOM). Fix merged in the PR: store the buffers detached, state.s_history = s_hist.detach() and state.y_history = y_hist.detach(); they are pure numerical state and no backward is ever taken through them.
# torch_sim/optimizers/lbfgs.py (lbfgs_init / lbfgs_step as before a78df6f6) and the LBFGSState /
# SimState fields it uses, cut down to the position-only branch (no cell filter, no constraints);
# a small Lennard-Jones force field that, like the ORB-v3 *_conservative_* model of the report,
# turns on positions.requires_grad and computes forces with torch.autograd.grad stands in for
# ORB; two random 8-atom clusters instead of the 1614 structures, 40 steps, CPU.
from dataclasses import dataclass

import torch

torch.manual_seed(0)


@dataclass(kw_only=True)
class SimState:
    positions: torch.Tensor
    masses: torch.Tensor
    system_idx: torch.Tensor

    @property
    def n_systems(self) -> int:
        return int(self.system_idx.max().item()) + 1

    @property
    def n_atoms_per_system(self) -> torch.Tensor:
        return torch.bincount(self.system_idx, minlength=self.n_systems)

    def set_constrained_positions(self, new_positions: torch.Tensor) -> None:
        self.positions = new_positions

    def store_model_extras(self, model_output: dict) -> None:
        pass


@dataclass(kw_only=True)
class LBFGSState(SimState):
    forces: torch.Tensor
    energy: torch.Tensor
    stress: torch.Tensor | None
    prev_forces: torch.Tensor
    prev_positions: torch.Tensor
    s_history: torch.Tensor
    y_history: torch.Tensor
    step_size: torch.Tensor
    alpha: torch.Tensor
    n_iter: torch.Tensor
    max_atoms: torch.Tensor  # [S] atoms per system for padding support

    def set_constrained_forces(self, new_forces: torch.Tensor) -> None:
        self.forces = new_forces

    @classmethod
    def from_state(cls, state: SimState, **kwargs):
        return cls(positions=state.positions, masses=state.masses,
                   system_idx=state.system_idx, **kwargs)


class ConservativeLennardJones(torch.nn.Module):
    """Stand-in for ORB-v3 conservative: forces = -dE/dpositions via autograd."""

    def __init__(self, sigma=1.0, epsilon=1.0):
        super().__init__()
        self.sigma, self.epsilon = sigma, epsilon
        self.device, self.dtype = torch.device("cpu"), torch.float64

    def forward(self, state: SimState) -> dict:
        positions = state.positions
        positions.requires_grad_(True)
        with torch.enable_grad():
            same = state.system_idx[:, None] == state.system_idx[None, :]
            diff = positions[:, None, :] - positions[None, :, :]
            n = positions.shape[0]
            eye = torch.eye(n, dtype=torch.bool)
            r2 = (diff ** 2).sum(-1).masked_fill(eye, 1.0)
            sr6 = (self.sigma ** 2 / r2) ** 3
            pair = 4 * self.epsilon * (sr6 ** 2 - sr6)
            pair = pair.masked_fill(eye | ~same, 0.0)
            atom_energy = 0.5 * pair.sum(1)
            energy = torch.zeros(state.n_systems, dtype=self.dtype).index_add(0, state.system_idx, atom_energy)
            forces = -torch.autograd.grad(energy.sum(), positions)[0]
        return {"energy": energy.detach(), "forces": forces}


def _compute_atom_idx(system_idx: torch.Tensor, n_systems: int) -> torch.Tensor:
    device = system_idx.device
    counts = torch.bincount(system_idx, minlength=n_systems)
    offsets = torch.zeros(n_systems, device=device, dtype=torch.long)
    if n_systems > 1:
        offsets[1:] = counts[:-1].cumsum(0)
    return torch.arange(len(system_idx), device=device) - offsets[system_idx]


def _atoms_to_padded(x, system_idx, n_systems, max_atoms):
    device, dtype = x.device, x.dtype
    out = torch.zeros((n_systems, max_atoms, 3), device=device, dtype=dtype)
    atom_idx = _compute_atom_idx(system_idx, n_systems)
    out[system_idx, atom_idx] = x
    return out


def _padded_to_atoms(x, system_idx):
    n_systems = x.shape[0]
    atom_idx = _compute_atom_idx(system_idx, n_systems)
    return x[system_idx, atom_idx]


def _per_system_vdot(a, b, mask):
    # Element-wise product then sum over atoms and coordinates
    prod = (a * b).sum(dim=-1)  # [S, M]
    prod = prod * mask.float()  # Zero out padded atoms
    return prod.sum(dim=-1)  # [S]


def lbfgs_init(state, model, *, step_size=0.1, alpha=None):
    device, dtype = model.device, model.dtype

    n_systems = state.n_systems  # S

    # Compute max atoms per system for per-system history storage
    counts = state.n_atoms_per_system  # [S]
    global_max_atoms = int(counts.max().item()) if len(counts) > 0 else 0  # M
    max_atoms = counts.clone()  # [S] - each system's atom count

    # Get initial forces and energy from model
    model_output = model(state)
    energy = model_output["energy"]  # [S]
    forces = model_output["forces"]  # [N, 3]
    stress = model_output.get("stress")  # [S, 3, 3] or None

    # Initialize empty per-system history tensors
    s_history = torch.zeros((n_systems, 0, global_max_atoms, 3), device=device, dtype=dtype)
    y_history = torch.zeros((n_systems, 0, global_max_atoms, 3), device=device, dtype=dtype)

    # Alpha tensor: 0.0 means dynamic, >0 means fixed
    alpha_tensor = torch.as_tensor(alpha or 0.0, device=device, dtype=dtype)
    if alpha_tensor.ndim == 0:
        alpha_tensor = alpha_tensor.expand(n_systems)

    step_size_tensor = torch.as_tensor(step_size, device=device, dtype=dtype)
    if step_size_tensor.ndim == 0:
        step_size_tensor = step_size_tensor.expand(n_systems)

    lbfgs_attrs = {
        "forces": forces,  # [N, 3]
        "energy": energy,  # [S]
        "stress": stress,  # [S, 3, 3] or None
        "prev_forces": forces.clone(),  # [N, 3]
        "prev_positions": state.positions.clone(),  # [N, 3]
        "s_history": s_history,  # [S, 0, M, 3]
        "y_history": y_history,  # [S, 0, M, 3]
        "step_size": step_size_tensor,  # [S]
        "alpha": alpha_tensor,  # [S]
        "n_iter": torch.zeros((n_systems,), device=model.device, dtype=torch.int32),
        "max_atoms": max_atoms,  # [S] atoms per system for padding
    }

    lbfgs_state = LBFGSState.from_state(state, **lbfgs_attrs)
    lbfgs_state.store_model_extras(model_output)
    return lbfgs_state


def lbfgs_step(state, model, *, max_history=20, max_step=0.2, curvature_eps=1e-12):
    device, dtype = model.device, model.dtype
    eps = 1e-8 if dtype == torch.float32 else 1e-16
    n_systems = state.n_systems  # S

    # Derive max_atoms from history shape: [S, H, M, 3]
    history_dim = state.s_history.shape[2]  # M
    max_atoms = history_dim  # M

    # Create valid atom mask for per-system operations: [S, M]
    atom_mask = torch.arange(max_atoms, device=device)[None] < state.max_atoms[:, None]
    ext_mask = atom_mask  # [S, M]

    # Convert to padded per-system format: [S, M, 3]
    g = _atoms_to_padded(-state.forces, state.system_idx, n_systems, max_atoms)

    # Two-loop recursion to compute search direction d = -H_k g_k
    cur_history_len = state.s_history.shape[1]  # H
    q = g.clone()  # [S, M, 3]
    alphas: list[torch.Tensor] = []  # list of [S] tensors

    # First loop (from newest to oldest)
    for i in range(cur_history_len - 1, -1, -1):
        s_i = state.s_history[:, i]  # [S, M, 3]
        y_i = state.y_history[:, i]  # [S, M, 3]

        ys = _per_system_vdot(y_i, s_i, ext_mask)  # [S]
        rho = torch.where(
            ys.abs() > curvature_eps,
            1.0 / (ys + eps),
            torch.zeros_like(ys),
        )  # [S]
        sq = _per_system_vdot(s_i, q, ext_mask)  # [S]
        alpha = rho * sq  # [S]
        alphas.append(alpha)

        # q <- q - alpha * y_i (broadcast alpha to [S, 1, 1])
        q = q - alpha.view(-1, 1, 1) * y_i  # [S, M, 3]

    # Initial H0 scaling: gamma = (s^T y)/(y^T y) using the last pair
    if cur_history_len > 0:
        s_last = state.s_history[:, -1]  # [S, M, 3]
        y_last = state.y_history[:, -1]  # [S, M, 3]
        sy = _per_system_vdot(s_last, y_last, ext_mask)  # [S]
        yy = _per_system_vdot(y_last, y_last, ext_mask)  # [S]
        gamma_dynamic = torch.where(
            yy.abs() > curvature_eps,
            sy / (yy + eps),
            torch.ones_like(yy),
        )  # [S]
    else:
        gamma_dynamic = torch.ones((n_systems,), device=device, dtype=dtype)  # [S]

    # Fixed gamma (ASE style: 1/alpha)
    is_fixed = state.alpha > 1e-6  # [S] bool
    gamma_fixed = 1.0 / (state.alpha + eps)  # [S]
    gamma = torch.where(is_fixed, gamma_fixed, gamma_dynamic)  # [S]

    # z = gamma * q (broadcast gamma to [S, 1, 1])
    z = gamma.view(-1, 1, 1) * q  # [S, M, 3]

    # Second loop (from oldest to newest)
    for i in range(cur_history_len):
        s_i = state.s_history[:, i]  # [S, M, 3]
        y_i = state.y_history[:, i]  # [S, M, 3]

        ys = _per_system_vdot(y_i, s_i, ext_mask)  # [S]
        rho = torch.where(
            ys.abs() > curvature_eps,
            1.0 / (ys + eps),
            torch.zeros_like(ys),
        )  # [S]
        yz = _per_system_vdot(y_i, z, ext_mask)  # [S]
        beta = rho * yz  # [S]

        alpha_i = alphas[cur_history_len - 1 - i]  # [S]
        # z <- z + s_i * (alpha - beta)
        coeff = (alpha_i - beta).view(-1, 1, 1)  # [S, 1, 1]
        z = z + s_i * coeff  # [S, M, 3]

    d = -z  # search direction: [S, M, 3]

    # Apply step_size scaling per system: [S, 1, 1]
    step = state.step_size.view(-1, 1, 1) * d  # [S, M, 3]

    # Per-system max norm (only over valid atoms/DOFs)
    step_norms = torch.linalg.norm(step, dim=-1)  # [S, M]
    step_norms = step_norms * ext_mask.float()  # Zero out padded
    sys_max = step_norms.max(dim=1).values  # [S]

    # Scaling factors per system: <= 1.0
    scale = torch.where(
        sys_max > max_step,
        max_step / (sys_max + eps),
        torch.ones_like(sys_max),
    )  # [S]
    step = scale.view(-1, 1, 1) * step  # [S, M, 3]

    step_padded = step  # [S, M, 3]
    step_positions = _padded_to_atoms(step_padded, state.system_idx)

    # Save previous state for history update
    state.prev_positions = state.positions.clone()  # [N, 3]
    state.prev_forces = state.forces.clone()  # [N, 3]
    state.set_constrained_positions(state.positions + step_positions)  # [N, 3]

    # Evaluate new forces/energy
    model_output = model(state)
    new_forces = model_output["forces"]  # [N, 3]
    new_energy = model_output["energy"]  # [S]
    new_stress = model_output.get("stress")  # [S, 3, 3] or None
    state.store_model_extras(model_output)

    # Update state
    state.set_constrained_forces(new_forces)  # [N, 3]
    state.energy = new_energy  # [S]
    state.stress = new_stress  # [S, 3, 3] or None

    # s_new = pos_new - pos_old: [N, 3] -> [S, M, 3]
    s_new_atoms = state.positions - state.prev_positions  # [N, 3]
    s_new = _atoms_to_padded(s_new_atoms, state.system_idx, n_systems, max_atoms)  # [S, M, 3]
    # y_new = grad_diff: [N, 3] -> [S, M, 3]
    y_new_atoms = -new_forces - (-state.prev_forces)  # [N, 3]
    y_new = _atoms_to_padded(y_new_atoms, state.system_idx, n_systems, max_atoms)  # [S, M, 3]

    # Append history and trim if needed
    cur_history_len = state.s_history.shape[1]  # H
    if cur_history_len == 0:
        s_hist = s_new.unsqueeze(1)  # [S, 1, M, 3]
        y_hist = y_new.unsqueeze(1)  # [S, 1, M, 3]
    else:
        s_hist = torch.cat([state.s_history, s_new.unsqueeze(1)], dim=1)
        y_hist = torch.cat([state.y_history, y_new.unsqueeze(1)], dim=1)
    # Trim to max_history
    if s_hist.shape[1] > max_history:
        s_hist = s_hist[:, -max_history:]  # [S, max_history, ...]
        y_hist = y_hist[:, -max_history:]

    state.prev_forces = new_forces.clone()  # [N, 3]
    state.prev_positions = state.positions.clone()  # [N, 3]

    state.s_history = s_hist.detach()  # [S, H, M, 3]
    state.y_history = y_hist.detach()  # [S, H, M, 3]
    state.n_iter = state.n_iter + 1  # [S]

    return state


if __name__ == "__main__":
    model = ConservativeLennardJones()
    # two 8-atom clusters on a jittered cubic grid
    grid = torch.stack(torch.meshgrid(*[torch.arange(2.0)] * 3, indexing="ij"), -1).reshape(-1, 3)
    positions = torch.cat([grid * 1.15, grid * 1.15 + 10.0]).double()
    positions = positions + 0.05 * torch.randn_like(positions)
    state = SimState(positions=positions, masses=torch.ones(16, dtype=torch.float64),
                     system_idx=torch.repeat_interleave(torch.arange(2), 8))

    state = lbfgs_init(state, model, step_size=0.1)
    for step in range(40):
        state = lbfgs_step(state, model)
        if step % 10 == 0:
            print(f"step {step}: energy {state.energy.tolist()}")
    print("final energy", state.energy.tolist())
