# source: https://github.com/lab-cosmo/torch-pme/issues/62
# style: physics
# cause: tensor_reused_across_iterations
# line: 126
# expert: the PME calculator cached its MeshInterpolator (built from the differentiable cell, inverse_cell = inv(cell)) keyed on the cell values, so a second call with an equal cell reused tensors whose graph the first backward had freed; the maintainers disabled the caching ("disable caching" commit) and build the MeshInterpolator from cell inside every call
import math
import torch

torch.manual_seed(0)


class MeshInterpolator:
    """Assign particle weights to a mesh and interpolate mesh values back (order-3 PME splines)."""

    def __init__(self, cell: torch.Tensor, ns_mesh: torch.Tensor, interpolation_order: int):
        self.cell = cell
        self.inverse_cell = torch.linalg.inv(cell)
        self.ns_mesh = ns_mesh
        self.interpolation_order = interpolation_order
        self._dtype = cell.dtype
        self._device = cell.device

    def _compute_1d_weights(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x * x
        return torch.stack([1 / 8 * (1 - 4 * x + 4 * x2), 1 / 4 * (3 - 4 * x2), 1 / 8 * (1 + 4 * x + 4 * x2)])

    def compute_interpolation_weights(self, positions: torch.Tensor):
        positions_rel = self.ns_mesh * torch.matmul(positions, self.inverse_cell)
        positions_rel_idx = torch.round(positions_rel).long()
        offsets = positions_rel - positions_rel_idx
        self.interpolation_weights = self._compute_1d_weights(offsets)
        indices_to_interpolate = torch.stack(
            [(positions_rel_idx + i) % self.ns_mesh
             for i in range(1 - (self.interpolation_order + 1) // 2, 1 + self.interpolation_order // 2)],
            dim=0,
        )
        x_shifts, y_shifts, z_shifts = torch.meshgrid(
            torch.arange(self.interpolation_order), torch.arange(self.interpolation_order),
            torch.arange(self.interpolation_order), indexing="ij")
        self.x_shifts = x_shifts.flatten()
        self.y_shifts = y_shifts.flatten()
        self.z_shifts = z_shifts.flatten()
        self.x_indices = indices_to_interpolate[self.x_shifts, :, 0]
        self.y_indices = indices_to_interpolate[self.y_shifts, :, 1]
        self.z_indices = indices_to_interpolate[self.z_shifts, :, 2]

    def points_to_mesh(self, particle_weights: torch.Tensor) -> torch.Tensor:
        n_channels = particle_weights.shape[1]
        nx, ny, nz = (int(n) for n in self.ns_mesh)
        rho_mesh = torch.zeros((n_channels, nx, ny, nz), dtype=self._dtype)
        for a in range(n_channels):
            rho_mesh[a].index_put_(
                (self.x_indices, self.y_indices, self.z_indices),
                (particle_weights[:, a]
                 * self.interpolation_weights[self.x_shifts, :, 0]
                 * self.interpolation_weights[self.y_shifts, :, 1]
                 * self.interpolation_weights[self.z_shifts, :, 2]),
                accumulate=True,
            )
        return rho_mesh

    def mesh_to_points(self, mesh_vals: torch.Tensor) -> torch.Tensor:
        return (
            (mesh_vals[:, self.x_indices, self.y_indices, self.z_indices]
             * self.interpolation_weights[self.x_shifts, :, 0]
             * self.interpolation_weights[self.y_shifts, :, 1]
             * self.interpolation_weights[self.z_shifts, :, 2])
            .sum(dim=1)
            .T
        )


class KSpaceFilter:
    """Gaussian-smeared Coulomb kernel applied on the mesh with FFTs."""

    def __init__(self, smearing: float):
        self.smearing = smearing
        self.kernel = None

    def update_mesh(self, ns: torch.Tensor):
        freqs = [torch.fft.fftfreq(int(n)) * 2 * math.pi for n in ns]
        kx, ky, kz = torch.meshgrid(*freqs, indexing="ij")
        k2 = kx ** 2 + ky ** 2 + kz ** 2
        kernel = 4 * math.pi * torch.exp(-0.5 * self.smearing ** 2 * k2) / k2.clamp(min=1e-12)
        kernel[0, 0, 0] = 0.0
        self.kernel = kernel

    def compute(self, rho_mesh: torch.Tensor) -> torch.Tensor:
        return torch.fft.ifftn(torch.fft.fftn(rho_mesh, dim=(1, 2, 3)) * self.kernel, dim=(1, 2, 3)).real


def get_ns_mesh(cell: torch.Tensor, mesh_spacing: float) -> torch.Tensor:
    basis_norms = torch.linalg.norm(cell.detach(), dim=1)
    return torch.ceil(basis_norms / mesh_spacing).long().clamp(min=4)


class PMEPotential(torch.nn.Module):
    def __init__(self, atomic_smearing: float = 1.0, mesh_spacing: float = 0.5, interpolation_order: int = 3):
        super().__init__()
        self.atomic_smearing = atomic_smearing
        self.mesh_spacing = mesh_spacing
        self.interpolation_order = interpolation_order
        self._KF = KSpaceFilter(self.atomic_smearing)

    def forward(self, positions, charges, cell):
        return self._compute_lr(positions, charges, cell, self.atomic_smearing, self.mesh_spacing)

    def _compute_lr(self, positions, charges, cell, smearing, lr_wavelength):
        # TODO: Kernel function `G` and initialization of `MeshInterpolator` only depend on
        # `cell`. Caching may save up to 15% but issues with AD should be resolved first.

        # Init 0 (Preparation): number of mesh points along each cell vector
        ns = get_ns_mesh(cell, lr_wavelength)

        # Init 1: Initialize mesh interpolator
        MI = MeshInterpolator(cell, ns, interpolation_order=self.interpolation_order)

        # Update the mesh for the k-space filter
        self._KF.update_mesh(ns)

        # Step 1. Compute density interpolation
        MI.compute_interpolation_weights(positions)
        rho_mesh = MI.points_to_mesh(particle_weights=charges)

        # Step 2: Perform actual convolution using FFT
        potential_mesh = self._KF.compute(rho_mesh)

        # Step 3: Back interpolation, and apply cell volume scaling
        ivolume = torch.abs(cell.det()).pow(-1)
        interpolated_potential = MI.mesh_to_points(potential_mesh) * ivolume

        # Compensate for double counting of pairs (i,j) and (j,i)
        return interpolated_potential / 2


calculator = PMEPotential(atomic_smearing=1.0, mesh_spacing=0.5, interpolation_order=3)

# two independent evaluations (e.g. two MD frames) in the same periodic box
for frame in range(2):
    positions = (5 * torch.rand((20, 3), dtype=torch.float64)).requires_grad_()
    cell = (5 * torch.eye(3, dtype=torch.float64)).requires_grad_()
    charges = torch.randn((20, 1), dtype=torch.float64)
    charges = charges - charges.mean()

    potential = calculator(positions, charges, cell)
    energy = (charges * potential).sum()
    energy.backward()
    forces = -positions.grad
    stress = cell.grad
    print(frame, energy.item(), forces.norm().item(), stress.norm().item())
