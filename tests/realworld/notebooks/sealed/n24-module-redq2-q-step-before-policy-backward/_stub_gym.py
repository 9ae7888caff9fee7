"""Stand-in for gym (not installed here, no MuJoCo): gym.make returns a tiny seeded
continuous-control environment with the Hopper-v2 interface the REDQ script uses."""
import numpy as np


class _Box:
    def __init__(self, low, high, shape):
        self.low, self.high, self.shape = np.full(shape, low, np.float32), np.full(shape, high, np.float32), shape
        self.np_random = np.random.RandomState(0)

    def sample(self):
        return self.np_random.uniform(self.low, self.high).astype(np.float32)


class _Env:
    _max_episode_steps = 1000

    def __init__(self):
        self.observation_space = _Box(-np.inf, np.inf, (11,))
        self.action_space = _Box(-1.0, 1.0, (3,))
        self.rng = np.random.RandomState(0)
        self.t = 0

    def seed(self, seed):
        self.rng = np.random.RandomState(seed)

    def reset(self):
        self.t = 0
        self.state = self.rng.normal(size=11).astype(np.float32)
        return self.state

    def step(self, a):
        self.t += 1
        self.state = (0.9 * self.state + 0.1 * np.resize(a, 11) + 0.01 * self.rng.normal(size=11)).astype(np.float32)
        r = float(1.0 - np.square(a).sum() * 0.1)
        return self.state, r, self.t >= 25, {}


def make(name):
    return _Env()
