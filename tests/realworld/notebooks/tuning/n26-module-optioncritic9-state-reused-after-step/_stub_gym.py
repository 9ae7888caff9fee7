"""Stand-in for gym with a tiny CartPole-v0-shaped environment: 4 observations, 2 actions,
old gym API (reset() -> obs, step() -> obs, reward, done, info, seed())."""
import numpy as np


class Box:
    def __init__(self, shape):
        self.shape = shape


class Discrete:
    def __init__(self, n):
        self.n = n


class CartPoleLike:
    def __init__(self, max_steps=12):
        self.observation_space = Box((4,))
        self.action_space = Discrete(2)
        self.max_steps = max_steps
        self.rng = np.random.RandomState(0)
        self.t = 0
        self.s = np.zeros(4)

    def seed(self, seed=None):
        self.rng = np.random.RandomState(seed)
        return [seed]

    def reset(self):
        self.t = 0
        self.s = self.rng.uniform(-0.05, 0.05, size=4)
        return self.s.copy()

    def step(self, action):
        self.t += 1
        push = 1.0 if action == 1 else -1.0
        self.s = self.s + 0.02 * np.array([self.s[1], push, self.s[3], -push]) + self.rng.normal(0, 0.01, size=4)
        done = self.t >= self.max_steps or abs(self.s[2]) > 0.2
        return self.s.copy(), 1.0, bool(done), {}


envs = types = None


def make(env_name):
    return CartPoleLike()
