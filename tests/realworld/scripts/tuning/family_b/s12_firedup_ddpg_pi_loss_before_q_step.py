# source: https://github.com/kashif/firedup/issues/11
# style: rl
# cause: inplace_modified_saved_tensor
# line: 231
# expert: q_pi = Q(s, pi(s)) is computed in the same forward as q, before the Q-learning step; q_optimizer.step() then updates the Q network's weights in place, so pi_loss.backward() finds the saved Q weights at a newer version. The fix (commit b658ae5 "fix loss update order") computes q for the Q loss first and recomputes q_pi with a fresh forward after the Q step, before the policy loss.
import time
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


def count_vars(module):
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


class MLP(nn.Module):
    def __init__(
        self,
        layers,
        activation=torch.tanh,
        output_activation=None,
        output_scale=1,
        output_squeeze=False,
    ):
        super(MLP, self).__init__()
        self.layers = nn.ModuleList()
        self.activation = activation
        self.output_activation = output_activation
        self.output_scale = output_scale
        self.output_squeeze = output_squeeze

        for i, layer in enumerate(layers[1:]):
            self.layers.append(nn.Linear(layers[i], layer))
            nn.init.zeros_(self.layers[i].bias)

    def forward(self, inputs):
        x = inputs
        for layer in self.layers[:-1]:
            x = self.activation(layer(x))
        if self.output_activation is None:
            x = self.layers[-1](x) * self.output_scale
        else:
            x = self.output_activation(self.layers[-1](x)) * self.output_scale
        return x.squeeze() if self.output_squeeze else x


class ActorCritic(nn.Module):
    def __init__(
        self,
        in_features,
        action_space,
        hidden_sizes=(32, 32),
        activation=torch.relu,
        output_activation=torch.tanh,
    ):
        super(ActorCritic, self).__init__()

        action_dim = action_space.shape[0]
        action_scale = action_space.high[0]

        self.policy = MLP(
            layers=[in_features] + list(hidden_sizes) + [action_dim],
            activation=activation,
            output_activation=output_activation,
            output_scale=action_scale,
        )
        self.q = MLP(
            layers=[in_features + action_dim] + list(hidden_sizes) + [1],
            activation=activation,
            output_squeeze=True,
        )

    def forward(self, x, a):
        pi = self.policy(x)
        q = self.q(torch.cat((x, a), dim=1))
        q_pi = self.q(torch.cat((x, pi), dim=1))

        return pi, q, q_pi


class ReplayBuffer:
    """
    A simple FIFO experience replay buffer for DDPG agents.
    """

    def __init__(self, obs_dim, act_dim, size):
        self.obs1_buf = np.zeros([size, obs_dim], dtype=np.float32)
        self.obs2_buf = np.zeros([size, obs_dim], dtype=np.float32)
        self.acts_buf = np.zeros([size, act_dim], dtype=np.float32)
        self.rews_buf = np.zeros(size, dtype=np.float32)
        self.done_buf = np.zeros(size, dtype=np.float32)
        self.ptr, self.size, self.max_size = 0, 0, size

    def store(self, obs, act, rew, next_obs, done):
        self.obs1_buf[self.ptr] = obs
        self.obs2_buf[self.ptr] = next_obs
        self.acts_buf[self.ptr] = act
        self.rews_buf[self.ptr] = rew
        self.done_buf[self.ptr] = done
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample_batch(self, batch_size=32):
        idxs = np.random.randint(0, self.size, size=batch_size)
        return dict(
            obs1=self.obs1_buf[idxs],
            obs2=self.obs2_buf[idxs],
            acts=self.acts_buf[idxs],
            rews=self.rews_buf[idxs],
            done=self.done_buf[idxs],
        )


class PendulumLikeEnv:
    """Stands in for gym's Pendulum-v0: 3-d observation, 1-d action in [-2, 2]."""
    def __init__(self):
        self.observation_space = SimpleNamespace(shape=(3,))
        self.action_space = SimpleNamespace(shape=(1,), high=np.array([2.0], dtype=np.float32))

    def reset(self):
        self.t = 0
        return np.random.randn(3).astype(np.float32)

    def step(self, a):
        self.t += 1
        return np.random.randn(3).astype(np.float32), -float(np.sum(np.square(a))), False, {}

    def sample_action(self):
        return np.random.uniform(-2, 2, size=1).astype(np.float32)


def ddpg(
    env_fn,
    actor_critic=ActorCritic,
    ac_kwargs=dict(),
    seed=0,
    steps_per_epoch=40,
    epochs=1,
    replay_size=int(1e4),
    gamma=0.99,
    polyak=0.995,
    pi_lr=1e-3,
    q_lr=1e-3,
    batch_size=16,
    start_steps=20,
    act_noise=0.1,
    max_ep_len=20,
):
    torch.manual_seed(seed)
    np.random.seed(seed)

    env = env_fn()
    obs_dim = env.observation_space.shape[0]
    act_dim = env.action_space.shape[0]
    act_limit = env.action_space.high[0]

    # Share information about action space with policy architecture
    ac_kwargs["action_space"] = env.action_space

    # Main outputs from computation graph
    main = actor_critic(in_features=obs_dim, **ac_kwargs)

    # Target networks
    target = actor_critic(in_features=obs_dim, **ac_kwargs)
    target.eval()

    # Experience buffer
    replay_buffer = ReplayBuffer(obs_dim=obs_dim, act_dim=act_dim, size=replay_size)

    var_counts = tuple(count_vars(module) for module in [main.policy, main.q, main])
    print("\nNumber of parameters: \t pi: %d, \t q: %d, \t total: %d\n" % var_counts)

    # Separate train ops for pi, q
    pi_optimizer = torch.optim.Adam(main.policy.parameters(), lr=pi_lr)
    q_optimizer = torch.optim.Adam(main.q.parameters(), lr=q_lr)

    # Initializing targets to match main variables
    target.load_state_dict(main.state_dict())

    def get_action(o, noise_scale):
        pi = main.policy(torch.Tensor(o.reshape(1, -1)))
        a = pi.detach().numpy()[0] + noise_scale * np.random.randn(act_dim)
        return np.clip(a, -act_limit, act_limit)

    start_time = time.time()
    o, r, d, ep_ret, ep_len = env.reset(), 0, False, 0, 0
    total_steps = steps_per_epoch * epochs
    logs = []

    # Main loop: collect experience in env and update/log each epoch
    for t in range(total_steps):
        main.eval()
        if t > start_steps:
            a = get_action(o, act_noise)
        else:
            a = env.sample_action()

        # Step the env
        o2, r, d, _ = env.step(a)
        ep_ret += r
        ep_len += 1

        d = False if ep_len == max_ep_len else d

        # Store experience to replay buffer
        replay_buffer.store(o, a, r, o2, d)

        o = o2

        if d or (ep_len == max_ep_len):
            main.train()
            """
            Perform all DDPG updates at the end of the trajectory,
            in accordance with tuning done by TD3 paper authors.
            """
            for _ in range(ep_len):
                batch = replay_buffer.sample_batch(batch_size)
                (obs1, obs2, acts, rews, done) = (
                    torch.Tensor(batch["obs1"]),
                    torch.Tensor(batch["obs2"]),
                    torch.Tensor(batch["acts"]),
                    torch.Tensor(batch["rews"]),
                    torch.Tensor(batch["done"]),
                )
                _, q, q_pi = main(obs1, acts)
                _, _, q_pi_targ = target(obs2, acts)

                # Bellman backup for Q function
                backup = (rews + gamma * (1 - done) * q_pi_targ).detach()

                # DDPG losses
                pi_loss = -q_pi.mean()
                q_loss = F.mse_loss(q, backup)

                # Q-learning update
                q_optimizer.zero_grad()
                q_loss.backward()
                q_optimizer.step()
                logs.append(dict(LossQ=q_loss.item(), QVals=q.data.numpy()))

                # Policy update
                pi_optimizer.zero_grad()
                pi_loss.backward()
                pi_optimizer.step()
                logs.append(dict(LossPi=pi_loss.item()))

                # Polyak averaging for target parameters
                for p_main, p_target in zip(main.parameters(), target.parameters()):
                    p_target.data.copy_(
                        polyak * p_target.data + (1 - polyak) * p_main.data
                    )

            print("EpRet %.3f EpLen %d LossQ %.4f" % (ep_ret, ep_len, logs[-2]["LossQ"]))
            o, r, d, ep_ret, ep_len = env.reset(), 0, False, 0, 0
    print("time %.2fs" % (time.time() - start_time))


if __name__ == "__main__":
    ddpg(lambda: PendulumLikeEnv(), actor_critic=ActorCritic, ac_kwargs=dict(hidden_sizes=(32, 32)))
