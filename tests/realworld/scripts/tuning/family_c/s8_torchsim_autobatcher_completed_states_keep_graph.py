# source: https://github.com/TorchSim/torch-sim/pull/590
# style: physics
# cause: graph_kept_alive
# line: 92
# expert: The model returns a graph-carrying `energy` (forces are already detached), and `InFlightAutoBatcher.next_batch` pops converged systems out of the running batch and hands them back to be accumulated for the rest of the run, so every completed state pins its swap's whole forward graph and memory grows with each finished system; the merged fix calls `detach_state_graph` on each popped state before it is returned.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SimState:
    def __init__(self, positions, n_steps=None, energy=None, forces=None):
        self.positions = positions
        self.n_steps = n_steps if n_steps is not None else torch.zeros(positions.shape[0], dtype=torch.long)
        self.energy = energy
        self.forces = forces

    @property
    def attributes(self):
        return {"positions": self.positions, "n_steps": self.n_steps, "energy": self.energy, "forces": self.forces}

    @property
    def n_systems(self):
        return self.positions.shape[0]

    def _select(self, idx):
        return SimState(**{k: (v[idx] if torch.is_tensor(v) else v) for k, v in self.attributes.items()})

    def pop(self, indices):
        keep = [i for i in range(self.n_systems) if i not in set(indices)]
        popped = [self._select([i]) for i in indices]
        remaining = self._select(keep)
        for k, v in remaining.attributes.items():
            setattr(self, k, v)
        return popped


def concatenate_states(states):
    attrs = {}
    for k in states[0].attributes:
        vals = [getattr(s, k) for s in states]
        attrs[k] = torch.cat(vals) if all(torch.is_tensor(v) for v in vals) else None
    return SimState(**attrs)


class UMALikeModel(nn.Module):
    """Learned interatomic potential: direct force head (detached) and a graph-carrying energy."""

    def __init__(self, hidden=32):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(3, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.energy_head = nn.Linear(hidden, 1)
        self.force_head = nn.Linear(hidden, 3)

    def forward(self, state):
        centered = state.positions - state.positions.mean(dim=1, keepdim=True)
        h = self.embed(centered)
        energy = self.energy_head(h).sum(dim=(1, 2))
        forces = (-0.5 * centered + 0.01 * self.force_head(h)).detach()
        return {"energy": energy, "forces": forces}


def gradient_descent_step(model, state, lr=1.0):
    with torch.no_grad():
        state.positions = state.positions + lr * state.forces
        state.n_steps = state.n_steps + 1
    out = model(state)
    state.energy, state.forces = out["energy"], out["forces"]
    return state


class InFlightAutoBatcher:
    def __init__(self, model, max_systems=3):
        self.model = model
        self.max_systems = max_systems

    def load_states(self, states):
        self.queue = list(states)

    def _next_states(self, n):
        new, self.queue = self.queue[:n], self.queue[n:]
        return new

    def next_batch(self, updated_state, convergence_tensor):
        if updated_state is None:
            first = concatenate_states(self._next_states(self.max_systems))
            out = self.model(first)
            first.energy, first.forces = out["energy"], out["forces"]
            return first, []
        completed_idx = torch.where(convergence_tensor)[0].tolist()
        completed_states = updated_state.pop(completed_idx)

        new_states = self._next_states(len(completed_idx))
        if new_states:
            fresh = concatenate_states(new_states)
            out = self.model(fresh)
            fresh.energy, fresh.forces = out["energy"], out["forces"]
            updated_state = concatenate_states([updated_state, fresh]) if updated_state.n_systems else fresh
        if updated_state.n_systems == 0:
            updated_state = None
        return updated_state, completed_states


def optimize(systems, model, autobatcher, fmax=0.05, max_steps=8):
    autobatcher.load_states(systems)
    state, _ = autobatcher.next_batch(None, None)
    all_completed_states = []
    while state is not None:
        state = gradient_descent_step(model, state)
        fmax_per_system = state.forces.norm(dim=-1).max(dim=-1).values
        convergence = (fmax_per_system < fmax) | (state.n_steps >= max_steps)
        state, completed_states = autobatcher.next_batch(state, convergence)
        all_completed_states.extend(completed_states)
    return all_completed_states


model = UMALikeModel()
systems = [SimState(torch.randn(1, 6, 3) * (1 + 0.3 * i)) for i in range(8)]
autobatcher = InFlightAutoBatcher(model, max_systems=3)
relaxed = optimize(systems, model, autobatcher)
for s in relaxed:
    print("relaxed system: steps", int(s.n_steps), "energy", round(float(s.energy), 4))
