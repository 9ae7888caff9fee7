# source: https://github.com/google/brax/pull/152
# style: rl
# cause: graph_kept_alive
# line: 221
# expert: accumulate a detached value (total_loss += loss.detach(), or float(loss)) so the PPO minibatch graphs are not kept alive across the whole training epoch
import collections
from typing import Callable, Dict

import torch
from torch import nn, optim

torch.manual_seed(0)


class Agent(nn.Module):
    """Standard PPO Agent with GAE and observation normalization."""

    def __init__(self, policy_layers, value_layers, entropy_cost, discounting, reward_scaling, device):
        super().__init__()
        policy = []
        for w1, w2 in zip(policy_layers, policy_layers[1:]):
            policy.append(nn.Linear(w1, w2))
            policy.append(nn.SiLU())
        policy.pop()
        self.policy = nn.Sequential(*policy)
        value = []
        for w1, w2 in zip(value_layers, value_layers[1:]):
            value.append(nn.Linear(w1, w2))
            value.append(nn.SiLU())
        value.pop()
        self.value = nn.Sequential(*value)
        self.num_steps = torch.zeros((), device=device)
        self.running_mean = torch.zeros(policy_layers[0], device=device)
        self.running_variance = torch.zeros(policy_layers[0], device=device)
        self.entropy_cost = entropy_cost
        self.discounting = discounting
        self.reward_scaling = reward_scaling
        self.lambda_ = 0.95
        self.epsilon = 0.3
        self.device = device

    def dist_create(self, logits):
        loc, scale = torch.split(logits, logits.shape[-1] // 2, dim=-1)
        scale = nn.functional.softplus(scale) + .001
        return loc, scale

    def dist_sample_no_postprocess(self, loc, scale):
        return torch.normal(loc, scale)

    @classmethod
    def dist_postprocess(cls, x):
        return torch.tanh(x)

    def dist_entropy(self, loc, scale):
        log_normalized = 0.5 * torch.log(torch.tensor(2 * 3.141592653589793)) + torch.log(scale)
        entropy = 0.5 + log_normalized
        entropy = entropy * torch.ones_like(loc)
        dist = torch.normal(loc, scale)
        log_det_jacobian = 2 * (torch.log(torch.tensor(2.0)) - dist - nn.functional.softplus(-2 * dist))
        entropy = entropy + log_det_jacobian
        return entropy.sum(dim=-1)

    def dist_log_prob(self, loc, scale, dist):
        log_unnormalized = -0.5 * ((dist - loc) / scale).square()
        log_normalized = 0.5 * torch.log(torch.tensor(2 * 3.141592653589793)) + torch.log(scale)
        log_det_jacobian = 2 * (torch.log(torch.tensor(2.0)) - dist - nn.functional.softplus(-2 * dist))
        log_prob = log_unnormalized - log_normalized - log_det_jacobian
        return log_prob.sum(dim=-1)

    def update_normalization(self, observation):
        self.num_steps += observation.shape[0] * observation.shape[1]
        input_to_old_mean = observation - self.running_mean
        mean_diff = torch.sum(input_to_old_mean / self.num_steps, dim=(0, 1))
        self.running_mean = self.running_mean + mean_diff
        input_to_new_mean = observation - self.running_mean
        var_diff = torch.sum(input_to_new_mean * input_to_old_mean, dim=(0, 1))
        self.running_variance = self.running_variance + var_diff

    def normalize(self, observation):
        variance = self.running_variance / (self.num_steps + 1.0)
        variance = torch.clip(variance, 1e-6, 1e6)
        return ((observation - self.running_mean) / variance.sqrt()).clip(-5, 5)

    def get_logits_action(self, observation):
        observation = self.normalize(observation)
        logits = self.policy(observation)
        loc, scale = self.dist_create(logits)
        action = self.dist_sample_no_postprocess(loc, scale)
        return logits, action

    def compute_gae(self, truncation, termination, reward, values, bootstrap_value):
        truncation_mask = 1 - truncation
        values_t_plus_1 = torch.cat([values[1:], torch.unsqueeze(bootstrap_value, 0)], dim=0)
        deltas = reward + self.discounting * (1 - termination) * values_t_plus_1 - values
        deltas *= truncation_mask
        acc = torch.zeros_like(bootstrap_value)
        vs_minus_v_xs = torch.zeros_like(truncation_mask)
        for ti in range(truncation_mask.shape[0]):
            ti = truncation_mask.shape[0] - ti - 1
            acc = deltas[ti] + self.discounting * (1 - termination[ti]) * truncation_mask[ti] * self.lambda_ * acc
            vs_minus_v_xs[ti] = acc
        vs = vs_minus_v_xs + values
        vs_t_plus_1 = torch.cat([vs[1:], torch.unsqueeze(bootstrap_value, 0)], 0)
        advantages = (reward + self.discounting * (1 - termination) * vs_t_plus_1 - values) * truncation_mask
        return vs, advantages

    def loss(self, td: Dict[str, torch.Tensor]):
        observation = self.normalize(td['observation'])
        policy_logits = self.policy(observation[:-1])
        baseline = self.value(observation)
        baseline = torch.squeeze(baseline, dim=-1)
        bootstrap_value = baseline[-1]
        baseline = baseline[:-1]
        reward = td['reward'] * self.reward_scaling
        termination = td['done'] * (1 - td['truncation'])
        loc, scale = self.dist_create(td['logits'])
        behaviour_action_log_probs = self.dist_log_prob(loc, scale, td['action'])
        loc, scale = self.dist_create(policy_logits)
        target_action_log_probs = self.dist_log_prob(loc, scale, td['action'])
        with torch.no_grad():
            vs, advantages = self.compute_gae(truncation=td['truncation'], termination=termination,
                                              reward=reward, values=baseline, bootstrap_value=bootstrap_value)
        rho_s = torch.exp(target_action_log_probs - behaviour_action_log_probs)
        surrogate_loss1 = rho_s * advantages
        surrogate_loss2 = rho_s.clip(1 - self.epsilon, 1 + self.epsilon) * advantages
        policy_loss = -torch.mean(torch.minimum(surrogate_loss1, surrogate_loss2))
        v_error = vs - baseline
        v_loss = torch.mean(v_error * v_error) * 0.5 * 0.5
        entropy = torch.mean(self.dist_entropy(loc, scale))
        entropy_loss = self.entropy_cost * -entropy
        return policy_loss + v_loss + entropy_loss


class PointEnv:
    """Tiny batched stand-in for the brax gym env (obs 6, action 2)."""

    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.t = 0

    def reset(self):
        self.state = torch.randn(self.num_envs, 6)
        self.t = 0
        return self.state

    def step(self, action):
        self.t += 1
        self.state = self.state + 0.1 * torch.cat([action, action, action], dim=-1)
        reward = -self.state.pow(2).sum(-1)
        done = torch.zeros(self.num_envs)
        return self.state, reward, done, {'truncation': torch.zeros(self.num_envs)}


StepData = collections.namedtuple('StepData', ('observation', 'logits', 'action', 'reward', 'done', 'truncation'))


def sd_map(f: Callable[..., torch.Tensor], *sds) -> StepData:
    items = {}
    keys = sds[0]._asdict().keys()
    for k in keys:
        items[k] = f(*[sd._asdict()[k] for sd in sds])
    return StepData(**items)


def train_unroll(agent, env, observation, num_unrolls, unroll_length):
    sd = StepData([], [], [], [], [], [])
    for _ in range(num_unrolls):
        one_unroll = StepData([observation], [], [], [], [], [])
        for _ in range(unroll_length):
            logits, action = agent.get_logits_action(observation)
            observation, reward, done, info = env.step(Agent.dist_postprocess(action))
            one_unroll.observation.append(observation)
            one_unroll.logits.append(logits)
            one_unroll.action.append(action)
            one_unroll.reward.append(reward)
            one_unroll.done.append(done)
            one_unroll.truncation.append(info['truncation'])
        one_unroll = sd_map(torch.stack, one_unroll)
        sd = sd_map(lambda x, y: x + [y], sd, one_unroll)
    td = sd_map(torch.stack, sd)
    return observation, td


def train(num_envs=16, eval_frequency=3, unroll_length=5, batch_size=16, num_minibatches=4,
          num_update_epochs=2, num_epochs=2, device='cpu'):
    env = PointEnv(num_envs)
    agent = Agent([6, 32, 32, 4], [6, 32, 32, 1], 1e-2, .97, .1, device)
    optimizer = optim.Adam(agent.parameters(), lr=3e-4)
    total_loss = 0
    for eval_i in range(eval_frequency + 1):
        print(f'eval {eval_i} losses/total_loss {float(total_loss):.4f}')
        if eval_i == eval_frequency:
            break
        observation = env.reset()
        num_unrolls = batch_size * num_minibatches // env.num_envs
        total_loss = 0
        for _ in range(num_epochs):
            with torch.no_grad():
                observation, td = train_unroll(agent, env, observation, num_unrolls, unroll_length)

            def unroll_first(data):
                data = data.swapaxes(0, 1)
                return data.reshape([data.shape[0], -1] + list(data.shape[3:]))
            td = sd_map(unroll_first, td)
            agent.update_normalization(td.observation)
            for _ in range(num_update_epochs):
                with torch.no_grad():
                    permutation = torch.randperm(td.observation.shape[1], device=device)

                    def shuffle_batch(data):
                        data = data[:, permutation]
                        data = data.reshape([data.shape[0], num_minibatches, -1] + list(data.shape[2:]))
                        return data.swapaxes(0, 1)
                    epoch_td = sd_map(shuffle_batch, td)
                for minibatch_i in range(num_minibatches):
                    td_minibatch = sd_map(lambda d: d[minibatch_i], epoch_td)
                    loss = agent.loss(td_minibatch._asdict())
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                    total_loss += loss.detach()
        total_loss = total_loss / (num_epochs * num_update_epochs * num_minibatches)


train()
