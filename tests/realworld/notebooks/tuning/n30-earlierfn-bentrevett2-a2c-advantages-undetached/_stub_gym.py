"""Stand-in for gym's CartPole-v1 (old 4-tuple step API, as the notebooks use it): a random
4-dimensional state, reward 1 per step, the episode ends after a short random length."""
import numpy as np


class _Space:
    def __init__(self, shape=None, n=None):
        self.shape = shape
        self.n = n


class _CartPoleStandIn:
    def __init__(self):
        self.observation_space = _Space(shape=(4,))
        self.action_space = _Space(n=2)
        self._rng = np.random.RandomState(0)
        self._t = 0
        self._length = 0

    def seed(self, seed=None):
        self._rng = np.random.RandomState(seed)
        return [seed]

    def reset(self):
        self._t = 0
        self._length = int(self._rng.randint(8, 16))
        return self._rng.randn(4).astype(np.float32)

    def step(self, action):
        self._t += 1
        state = self._rng.randn(4).astype(np.float32) + 0.1 * (action - 0.5)
        done = self._t >= self._length
        return state, 1.0, done, {}


def make(name):
    return _CartPoleStandIn()
