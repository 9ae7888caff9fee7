# source: https://github.com/yihaosun1124/OfflineRL-Kit/issues/15
# style: rl
# cause: shared_subgraph_multiple_backward
# line: 38
# expert: the policy actions/log-probs used in the conservative term of both critic losses are sampled once with grad, so critic1_loss.backward() frees the actor graph that critic2_loss still goes through; sample them under torch.no_grad() (the critics do not train the actor), then no retain_graph is needed
import torch
import torch.nn as nn

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 2 * act_dim))

    def forward(self, obs):
        mu, log_std = self.mu(obs).chunk(2, -1)
        dist = torch.distributions.Normal(mu, log_std.clamp(-5, 2).exp())
        a = dist.rsample()
        return torch.tanh(a), dist.log_prob(a).sum(-1, keepdim=True)


def make_critic(obs_dim=4, act_dim=2):
    return nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))


class COMBOPolicy:
    def __init__(self):
        self.actor, self.critic1, self.critic2 = Actor(), make_critic(), make_critic()
        self.critic1_optim = torch.optim.Adam(self.critic1.parameters(), lr=3e-4)
        self.critic2_optim = torch.optim.Adam(self.critic2.parameters(), lr=3e-4)
        self._num_repeat_actions = 3
        self._cql_weight = 1.0
        self._gamma = 0.99

    def calc_pi_values(self, obs_pi, obs_to_pred):
        act, log_prob = self.actor(obs_pi)
        q1 = self.critic1(torch.cat([obs_to_pred, act], -1))
        q2 = self.critic2(torch.cat([obs_to_pred, act], -1))
        return q1 - log_prob.detach(), q2 - log_prob.detach()

    def learn(self, batch):
        obss, actions, next_obss, rewards = batch["observations"], batch["actions"], batch["next_observations"], batch["rewards"]
        with torch.no_grad():
            next_act, _ = self.actor(next_obss)
            next_q = torch.min(self.critic1(torch.cat([next_obss, next_act], -1)), self.critic2(torch.cat([next_obss, next_act], -1)))
            target_q = rewards + self._gamma * next_q
        q1 = self.critic1(torch.cat([obss, actions], -1))
        q2 = self.critic2(torch.cat([obss, actions], -1))
        tmp_obss = obss.unsqueeze(1).repeat(1, self._num_repeat_actions, 1).view(-1, obss.shape[-1])
        obs_pi_value1, obs_pi_value2 = self.calc_pi_values(tmp_obss, tmp_obss)
        conservative_loss1 = torch.logsumexp(obs_pi_value1.view(-1, self._num_repeat_actions), 1).mean() * self._cql_weight - q1.mean() * self._cql_weight
        conservative_loss2 = torch.logsumexp(obs_pi_value2.view(-1, self._num_repeat_actions), 1).mean() * self._cql_weight - q2.mean() * self._cql_weight
        critic1_loss = ((q1 - target_q).pow(2)).mean() + conservative_loss1
        critic2_loss = ((q2 - target_q).pow(2)).mean() + conservative_loss2
        self.critic1_optim.zero_grad()
        critic1_loss.backward()
        self.critic1_optim.step()
        self.critic2_optim.zero_grad()
        critic2_loss.backward()
        self.critic2_optim.step()
        return critic1_loss.item(), critic2_loss.item()


policy = COMBOPolicy()
for step in range(3):
    batch = {"observations": torch.randn(8, 4), "actions": torch.rand(8, 2) * 2 - 1,
             "next_observations": torch.randn(8, 4), "rewards": torch.randn(8, 1)}
    print(step, policy.learn(batch))
