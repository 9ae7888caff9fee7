# source: https://github.com/hijkzzz/pymarl2/issues/46
# style: rl
# cause: computed_before_loop
# line: 36
# expert: the advantages are computed from the critic once, outside the mini_epochs loop, and keep the critic graph; detach them (they only weight the actor loss) so every mini-epoch backward stays inside its own graph
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Args:
    mini_epochs = 4
    gamma = 0.99
    eps_clip = 0.2
    lr = 5e-4


class PPOLearner:
    def __init__(self, args, n_agents=3, obs_dim=6, n_actions=4):
        self.args = args
        self.mac = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 1))
        self.agent_optimiser = torch.optim.Adam(self.mac.parameters(), lr=args.lr)
        self.critic_optimiser = torch.optim.Adam(self.critic.parameters(), lr=args.lr)

    def train(self, batch):
        obs, actions, rewards = batch["obs"], batch["actions"], batch["reward"]
        with torch.no_grad():
            old_pi = F.softmax(self.mac(obs), dim=-1)
            old_log_pi_taken = torch.log(torch.gather(old_pi, -1, actions) + 1e-10)

        values = self.critic(obs)
        targets = rewards + self.args.gamma * torch.cat([values[:, 1:], torch.zeros_like(values[:, :1])], dim=1)
        advantages = targets - values

        for k in range(self.args.mini_epochs):
            pi = F.softmax(self.mac(obs), dim=-1)
            log_pi_taken = torch.log(torch.gather(pi, -1, actions) + 1e-10)
            ratios = torch.exp(log_pi_taken - old_log_pi_taken)
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.args.eps_clip, 1 + self.args.eps_clip) * advantages
            pg_loss = -torch.min(surr1, surr2).mean()
            self.agent_optimiser.zero_grad()
            pg_loss.backward()
            self.agent_optimiser.step()

            v = self.critic(obs)
            critic_loss = ((v - targets.detach()) ** 2).mean()
            self.critic_optimiser.zero_grad()
            critic_loss.backward()
            self.critic_optimiser.step()
        return pg_loss.item(), critic_loss.item()


learner = PPOLearner(Args())
for episode in range(2):
    batch = {"obs": torch.randn(2, 5, 6), "actions": torch.randint(0, 4, (2, 5, 1)), "reward": torch.randn(2, 5, 1)}
    print(learner.train(batch))
