# source: https://github.com/CampusAI/Hamiltonian-Generative-Networks/commit/99ae7ddb2f44d2a558c4ff1e53bba94de7bc25b6 ("Fix memory leak in test losses": train() of train.py as it was before this commit, with HGN, Integrator and HgnResult cut down from hamiltonian_generative_network.py and utilities/, small conv nets, random 16x16 rollouts instead of the pendulum dataset, and a print instead of TrainingLogger.log_test_error)
# style: physics
# cause: graph_kept_alive
# line: 252
# expert: The test loop cannot run under torch.no_grad() because the integrator differentiates the Hamiltonian, so every test forward builds the full rollout graph (with create_graph); test_error += error / len(test_loader) keeps the tensor error, and with it every test batch's graph, alive until the end of the loop. The commit's fix stores a plain number: error = loss(...).detach().cpu().numpy().
import torch
import torch.nn as nn

torch.manual_seed(0)


# ---- utilities/conversions.py ----------------------------------------------
def concat_rgb(batch):
    """Concatenate the images along channel dimension: (batch, seq, C, H, W) -> (batch, seq*C, H, W)."""
    batch_size, seq_len, channels, h, w = batch.shape
    return batch.reshape((batch_size, seq_len * channels, h, w))


# ---- networks (encoder_net, transformer_net, hamiltonian_net, decoder_net), cut down --------
class EncoderNet(nn.Module):
    def __init__(self, seq_len, in_channels, hidden=8, out_channels=4):
        super().__init__()
        self.input_conv = nn.Conv2d(seq_len * in_channels, hidden, 3, padding=1)
        self.out_mean = nn.Conv2d(hidden, out_channels, 3, padding=1)
        self.out_logvar = nn.Conv2d(hidden, out_channels, 3, padding=1)
        self.activation = nn.ReLU()

    def forward(self, x, sample=True):
        x = self.activation(self.input_conv(x))
        mean = self.out_mean(x)
        if not sample:
            return mean, None, None
        logvar = self.out_logvar(x)
        stddev = torch.exp(0.5 * logvar)
        epsilon = torch.randn_like(mean)
        z = mean + stddev * epsilon
        return z, mean, logvar


class TransformerNet(nn.Module):
    def __init__(self, in_channels, hidden=8, out_channels=2):
        super().__init__()
        self.input_conv = nn.Conv2d(in_channels, hidden, 3, padding=1)
        self.out_conv = nn.Conv2d(hidden, 2 * out_channels, 3, padding=1)
        self.activation = nn.LeakyReLU()

    def forward(self, x):
        x = self.out_conv(self.activation(self.input_conv(x)))
        q, p = torch.chunk(x, 2, dim=1)
        return q, p


class HamiltonianNet(nn.Module):
    def __init__(self, in_channels=2, hidden=8):
        super().__init__()
        self.in_conv = nn.Conv2d(2 * in_channels, hidden, 3, padding=1)
        self.out_conv = nn.Conv2d(hidden, 1, 2)
        self.activation = nn.Softplus()

    def forward(self, q, p):
        x = torch.cat((q, p), dim=1)
        x = self.activation(self.in_conv(x))
        x = self.out_conv(x)
        return x.sum(dim=(1, 2, 3))


class DecoderNet(nn.Module):
    def __init__(self, in_channels=2, hidden=8, out_channels=3):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, hidden, 3, padding=1)
        self.out_conv = nn.Conv2d(hidden, out_channels, 3, padding=1)
        self.activation = nn.LeakyReLU()

    def forward(self, q):
        return torch.sigmoid(self.out_conv(self.activation(self.conv(q))))


# ---- utilities/hgn_result.py (cut down) -------------------------------------
class HgnResult:
    def __init__(self, batch_shape, device):
        self.input = None
        self.z_mean = None
        self.z_logvar = None
        self.z_sample = None
        self.q_s = []
        self.p_s = []
        self.reconstructed_rollout = torch.empty(batch_shape).to(device)
        self.reconstruction_ptr = 0

    def set_input(self, rollout):
        self.input = rollout

    def set_z(self, z_sample, z_mean=None, z_logvar=None):
        self.z_sample, self.z_mean, self.z_logvar = z_sample, z_mean, z_logvar

    def append_state(self, q, p):
        self.q_s.append(q)
        self.p_s.append(p)

    def append_reconstruction(self, reconstruction):
        self.reconstructed_rollout[:, self.reconstruction_ptr] = reconstruction
        self.reconstruction_ptr += 1


# ---- utilities/integrator.py ------------------------------------------------
class Integrator:
    METHODS = ["Euler", "Leapfrog"]

    def __init__(self, delta_t, method="Euler"):
        if method not in self.METHODS:
            raise KeyError(method)
        self.delta_t = delta_t
        self.method = method

    def _get_grads(self, q, p, hnn, remember_energy=False):
        # Compute energy of the system
        energy = hnn(q=q, p=p)

        # dq_dt = dH/dp
        dq_dt = torch.autograd.grad(energy,
                                    p,
                                    create_graph=True,
                                    retain_graph=True,
                                    grad_outputs=torch.ones_like(energy))[0]

        # dp_dt = -dH/dq
        dp_dt = -torch.autograd.grad(energy,
                                     q,
                                     create_graph=True,
                                     retain_graph=True,
                                     grad_outputs=torch.ones_like(energy))[0]

        if remember_energy:
            self.energy = energy.detach().cpu().numpy()

        return dq_dt, dp_dt

    def _euler_step(self, q, p, hnn):
        dq_dt, dp_dt = self._get_grads(q, p, hnn, remember_energy=True)

        # Euler integration
        q_next = q + self.delta_t * dq_dt
        p_next = p + self.delta_t * dp_dt
        return q_next, p_next

    def _lf_step(self, q, p, hnn):
        # get acceleration
        _, dp_dt = self._get_grads(q, p, hnn)
        # leapfrog step
        p_next_half = p + dp_dt * (self.delta_t) / 2
        q_next = q + p_next_half * self.delta_t
        # momentum synchronization
        _, dp_next_dt = self._get_grads(q_next, p_next_half, hnn, remember_energy=True)
        p_next = p_next_half + dp_next_dt * (self.delta_t) / 2
        return q_next, p_next

    def step(self, q, p, hnn):
        if self.method == "Euler":
            return self._euler_step(q, p, hnn)
        if self.method == "Leapfrog":
            return self._lf_step(q, p, hnn)
        raise NotImplementedError


# ---- hamiltonian_generative_network.py ---------------------------------------
class HGN:
    def __init__(self, encoder, transformer, hnn, decoder, integrator, optimizer, loss,
                 device, seq_len, channels=3):
        self.seq_len = seq_len
        self.channels = channels
        self.device = device
        self.encoder = encoder
        self.transformer = transformer
        self.hnn = hnn
        self.decoder = decoder
        self.integrator = integrator
        self.optimizer = optimizer
        self.loss = loss

    def forward(self, rollout_batch, n_steps=None, variational=True):
        n_steps = self.seq_len if n_steps is None else n_steps

        # Instantiate prediction object
        prediction_shape = list(rollout_batch.shape)
        prediction_shape[1] = n_steps
        prediction = HgnResult(batch_shape=torch.Size(prediction_shape), device=self.device)
        prediction.set_input(rollout_batch)

        # Concat along channel dimension
        rollout_batch = concat_rgb(rollout_batch)

        # Latent distribution
        z, z_mean, z_logvar = self.encoder(rollout_batch, sample=variational)
        prediction.set_z(z_mean=z_mean, z_logvar=z_logvar, z_sample=z)

        # Initial state
        q, p = self.transformer(z)
        prediction.append_state(q=q, p=p)

        # Initial state reconstruction
        x_reconstructed = self.decoder(q)
        prediction.append_reconstruction(x_reconstructed)

        # Estimate predictions
        for _ in range(n_steps - 1):
            # Compute next state
            q, p = self.integrator.step(q=q, p=p, hnn=self.hnn)
            prediction.append_state(q=q, p=p)

            # Compute state reconstruction
            x_reconstructed = self.decoder(q)
            prediction.append_reconstruction(x_reconstructed)
        return prediction

    def fit(self, rollouts, variational=True):
        # Re-set gradients and forward new batch
        self.optimizer.zero_grad()
        prediction = self.forward(rollout_batch=rollouts, variational=variational)

        # Compute frame reconstruction error
        reconstruction_error = self.loss(input=prediction.input,
                                         target=prediction.reconstructed_rollout)
        total_loss = reconstruction_error
        kl_div = None
        if variational:
            mu = prediction.z_mean.flatten(1)
            logvar = prediction.z_logvar.flatten(1)
            kl_div = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1).mean()
            total_loss = total_loss + 0.01 * kl_div

        # Optimization step
        total_loss.backward()
        self.optimizer.step()
        return reconstruction_error.item(), kl_div.item() if kl_div is not None else None, prediction


def train(hgn, data_loader, test_loader, epochs=1, test=True):
    for ep in range(epochs):
        print("Epoch %s / %s" % (str(ep), str(epochs)))
        for _, rollout_batch in enumerate(data_loader):
            # Do an optimization step
            error, kld, prediction = hgn.fit(rollouts=rollout_batch, variational=True)
            print("Loss: %s, KL: %s" % (round(error, 5), round(kld, 5)))

    # Test result
    if test:
        loss = torch.nn.MSELoss()
        print("Testing...")
        test_error = 0
        for _, rollout_batch in enumerate(test_loader):
            prediction = hgn.forward(rollout_batch=rollout_batch, variational=True)
            error = loss(
                input=prediction.input,
                target=prediction.reconstructed_rollout
            ).detach().cpu().numpy()
            test_error += error / len(test_loader)
        print("Test error:", test_error.item())
    return hgn


seq_len = 4
encoder = EncoderNet(seq_len=seq_len, in_channels=3)
transformer = TransformerNet(in_channels=4)
hnn = HamiltonianNet(in_channels=2)
decoder = DecoderNet(in_channels=2, out_channels=3)
integrator = Integrator(delta_t=0.125, method="Euler")
optim_params = [
    {'params': encoder.parameters()},
    {'params': transformer.parameters()},
    {'params': hnn.parameters()},
    {'params': decoder.parameters()},
]
optimizer = torch.optim.Adam(optim_params, lr=1e-3)
hgn = HGN(encoder, transformer, hnn, decoder, integrator, optimizer,
          torch.nn.MSELoss(), device='cpu', seq_len=seq_len)

# stand in for the pendulum train / test rollouts of environments/datasets.py
data_loader = [torch.rand(2, seq_len, 3, 16, 16) for _ in range(2)]
test_loader = [torch.rand(2, seq_len, 3, 16, 16) for _ in range(4)]
hgn = train(hgn, data_loader, test_loader, epochs=1, test=True)
