# source: https://github.com/oxwhirl/pymarl/issues/161
# scenario: clean
# order: 0 1 2 3 4 4 3 4
# expert: none needed: BasicMAC keeps the GRU state in self.hidden_states across forward calls and never detaches it, which is what the issue asks about, but QLearner.train() calls self.mac.init_hidden(batch.batch_size) before unrolling each sampled batch (and the runner does the same before each episode), so no hidden state from the rollout cell or from an earlier training step reaches a later backward; each episode is backpropagated through in full once.
# %%
import copy
from types import SimpleNamespace
import numpy as np
import torch as th
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical
from torch.optim import RMSprop

th.manual_seed(0)
np.random.seed(0)
# qmix-style config (src/config/default.yaml + algs/vdn.yaml), scaled down
args = SimpleNamespace(n_agents=3, n_actions=4, obs_shape=6, state_shape=10, episode_limit=5,
                       rnn_hidden_dim=16, agent="rnn", action_selector="epsilon_greedy",
                       agent_output_type="q", obs_last_action=True, obs_agent_id=True,
                       epsilon_start=1.0, epsilon_finish=0.05, epsilon_anneal_time=50,
                       mixer="vdn", lr=0.0005, optim_alpha=0.99, optim_eps=0.00001, gamma=0.99,
                       double_q=True, grad_norm_clip=10, target_update_interval=2, learner_log_interval=1)
# %%
class RNNAgent(nn.Module):
    def __init__(self, input_shape, args):
        super(RNNAgent, self).__init__()
        self.args = args
        self.fc1 = nn.Linear(input_shape, args.rnn_hidden_dim)
        self.rnn = nn.GRUCell(args.rnn_hidden_dim, args.rnn_hidden_dim)
        self.fc2 = nn.Linear(args.rnn_hidden_dim, args.n_actions)

    def init_hidden(self):
        # make hidden states on same device as model
        return self.fc1.weight.new(1, self.args.rnn_hidden_dim).zero_()

    def forward(self, inputs, hidden_state):
        x = F.relu(self.fc1(inputs))
        h_in = hidden_state.reshape(-1, self.args.rnn_hidden_dim)
        h = self.rnn(x, h_in)
        q = self.fc2(h)
        return q, h

agent_REGISTRY = {"rnn": RNNAgent}


class EpsilonGreedyActionSelector():
    def __init__(self, args):
        self.args = args
        self.epsilon = args.epsilon_start

    def select_action(self, agent_inputs, avail_actions, t_env, test_mode=False):
        # linear DecayThenFlatSchedule
        self.epsilon = max(self.args.epsilon_finish, self.args.epsilon_start - t_env * (self.args.epsilon_start - self.args.epsilon_finish) / self.args.epsilon_anneal_time)
        if test_mode:
            self.epsilon = 0.0
        masked_q_values = agent_inputs.clone()
        masked_q_values[avail_actions == 0.0] = -float("inf")  # should never be selected!
        random_numbers = th.rand_like(agent_inputs[:, :, 0])
        pick_random = (random_numbers < self.epsilon).long()
        random_actions = Categorical(avail_actions.float()).sample().long()
        picked_actions = pick_random * random_actions + (1 - pick_random) * masked_q_values.max(dim=2)[1]
        return picked_actions

action_REGISTRY = {"epsilon_greedy": EpsilonGreedyActionSelector}


# This multi-agent controller shares parameters between agents
class BasicMAC:
    def __init__(self, scheme, groups, args):
        self.n_agents = args.n_agents
        self.args = args
        input_shape = self._get_input_shape(scheme)
        self._build_agents(input_shape)
        self.agent_output_type = args.agent_output_type
        self.action_selector = action_REGISTRY[args.action_selector](args)
        self.hidden_states = None

    def select_actions(self, ep_batch, t_ep, t_env, bs=slice(None), test_mode=False):
        # Only select actions for the selected batch elements in bs
        avail_actions = ep_batch["avail_actions"][:, t_ep]
        agent_outputs = self.forward(ep_batch, t_ep, test_mode=test_mode)
        chosen_actions = self.action_selector.select_action(agent_outputs[bs], avail_actions[bs], t_env, test_mode=test_mode)
        return chosen_actions

    def forward(self, ep_batch, t, test_mode=False):
        agent_inputs = self._build_inputs(ep_batch, t)
        agent_outs, self.hidden_states = self.agent(agent_inputs, self.hidden_states)
        return agent_outs.view(ep_batch.batch_size, self.n_agents, -1)

    def init_hidden(self, batch_size):
        self.hidden_states = self.agent.init_hidden().unsqueeze(0).expand(batch_size, self.n_agents, -1)  # bav

    def parameters(self):
        return self.agent.parameters()

    def load_state(self, other_mac):
        self.agent.load_state_dict(other_mac.agent.state_dict())

    def _build_agents(self, input_shape):
        self.agent = agent_REGISTRY[self.args.agent](input_shape, self.args)

    def _build_inputs(self, batch, t):
        # Assumes homogenous agents with flat observations.
        bs = batch.batch_size
        inputs = []
        inputs.append(batch["obs"][:, t])  # b1av
        if self.args.obs_last_action:
            if t == 0:
                inputs.append(th.zeros_like(batch["actions_onehot"][:, t]))
            else:
                inputs.append(batch["actions_onehot"][:, t-1])
        if self.args.obs_agent_id:
            inputs.append(th.eye(self.n_agents, device=batch.device).unsqueeze(0).expand(bs, -1, -1))
        inputs = th.cat([x.reshape(bs*self.n_agents, -1) for x in inputs], dim=1)
        return inputs

    def _get_input_shape(self, scheme):
        input_shape = scheme["obs"]["vshape"]
        if self.args.obs_last_action:
            input_shape += scheme["actions_onehot"]["vshape"][0]
        if self.args.obs_agent_id:
            input_shape += self.n_agents
        return input_shape


class VDNMixer(nn.Module):
    def __init__(self):
        super(VDNMixer, self).__init__()

    def forward(self, agent_qs, batch):
        return th.sum(agent_qs, dim=2, keepdim=True)


class QLearner:
    def __init__(self, mac, scheme, logger, args):
        self.args = args
        self.mac = mac
        self.logger = logger
        self.params = list(mac.parameters())
        self.last_target_update_episode = 0
        self.mixer = VDNMixer()
        self.params += list(self.mixer.parameters())
        self.target_mixer = copy.deepcopy(self.mixer)
        self.optimiser = RMSprop(params=self.params, lr=args.lr, alpha=args.optim_alpha, eps=args.optim_eps)
        # a little wasteful to deepcopy (e.g. duplicates action selector), but should work for any MAC
        self.target_mac = copy.deepcopy(mac)
        self.log_stats_t = -self.args.learner_log_interval - 1

    def train(self, batch, t_env: int, episode_num: int):
        # Get the relevant quantities
        rewards = batch["reward"][:, :-1]
        actions = batch["actions"][:, :-1]
        terminated = batch["terminated"][:, :-1].float()
        mask = batch["filled"][:, :-1].float()
        mask[:, 1:] = mask[:, 1:] * (1 - terminated[:, :-1])
        avail_actions = batch["avail_actions"]

        # Calculate estimated Q-Values
        mac_out = []
        self.mac.init_hidden(batch.batch_size)
        for t in range(batch.max_seq_length):
            agent_outs = self.mac.forward(batch, t=t)
            mac_out.append(agent_outs)
        mac_out = th.stack(mac_out, dim=1)  # Concat over time

        # Pick the Q-Values for the actions taken by each agent
        chosen_action_qvals = th.gather(mac_out[:, :-1], dim=3, index=actions).squeeze(3)  # Remove the last dim

        # Calculate the Q-Values necessary for the target
        target_mac_out = []
        self.target_mac.init_hidden(batch.batch_size)
        for t in range(batch.max_seq_length):
            target_agent_outs = self.target_mac.forward(batch, t=t)
            target_mac_out.append(target_agent_outs)

        # We don't need the first timesteps Q-Value estimate for calculating targets
        target_mac_out = th.stack(target_mac_out[1:], dim=1)  # Concat across time

        # Mask out unavailable actions
        target_mac_out[avail_actions[:, 1:] == 0] = -9999999

        # Max over target Q-Values
        if self.args.double_q:
            # Get actions that maximise live Q (for double q-learning)
            mac_out_detach = mac_out.clone().detach()
            mac_out_detach[avail_actions == 0] = -9999999
            cur_max_actions = mac_out_detach[:, 1:].max(dim=3, keepdim=True)[1]
            target_max_qvals = th.gather(target_mac_out, 3, cur_max_actions).squeeze(3)
        else:
            target_max_qvals = target_mac_out.max(dim=3)[0]

        # Mix
        chosen_action_qvals = self.mixer(chosen_action_qvals, batch["state"][:, :-1])
        target_max_qvals = self.target_mixer(target_max_qvals, batch["state"][:, 1:])

        # Calculate 1-step Q-Learning targets
        targets = rewards + self.args.gamma * (1 - terminated) * target_max_qvals

        # Td-error
        td_error = (chosen_action_qvals - targets.detach())
        mask = mask.expand_as(td_error)

        # 0-out the targets that came from padded data
        masked_td_error = td_error * mask

        # Normal L2 loss, take mean over actual data
        loss = (masked_td_error ** 2).sum() / mask.sum()

        # Optimise
        self.optimiser.zero_grad()
        loss.backward()
        grad_norm = th.nn.utils.clip_grad_norm_(self.params, self.args.grad_norm_clip)
        self.optimiser.step()

        if (episode_num - self.last_target_update_episode) / self.args.target_update_interval >= 1.0:
            self._update_targets()
            self.last_target_update_episode = episode_num

        if t_env - self.log_stats_t >= self.args.learner_log_interval:
            self.logger.log_stat("loss", loss.item(), t_env)
            self.logger.log_stat("grad_norm", float(grad_norm), t_env)
            self.log_stats_t = t_env

    def _update_targets(self):
        self.target_mac.load_state(self.mac)
        self.target_mixer.load_state_dict(self.mixer.state_dict())
        self.logger.console_logger.info("Updated target network")
# %%
class EpisodeBatch:
    """Minimal stand-in for components/episode_buffer.EpisodeBatch: a dict of [batch, time, ...] tensors."""

    def __init__(self, scheme, batch_size, max_seq_length, device="cpu"):
        self.batch_size, self.max_seq_length, self.device = batch_size, max_seq_length, device
        self.data = {k: th.zeros((batch_size, max_seq_length) + v["shape"], dtype=v.get("dtype", th.float32))
                     for k, v in scheme.items()}

    def __getitem__(self, key):
        return self.data[key]

    def update(self, data, ts):
        for k, v in data.items():
            self.data[k][:, ts] = v


class _Logger:
    def __init__(self):
        self.console_logger = SimpleNamespace(info=print)

    def log_stat(self, key, value, t):
        print(t, key, round(value, 4))


scheme = {"obs": {"vshape": args.obs_shape}, "actions_onehot": {"vshape": (args.n_actions,)}}
T = args.episode_limit + 1
buffer_scheme = {
    "state": {"shape": (args.state_shape,)}, "obs": {"shape": (args.n_agents, args.obs_shape)},
    "actions": {"shape": (args.n_agents, 1), "dtype": th.long}, "avail_actions": {"shape": (args.n_agents, args.n_actions), "dtype": th.int},
    "actions_onehot": {"shape": (args.n_agents, args.n_actions)}, "reward": {"shape": (1,)},
    "terminated": {"shape": (1,), "dtype": th.uint8}, "filled": {"shape": (1,), "dtype": th.long},
}
mac = BasicMAC(scheme, None, args)
learner = QLearner(mac, scheme, _Logger(), args)
rng = np.random.RandomState(0)
t_env, episode_num = 0, 0


def sample_batch(batch_size=4):
    """Random SMAC-like episodes standing in for buffer.sample(args.batch_size)."""
    b = EpisodeBatch(buffer_scheme, batch_size, T)
    b.data["state"] = th.tensor(rng.randn(batch_size, T, args.state_shape), dtype=th.float32)
    b.data["obs"] = th.tensor(rng.randn(batch_size, T, args.n_agents, args.obs_shape), dtype=th.float32)
    b.data["actions"] = th.tensor(rng.randint(0, args.n_actions, (batch_size, T, args.n_agents, 1)))
    b.data["actions_onehot"] = F.one_hot(b.data["actions"].squeeze(-1), args.n_actions).float()
    b.data["avail_actions"] = th.ones(batch_size, T, args.n_agents, args.n_actions, dtype=th.int)
    b.data["reward"] = th.tensor(rng.rand(batch_size, T, 1), dtype=th.float32)
    b.data["terminated"][:, T - 2] = 1
    b.data["filled"][:, :T - 1] = 1
    return b
# %%
# EpisodeRunner.run(): act in one (random) episode; mac.hidden_states now holds this rollout's graph
episode = sample_batch(batch_size=1)
mac.init_hidden(batch_size=episode.batch_size)
for t in range(args.episode_limit):
    actions = mac.select_actions(episode, t_ep=t, t_env=t_env, test_mode=False)
    episode.update({"actions": actions.unsqueeze(-1), "actions_onehot": F.one_hot(actions, args.n_actions).float()}, ts=t)
t_env += args.episode_limit
episode_num += 1
print(actions, mac.hidden_states.grad_fn)
# %%
# learner.train() on a sampled batch of episodes
batch = sample_batch()
learner.train(batch, t_env, episode_num)
episode_num += 1
