# source: https://github.com/watchernyu/REDQ/pull/2 ("Refactor order of gradient computations and model updates to make compatible with later versions of Pytorch": "original order of gradient computations/weight updates caused a Runtime error", merged by the author; commit a60008c). redq/algos/redq_sac.py and core.py are the repository's at the parent of a60008c, kept next to the notebook (flat import); the notebook runs the setup and the training loop of experiments/train_redq_sac.py with its --debug hyperparameters (smaller start_steps), a seeded stand-in for gym.make('Hopper-v2') and a minimal logger instead of EpochLogger
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file redq_sac.py line 218
# expert: REDQSACAgent.train computes both the Q loss and the policy loss, whose graph goes through the Q networks, then steps the Q optimizers (an in-place update of the Q weights) before calling policy_loss.backward(), which needs the Q weights as they were in its forward pass. As the merged PR does, call q_loss_all.backward() and policy_loss.backward() right after computing each loss, before any optimizer.step()
# %%
import numpy as np
import torch
import time
import sys
import _stub_gym as gym  # stands in for gym with MuJoCo
from redq_sac import REDQSACAgent


class EpochLogger:
    """minimal stand-in for redq.utils.logx.EpochLogger"""
    def __init__(self, **kwargs):
        self.epoch_dict = {}

    def store(self, **kwargs):
        for k, v in kwargs.items():
            self.epoch_dict.setdefault(k, []).append(v)
# %%
env_name = 'Hopper-v2'
seed = 0
steps_per_epoch = 100
max_ep_len = 1000
# --debug hyperparameters of train_redq_sac.py
hidden_sizes = [2,2]
batch_size = 2
utd_ratio = 2
num_Q = 3
max_ep_len = 100
start_steps = 20
replay_size = int(1e6)
lr, gamma, polyak = 3e-4, 0.99, 0.995
alpha, auto_alpha, target_entropy = 0.2, True, 'mbpo'
delay_update_steps = 'auto'
num_min, q_target_mode, policy_update_delay = 2, 'min', 20
# %%
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
total_steps = 40
logger = EpochLogger()
env_fn = lambda: gym.make(env_name)
env, test_env = env_fn(), env_fn()
# seed torch and numpy
torch.manual_seed(seed)
np.random.seed(seed)
# seed environment along with env action space so that everything about env is seeded
env.seed(seed)
env.action_space.np_random.seed(seed)
test_env.seed(seed + 10000)
test_env.action_space.np_random.seed(seed + 10000)
obs_dim = env.observation_space.shape[0]
act_dim = env.action_space.shape[0]
max_ep_len = env._max_episode_steps if max_ep_len > env._max_episode_steps else max_ep_len
act_limit = env.action_space.high[0].item()
start_time = time.time()
agent = REDQSACAgent(env_name, obs_dim, act_dim, act_limit, device,
             hidden_sizes, replay_size, batch_size,
             lr, gamma, polyak,
             alpha, auto_alpha, target_entropy,
             start_steps, delay_update_steps,
             utd_ratio, num_Q, num_min, q_target_mode,
             policy_update_delay)
# %%
o, r, d, ep_ret, ep_len = env.reset(), 0, False, 0, 0
for t in range(total_steps):
    # get action from agent
    a = agent.get_exploration_action(o, env)
    # Step the env, get next observation, reward and done signal
    o2, r, d, _ = env.step(a)
    # give new data to agent
    agent.store_data(o, a, r, o2, d)
    # let agent update
    agent.train(logger)
    # set obs to next obs
    o = o2
    ep_ret += r
    ep_len += 1
    d = False if ep_len == max_ep_len else d
    if d or (ep_len == max_ep_len):
        # store episode return and length to logger
        logger.store(EpRet=ep_ret, EpLen=ep_len)
        # reset environment
        o, r, d, ep_ret, ep_len = env.reset(), 0, False, 0, 0
print(t, np.mean(logger.epoch_dict['LossQ1']))
