# source: https://github.com/nicklashansen/tdmpc/issues/20
# style: rl
# expert: The latent rollout z is kept attached for the model losses (one weighted_loss.backward()), while the copies stored in zs are z.detach(), so update_pi builds a fresh policy graph on top of them after optim.step(); nothing is backpropagated twice and the in-place model update does not touch any graph that is still needed (the maintainer confirms the detach only cuts the policy objective off the dynamics).
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ELU(), nn.Linear(hidden, out_dim))


class TOLD(nn.Module):
    def __init__(self, obs_dim, action_dim, latent_dim=8, hidden=16):
        super().__init__()
        self._encoder = mlp(obs_dim, hidden, latent_dim)
        self._dynamics = mlp(latent_dim + action_dim, hidden, latent_dim)
        self._reward = mlp(latent_dim + action_dim, hidden, 1)
        self._pi = mlp(latent_dim, hidden, action_dim)
        self._Q1 = mlp(latent_dim + action_dim, hidden, 1)
        self._Q2 = mlp(latent_dim + action_dim, hidden, 1)

    def track_q_grad(self, enable=True):
        for m in [self._Q1, self._Q2]:
            for p in m.parameters():
                p.requires_grad_(enable)

    def h(self, obs):
        return self._encoder(obs)

    def next(self, z, a):
        x = torch.cat([z, a], dim=-1)
        return self._dynamics(x), self._reward(x)

    def pi(self, z, std=0.05):
        mu = torch.tanh(self._pi(z))
        return (mu + std * torch.randn_like(mu)).clamp(-1, 1)

    def Q(self, z, a):
        x = torch.cat([z, a], dim=-1)
        return self._Q1(x), self._Q2(x)


class TDMPC:
    def __init__(self, obs_dim, action_dim, horizon=3, rho=0.5, discount=0.99):
        self.model = TOLD(obs_dim, action_dim)
        self.model_target = TOLD(obs_dim, action_dim)
        self.model_target.load_state_dict(self.model.state_dict())
        self.optim = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.pi_optim = torch.optim.Adam(self.model._pi.parameters(), lr=1e-3)
        self.horizon, self.rho, self.discount = horizon, rho, discount

    def update_pi(self, zs):
        self.pi_optim.zero_grad(set_to_none=True)
        self.model.track_q_grad(False)
        pi_loss = 0
        for t, z in enumerate(zs):
            a = self.model.pi(z)
            Q = torch.min(*self.model.Q(z, a))
            pi_loss += -Q.mean() * (self.rho ** t)
        pi_loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model._pi.parameters(), 10.0)
        self.pi_optim.step()
        self.model.track_q_grad(True)
        return pi_loss.item()

    @torch.no_grad()
    def _td_target(self, next_obs, reward):
        next_z = self.model.h(next_obs)
        return reward + self.discount * torch.min(*self.model_target.Q(next_z, self.model.pi(next_z)))

    def update(self, obs, next_obses, action, reward):
        self.optim.zero_grad(set_to_none=True)
        z = self.model.h(obs)
        zs = [z.detach()]
        consistency_loss, reward_loss, value_loss = 0, 0, 0
        for t in range(self.horizon):
            Q1, Q2 = self.model.Q(z, action[t])
            z, reward_pred = self.model.next(z, action[t])
            with torch.no_grad():
                next_z = self.model_target.h(next_obses[t])
                td_target = self._td_target(next_obses[t], reward[t])
            zs.append(z.detach())
            rho = self.rho ** t
            consistency_loss += rho * F.mse_loss(z, next_z)
            reward_loss += rho * F.mse_loss(reward_pred, reward[t])
            value_loss += rho * (F.mse_loss(Q1, td_target) + F.mse_loss(Q2, td_target))
        total_loss = 2.0 * consistency_loss + 0.5 * reward_loss + 0.1 * value_loss
        total_loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 10.0)
        self.optim.step()
        pi_loss = self.update_pi(zs)
        return total_loss.item(), pi_loss


def main():
    torch.manual_seed(0)
    obs_dim, action_dim, horizon, batch = 5, 2, 3, 4
    agent = TDMPC(obs_dim, action_dim, horizon=horizon)
    for step in range(3):
        obs = torch.randn(batch, obs_dim)
        next_obses = torch.randn(horizon, batch, obs_dim)
        action = torch.rand(horizon, batch, action_dim) * 2 - 1
        reward = torch.randn(horizon, batch, 1)
        print(step, agent.update(obs, next_obses, action, reward))


if __name__ == "__main__":
    main()
