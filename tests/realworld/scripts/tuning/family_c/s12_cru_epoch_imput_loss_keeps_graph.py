# source: https://github.com/boschresearch/Continuous-Recurrent-Units/pull/4
# style: timeseries
# cause: graph_kept_alive
# line: 178
# expert: train_epoch accumulates the tensors loss, imput_loss and imput_mse into epoch_* sums; imput_loss/imput_mse are never backwarded, so every batch's whole CRU graph (encoder, filter steps, decoder) stays alive until the end of the epoch and memory grows with the number of batches. The merged fix ("Avoid memory usage of past computations") accumulates loss.item(), imput_loss.item() and imput_mse.item().
from types import SimpleNamespace

import numpy as np
import torch

optim = torch.optim
nn = torch.nn

torch.manual_seed(0)
np.random.seed(0)


# taken from https://github.com/ALRhub/rkn_share/ and modified
def rmse(target, predicted, mask=None):
    """Root Mean Squared Error"""
    if mask is None:
        mask = torch.ones_like(predicted)
    else:
        assert mask.shape == predicted.shape == target.shape
    return torch.sqrt(torch.sum(mask * torch.square(target - predicted)) / torch.sum(mask))


# taken from https://github.com/ALRhub/rkn_share/ and modified
def mse(target, predicted, mask=None):
    """Mean Squared Error"""
    if mask is None:
        mask = torch.ones_like(predicted)
    else:
        assert mask.shape == predicted.shape == target.shape
    return torch.sum(mask * torch.square(target - predicted)) / torch.sum(mask)


def GaussianNegLogLik(targets, pred_mean, pred_variance, mask=None, normalize_dim=False):
    """ Computes Gaussian Negaitve Loglikelihood """
    assert pred_mean.shape == targets.shape == pred_variance.shape
    epsilon = 1e-6 * torch.ones_like(pred_mean)
    pred_variance = torch.maximum(pred_variance, epsilon)
    if mask is None:
        mask = torch.ones_like(pred_mean)
    const = np.log(2 * np.pi)
    sample_dim_time_wise = mask * \
        (torch.log(pred_variance) + torch.square(pred_mean - targets) / pred_variance + const)
    sample_time_wise = 0.5 * torch.sum(sample_dim_time_wise, -1)
    if normalize_dim:
        num_dim_observed = torch.sum(mask, -1)
        sample_time_wise = sample_time_wise / num_dim_observed
    sample_wise = torch.mean(sample_time_wise, 1)
    return torch.mean(sample_wise)


def var_activation(x):
    return torch.log(1 + torch.exp(x))


class Encoder(nn.Module):
    def __init__(self, obs_dim, lod):
        super().__init__()
        self._hidden = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU())
        self._mean = nn.Linear(32, lod)
        self._log_var = nn.Linear(32, lod)

    def forward(self, obs):
        h = self._hidden(obs)
        return self._mean(h), var_activation(self._log_var(h))


class CRULayer(nn.Module):
    """Continuous-discrete Kalman filter with a diagonal, learned transition rate (reduced CRU cell)."""
    def __init__(self, latent_obs_dim):
        super().__init__()
        self._lod = latent_obs_dim
        self._log_rate = nn.Parameter(torch.zeros(2 * latent_obs_dim, dtype=torch.float64))
        self._log_process_noise = nn.Parameter(torch.full((2 * latent_obs_dim,), -2.0, dtype=torch.float64))

    def forward(self, y, y_var, initial_mean, initial_cov, obs_valid, time_points):
        batch, T, _ = y.shape
        post_mean = initial_mean.expand(batch, -1)
        post_cov = initial_cov.expand(batch, -1)
        post_means, post_covs = [], []
        prev_t = time_points[:, :1]
        for t in range(T):
            dt = (time_points[:, t:t + 1] - prev_t).clamp(min=0)
            prev_t = time_points[:, t:t + 1]
            decay = torch.exp(-var_activation(self._log_rate) * dt)
            prior_mean = decay * post_mean
            prior_cov = decay ** 2 * post_cov + var_activation(self._log_process_noise) * dt
            # observe the upper half of the latent state
            obs_cov = prior_cov[:, :self._lod]
            kalman_gain = obs_cov / (obs_cov + y_var[:, t])
            valid = obs_valid[:, t:t + 1].to(y.dtype)
            upd_mean = prior_mean[:, :self._lod] + valid * kalman_gain * (y[:, t] - prior_mean[:, :self._lod])
            upd_cov = (1 - valid * kalman_gain) * obs_cov
            post_mean = torch.cat([upd_mean, prior_mean[:, self._lod:]], -1)
            post_cov = torch.cat([upd_cov, prior_cov[:, self._lod:]], -1)
            post_means.append(post_mean)
            post_covs.append(post_cov)
        return torch.stack(post_means, 1), torch.stack(post_covs, 1)


class SplitDiagGaussianDecoder(nn.Module):
    def __init__(self, lsd, out_dim):
        super().__init__()
        self._mean = nn.Sequential(nn.Linear(lsd, 32), nn.ReLU(), nn.Linear(32, out_dim))
        self._var = nn.Sequential(nn.Linear(lsd, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(self, latent_mean, latent_cov):
        return self._mean(latent_mean), var_activation(self._var(latent_cov))


class CRU(nn.Module):
    def __init__(self, target_dim: int, lsd: int, args):
        super().__init__()
        self._device = torch.device("cpu")
        self._lsd = lsd
        self._lod = int(self._lsd / 2)
        self.args = args
        self._enc = Encoder(target_dim, self._lod).to(dtype=torch.float64)
        self._cru_layer = CRULayer(self._lod)
        self._dec = SplitDiagGaussianDecoder(self._lsd, target_dim).to(dtype=torch.float64)
        self._initial_mean = torch.zeros(1, self._lsd, dtype=torch.float64)
        self._initial_cov = 10.0 * torch.ones(1, self._lsd, dtype=torch.float64)

    def forward(self, obs_batch, time_points=None, obs_valid=None):
        y, y_var = self._enc(obs_batch)
        post_mean, post_cov = self._cru_layer(y, y_var, self._initial_mean, self._initial_cov,
                                              obs_valid=obs_valid, time_points=time_points)
        out_mean, out_var = self._dec(post_mean, post_cov)
        intermediates = {'post_mean': post_mean, 'post_cov': post_cov, 'y': y, 'y_var': y_var}
        return out_mean, out_var, intermediates

    def interpolation(self, data, track_gradient=True):
        obs, truth, obs_valid, obs_times, mask_truth, mask_obs = [j.to(self._device) for j in data]
        obs_times = self.args.ts * obs_times
        with torch.set_grad_enabled(track_gradient):
            output_mean, output_var, intermediates = self.forward(
                obs_batch=obs, time_points=obs_times, obs_valid=obs_valid)
            loss = GaussianNegLogLik(output_mean, truth, output_var, mask=mask_truth)
            # compute metric on imputed points only
            mask_imput = (~obs_valid[..., None]) * mask_truth
            imput_loss = GaussianNegLogLik(output_mean, truth, output_var, mask=mask_imput)
            imput_mse = mse(truth, output_mean, mask=mask_imput)
        return loss, output_mean, output_var, obs, truth, mask_obs, mask_truth, intermediates, imput_loss, imput_mse

    def train_epoch(self, dl, optimizer):
        epoch_ll = 0
        epoch_rmse = 0
        epoch_mse = 0

        if self.args.task == 'extrapolation' or self.args.task == 'interpolation':
            epoch_imput_ll = 0
            epoch_imput_mse = 0

        for i, data in enumerate(dl):
            loss, output_mean, output_var, obs, truth, mask_obs, mask_truth, intermediates, imput_loss, imput_mse = self.interpolation(data)

            # check for NaNs
            if torch.any(torch.isnan(loss)):
                print('--NAN in loss')

            # backpropagation
            optimizer.zero_grad()
            loss.backward()
            if self.args.grad_clip:
                nn.utils.clip_grad_norm_(self.parameters(), 1)
            optimizer.step()

            # aggregate metrics and intermediates over entire epoch
            epoch_ll += loss
            epoch_rmse += rmse(truth, output_mean, mask_truth).item()
            epoch_mse += mse(truth, output_mean, mask_truth).item()

            if self.args.task == 'extrapolation' or self.args.task == 'interpolation':
                epoch_imput_ll += imput_loss
                epoch_imput_mse += imput_mse
                imput_metrics = [epoch_imput_ll / (i + 1), epoch_imput_mse / (i + 1)]
            else:
                imput_metrics = None

        return epoch_ll / (i + 1), epoch_rmse / (i + 1), epoch_mse / (i + 1), [output_mean, output_var], intermediates, [obs, truth, mask_obs], imput_metrics


def make_interpolation_batches(n_batches=6, batch=8, T=20, dim=3):
    """Stands in for the Physionet/USHCN interpolation loaders: irregular times, half of the points observed."""
    batches = []
    for _ in range(n_batches):
        times = torch.sort(torch.rand(batch, T, dtype=torch.float64) * T, dim=1).values
        truth = torch.sin(times[..., None] * torch.arange(1, dim + 1, dtype=torch.float64) / 3)
        obs_valid = torch.rand(batch, T) < 0.5
        obs = truth * obs_valid[..., None]
        mask_truth = torch.ones(batch, T, dim, dtype=torch.float64)
        mask_obs = obs_valid[..., None].expand(-1, -1, dim).to(torch.float64)
        batches.append((obs, truth, obs_valid, times, mask_truth, mask_obs))
    return batches


args = SimpleNamespace(task='interpolation', ts=0.3, grad_clip=True, lr=1e-3)
model = CRU(target_dim=3, lsd=8, args=args)
optimizer = optim.Adam(model.parameters(), lr=args.lr)
train_dl = make_interpolation_batches()

for epoch in range(2):
    train_ll, train_rmse, train_mse, train_output, intermediates, train_input, train_imput_metrics = model.train_epoch(train_dl, optimizer)
    print(f'Epoch {epoch} train_nll: {train_ll:3f}, train_mse: {train_mse:3f}')
    print(f' train_nll_imput: {train_imput_metrics[0]:3f}, train_mse_imput: {train_imput_metrics[1]:3f}')
