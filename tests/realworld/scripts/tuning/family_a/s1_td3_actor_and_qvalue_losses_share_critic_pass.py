# source: https://github.com/pytorch/rl/issues/1187
# style: rl
# cause: shared_subgraph_multiple_backward
# line: 48
# expert: the loss module evaluates the critic once on the stacked (replay action, actor action) batch and derives both loss_actor and loss_qvalue from that single pass, so loss_actor.backward() frees what loss_qvalue needs; compute the actor term from its own critic forward (and with the critic frozen), separate from the Q-value regression, as the TD3 loss fix did
import torch
import torch.nn as nn

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class QValue(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], -1))


class TD3Loss(nn.Module):
    def __init__(self, actor, qvalue, gamma=0.99):
        super().__init__()
        self.actor, self.qvalue, self.gamma = actor, qvalue, gamma
        self.target_actor = Actor()
        self.target_qvalue = QValue()
        self.target_actor.load_state_dict(actor.state_dict())
        self.target_qvalue.load_state_dict(qvalue.state_dict())

    def forward(self, td):
        obs, action, reward, next_obs = td["obs"], td["action"], td["reward"], td["next_obs"]
        actor_action = self.actor(obs)
        with torch.no_grad():
            next_action = (self.target_actor(next_obs) + 0.1 * torch.randn_like(action)).clamp(-1, 1)
            target_q = reward + self.gamma * self.target_qvalue(next_obs, next_action)
        # one critic pass over [replay action ; actor action]
        all_obs = torch.cat([obs, obs], 0)
        all_act = torch.cat([action, actor_action], 0)
        all_q = self.qvalue(all_obs, all_act)
        q_replay, q_actor = all_q.chunk(2, 0)
        loss_actor = -q_actor.mean()
        loss_qvalue = ((q_replay - target_q) ** 2).mean()
        return {"loss_actor": loss_actor, "loss_qvalue": loss_qvalue}


actor, qvalue = Actor(), QValue()
loss_module = TD3Loss(actor, qvalue)
actor_optim = torch.optim.Adam(actor.parameters(), lr=3e-4)
critic_optim = torch.optim.Adam(qvalue.parameters(), lr=3e-4)
for i in range(3):
    td = {"obs": torch.randn(8, 4), "action": torch.rand(8, 2) * 2 - 1, "reward": torch.randn(8, 1), "next_obs": torch.randn(8, 4)}
    loss = loss_module(td)
    actor_optim.zero_grad()
    loss["loss_actor"].backward()
    actor_optim.step()
    critic_optim.zero_grad()
    loss["loss_qvalue"].backward()
    critic_optim.step()
    print(i, loss["loss_actor"].item(), loss["loss_qvalue"].item())
