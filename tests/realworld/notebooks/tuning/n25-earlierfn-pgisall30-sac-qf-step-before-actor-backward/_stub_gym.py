"""Stand-in for the parts of gym (0.17-era API) that 05.SAC.ipynb uses: gym.make("Pendulum-v0"),
gym.ActionWrapper and Box spaces; reset() returns the observation and step() returns
(obs, reward, done, info). The pendulum dynamics follow gym's PendulumEnv, 200 steps an episode."""
import numpy as np


class Box:
    def __init__(self, low, high, dtype=np.float32, seed=0):
        self.low = np.asarray(low, dtype=dtype)
        self.high = np.asarray(high, dtype=dtype)
        self.shape = self.low.shape
        self.dtype = dtype
        self._rng = np.random.RandomState(seed)

    def sample(self):
        return self._rng.uniform(self.low, self.high).astype(self.dtype)


class Env:
    def close(self):
        pass


class Wrapper(Env):
    def __init__(self, env):
        self.env = env
        self.action_space = env.action_space
        self.observation_space = env.observation_space

    def reset(self):
        return self.env.reset()

    def step(self, action):
        return self.env.step(action)

    def close(self):
        return self.env.close()


class ActionWrapper(Wrapper):
    def step(self, action):
        return self.env.step(self.action(action))


class PendulumEnv(Env):
    max_speed, max_torque, dt, g, m, l = 8.0, 2.0, 0.05, 10.0, 1.0, 1.0

    def __init__(self, seed=0):
        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.action_space = Box(-self.max_torque * np.ones(1), self.max_torque * np.ones(1), seed=seed)
        self.observation_space = Box(-high, high, seed=seed)
        self._rng = np.random.RandomState(seed)
        self._t = 0

    def reset(self):
        self.state = self._rng.uniform(low=[-np.pi, -1.0], high=[np.pi, 1.0])
        self._t = 0
        return self._obs()

    def _obs(self):
        th, thdot = self.state
        return np.array([np.cos(th), np.sin(th), thdot], dtype=np.float32)

    def step(self, u):
        th, thdot = self.state
        u = float(np.clip(u, -self.max_torque, self.max_torque)[0])
        angle = ((th + np.pi) % (2 * np.pi)) - np.pi
        cost = angle ** 2 + 0.1 * thdot ** 2 + 0.001 * u ** 2
        thdot = thdot + (3 * self.g / (2 * self.l) * np.sin(th) + 3.0 / (self.m * self.l ** 2) * u) * self.dt
        thdot = np.clip(thdot, -self.max_speed, self.max_speed)
        self.state = np.array([th + thdot * self.dt, thdot])
        self._t += 1
        return self._obs(), -cost, self._t >= 200, {}


def make(env_id):
    return PendulumEnv()
