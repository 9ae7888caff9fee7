# source: https://github.com/starry-sky6688/MADDPG/issues/27 (maddpg/maddpg.py and maddpg/actor_critic.py of the repository with the update order the reporter changed to: critic update first, as in the paper, then the actor; the checkpoint saving/loading and the multi-agent particle environment are left out, random transitions from a replay-buffer-like dict stand in)
# style: rl
# cause: inplace_modified_saved_tensor
# line: 112
# expert: actor_loss = -critic_network(o, u) is built before the critic update, so its graph saves the critic's weights; moving critic_optim.step() in front of actor_loss.backward() updates those weights in place and the actor backward finds them at a newer version. The maintainer explained that the actor loss's gradient becomes stale once the critic is updated and suggested doing the critic update right after computing critic_loss, before the actor loss is computed from the (updated) critic.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

torch.manual_seed(0)
np.random.seed(0)


# define the actor network
class Actor(nn.Module):
    def __init__(self, args, agent_id):
        super(Actor, self).__init__()
        self.max_action = args.high_action
        self.fc1 = nn.Linear(args.obs_shape[agent_id], 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 64)
        self.action_out = nn.Linear(64, args.action_shape[agent_id])

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = F.relu(self.fc3(x))
        actions = self.max_action * torch.tanh(self.action_out(x))
        return actions


class Critic(nn.Module):
    def __init__(self, args):
        super(Critic, self).__init__()
        self.max_action = args.high_action
        self.fc1 = nn.Linear(sum(args.obs_shape) + sum(args.action_shape), 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 64)
        self.q_out = nn.Linear(64, 1)

    def forward(self, state, action):
        state = torch.cat(state, dim=1)
        for i in range(len(action)):
            action[i] /= self.max_action
        action = torch.cat(action, dim=1)
        x = torch.cat([state, action], dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = F.relu(self.fc3(x))
        q_value = self.q_out(x)
        return q_value


class MADDPG:
    def __init__(self, args, agent_id):
        self.args = args
        self.agent_id = agent_id
        self.train_step = 0
        self.actor_network = Actor(args, agent_id)
        self.critic_network = Critic(args)
        self.actor_target_network = Actor(args, agent_id)
        self.critic_target_network = Critic(args)
        self.actor_target_network.load_state_dict(self.actor_network.state_dict())
        self.critic_target_network.load_state_dict(self.critic_network.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor_network.parameters(), lr=self.args.lr_actor)
        self.critic_optim = torch.optim.Adam(self.critic_network.parameters(), lr=self.args.lr_critic)

    # soft update
    def _soft_update_target_network(self):
        for target_param, param in zip(self.actor_target_network.parameters(), self.actor_network.parameters()):
            target_param.data.copy_((1 - self.args.tau) * target_param.data + self.args.tau * param.data)
        for target_param, param in zip(self.critic_target_network.parameters(), self.critic_network.parameters()):
            target_param.data.copy_((1 - self.args.tau) * target_param.data + self.args.tau * param.data)

    # update the network
    def train(self, transitions, other_agents):
        for key in transitions.keys():
            transitions[key] = torch.tensor(transitions[key], dtype=torch.float32)
        r = transitions['r_%d' % self.agent_id]
        o, u, o_next = [], [], []
        for agent_id in range(self.args.n_agents):
            o.append(transitions['o_%d' % agent_id])
            u.append(transitions['u_%d' % agent_id])
            o_next.append(transitions['o_next_%d' % agent_id])

        # calculate the target Q value function
        u_next = []
        with torch.no_grad():
            index = 0
            for agent_id in range(self.args.n_agents):
                if agent_id == self.agent_id:
                    u_next.append(self.actor_target_network(o_next[agent_id]))
                else:
                    u_next.append(other_agents[index].policy.actor_target_network(o_next[agent_id]))
                    index += 1
            q_next = self.critic_target_network(o_next, u_next).detach()
            target_q = (r.unsqueeze(1) + self.args.gamma * q_next).detach()

        # the q loss
        q_value = self.critic_network(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()

        # the actor loss
        u[self.agent_id] = self.actor_network(o[self.agent_id])
        actor_loss = - self.critic_network(o, u).mean()

        # update the network (critic first, then the actor)
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self._soft_update_target_network()
        self.train_step += 1
        return critic_loss.item(), actor_loss.item()


class Agent:
    def __init__(self, agent_id, args):
        self.args = args
        self.agent_id = agent_id
        self.policy = MADDPG(args, agent_id)

    def learn(self, transitions, other_agents):
        return self.policy.train(transitions, other_agents)


args = SimpleNamespace(n_agents=2, obs_shape=[6, 6], action_shape=[2, 2], high_action=1.0,
                       lr_actor=1e-4, lr_critic=1e-3, gamma=0.95, tau=0.01, batch_size=16)
agents = [Agent(i, args) for i in range(args.n_agents)]


def sample_transitions(batch_size):
    transitions = {}
    for i in range(args.n_agents):
        transitions['o_%d' % i] = np.random.randn(batch_size, args.obs_shape[i])
        transitions['u_%d' % i] = np.random.uniform(-1, 1, (batch_size, args.action_shape[i]))
        transitions['r_%d' % i] = np.random.randn(batch_size)
        transitions['o_next_%d' % i] = np.random.randn(batch_size, args.obs_shape[i])
    return transitions


for time_step in range(3):
    transitions = sample_transitions(args.batch_size)
    for agent in agents:
        other_agents = agents.copy()
        other_agents.remove(agent)
        c_loss, a_loss = agent.learn(transitions.copy(), other_agents)
        print(f"step {time_step} agent {agent.agent_id}: critic_loss {c_loss:.4f} actor_loss {a_loss:.4f}")
