"""Stand-in for unityagents.UnityEnvironment running the Tennis build: 2 agents, 24 observations and
2 continuous actions each, small random rewards, episodes of 25 steps."""
import numpy as np


class BrainParameters:
    def __init__(self, vector_action_space_size):
        self.vector_action_space_size = vector_action_space_size


class BrainInfo:
    def __init__(self, observations, rewards, local_done):
        self.agents = [0, 1]
        self.vector_observations = observations
        self.rewards = rewards
        self.local_done = local_done


class UnityEnvironment:
    def __init__(self, file_name=None, seed=0, episode_length=25):
        self.brain_names = ['TennisBrain']
        self.brains = {'TennisBrain': BrainParameters(2)}
        self.rng = np.random.RandomState(seed)
        self.episode_length = episode_length
        self.t = 0

    def _obs(self):
        return self.rng.uniform(-1, 1, size=(2, 24))

    def reset(self, train_mode=True):
        self.t = 0
        return {'TennisBrain': BrainInfo(self._obs(), [0.0, 0.0], [False, False])}

    def step(self, actions):
        self.t += 1
        actions = np.asarray(actions, dtype=np.float64).reshape(2, 2)
        rewards = list(0.01 * (1.0 - np.abs(actions).mean(axis=1)))
        done = self.t >= self.episode_length
        return {'TennisBrain': BrainInfo(self._obs(), rewards, [done, done])}

    def close(self):
        pass
