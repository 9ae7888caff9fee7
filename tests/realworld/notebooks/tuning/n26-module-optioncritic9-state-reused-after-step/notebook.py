# source: https://github.com/lweitkamp/option-critic-pytorch/issues/9 (main.py's run() at 0c57da7, the commit the issue was reported against, split into notebook cells on CartPole-v0 with option_critic.py and experience_replay.py of that commit kept unchanged next to the notebook; _stub_gym.py stands in for gym with a tiny CartPole-shaped environment of 12-step episodes, utils.py keeps only make_env and to_tensor, a print-only Logger stands in for the tensorboard one, the replay buffer gets a seeded random.Random instead of the unseedable SystemRandom, torch is seeded before the model is built, and 120 steps instead of 4e6)
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file option_critic.py line 170
# expert: The loop computes state = option_critic.get_state(to_tensor(next_obs)) through the feature network before optim.step(), then on the next step OptionCriticFeatures.get_action builds the action distribution from that state (logits = state @ self.options_W[option] + ...), so the actor loss's logp backpropagates into the feature network's forward from the previous step, whose weights RMSprop has since updated in place, and backward fails. As the author's fix for the issue (38728db, "fix state selection in pytorch") does, build the logits from the state's values only: logits = state.data @ self.options_W[option] + self.options_b[option].
# %%
import numpy as np
import argparse
import torch
from copy import deepcopy

from option_critic import OptionCriticFeatures, OptionCriticConv
from option_critic import critic_loss as critic_loss_fn
from option_critic import actor_loss as actor_loss_fn

from experience_replay import ReplayBuffer
from utils import make_env, to_tensor

import time
import random

parser = argparse.ArgumentParser(description="Option Critic PyTorch")
parser.add_argument('--env', default='CartPole-v0', help='ROM to run')
parser.add_argument('--optimal-eps', type=float, default=0.05, help='Epsilon when playing optimally')
parser.add_argument('--frame-skip', default=4, type=int, help='Every how many frames to process')
parser.add_argument('--learning-rate',type=float, default=.0005, help='Learning rate')
parser.add_argument('--gamma', type=float, default=.99, help='Discount rate')
parser.add_argument('--epsilon-start',  type=float, default=1.0, help=('Starting value for epsilon.'))
parser.add_argument('--epsilon-min', type=float, default=.1, help='Minimum epsilon.')
parser.add_argument('--epsilon-decay', type=float, default=20000, help=('Number of steps to minimum epsilon.'))
parser.add_argument('--max-history', type=int, default=10000, help=('Maximum number of steps stored in replay'))
parser.add_argument('--batch-size', type=int, default=32, help='Batch size.')
parser.add_argument('--freeze-interval', type=int, default=200, help=('Interval between target freezes.'))
parser.add_argument('--update-frequency', type=int, default=4, help=('Number of actions before each SGD update.'))
parser.add_argument('--termination-reg', type=float, default=0.01, help=('Regularization to decrease termination prob.'))
parser.add_argument('--entropy-reg', type=float, default=0.01, help=('Regularization to increase policy entropy.'))
parser.add_argument('--num-options', type=int, default=2, help=('Number of options to create.'))
parser.add_argument('--temp', type=float, default=1, help='Action distribution softmax tempurature param.')

parser.add_argument('--max_steps_ep', type=int, default=18000, help='number of maximum steps per episode.')
parser.add_argument('--max_steps_total', type=int, default=int(4e6), help='number of maximum steps to take.') # bout 4 million
parser.add_argument('--cuda', type=bool, default=True, help='Enable CUDA training (recommended if possible).')
parser.add_argument('--seed', type=int, default=0, help='Random seed for numpy, torch, random.')
parser.add_argument('--logdir', type=str, default='runs', help='Directory for logging statistics')
parser.add_argument('--exp', type=str, default=None, help='optional experiment name')
parser.add_argument('--switch-goal', type=bool, default=False, help='switch goal after 2k eps')

torch.manual_seed(0)


class Logger():  # stands in for logger.Logger, which writes tensorboard event files and a log file
    def __init__(self, logdir, run_name):
        self.n_eps = 0

    def log_data(self, steps, actor_loss, critic_loss, entropy, epsilon):
        pass

    def log_episode(self, steps, reward, option_lengths, ep_steps, epsilon):
        self.n_eps += 1
        print(f"> ep {self.n_eps} done. total_steps={steps} | reward={reward} | episode_steps={ep_steps} | epsilon={epsilon:.3f}")
# %%
args = parser.parse_args(['--env', 'CartPole-v0', '--max_steps_total', '120'])
# %%
env, is_atari = make_env(args.env)
option_critic = OptionCriticConv if is_atari else OptionCriticFeatures
device = torch.device('cuda' if torch.cuda.is_available() and args.cuda else 'cpu')

option_critic = option_critic(
    in_features=env.observation_space.shape[0],
    num_actions=env.action_space.n,
    num_options=args.num_options,
    temperature=args.temp,
    eps_start=args.epsilon_start,
    eps_min=args.epsilon_min,
    eps_decay=args.epsilon_decay,
    eps_test=args.optimal_eps,
    device=device
)
# Create a prime network for more stable Q values
option_critic_prime = deepcopy(option_critic)

optim = torch.optim.RMSprop(option_critic.parameters(), lr=args.learning_rate)

np.random.seed(args.seed)
torch.manual_seed(args.seed)
env.seed(args.seed)

buffer = ReplayBuffer(capacity=args.max_history, seed=args.seed)
buffer.rng = random.Random(args.seed)  # added: the buffer's random.SystemRandom cannot be seeded
logger = Logger(logdir=args.logdir, run_name=f"{OptionCriticFeatures.__name__}-{args.env}-{args.exp}-{time.ctime()}")
# %%
steps = 0 ;
if args.switch_goal: print(f"Current goal {env.goal}")
while steps < args.max_steps_total:

    rewards = 0 ; option_lengths = {opt:[] for opt in range(args.num_options)}

    obs   = env.reset()
    state = option_critic.get_state(to_tensor(obs))
    greedy_option  = option_critic.greedy_option(state)
    current_option = 0

    # Goal switching experiment: run for 1k episodes in fourrooms, switch goals and run for another
    # 2k episodes. In option-critic, if the options have some meaning, only the policy-over-options
    # should be finedtuned (this is what we would hope).
    if args.switch_goal and logger.n_eps == 1000:
        torch.save({'model_params': option_critic.state_dict(),
                    'goal_state': env.goal},
                    'models/option_critic_{args.seed}_1k')
        env.switch_goal()
        print(f"New goal {env.goal}")

    if args.switch_goal and logger.n_eps > 2000:
        torch.save({'model_params': option_critic.state_dict(),
                    'goal_state': env.goal},
                    'models/option_critic_{args.seed}_2k')
        break

    done = False ; ep_steps = 0 ; option_termination = True ; curr_op_len = 0
    while not done and ep_steps < args.max_steps_ep:
        epsilon = option_critic.epsilon

        if option_termination:
            option_lengths[current_option].append(curr_op_len)
            current_option = np.random.choice(args.num_options) if np.random.rand() < epsilon else greedy_option
            curr_op_len = 0

        action, logp, entropy = option_critic.get_action(state, current_option)

        next_obs, reward, done, _ = env.step(action)
        buffer.push(obs, current_option, reward, next_obs, done)

        old_state = state
        state = option_critic.get_state(to_tensor(next_obs))

        option_termination, greedy_option = option_critic.predict_option_termination(state, current_option)
        rewards += reward

        actor_loss, critic_loss = None, None
        if len(buffer) > args.batch_size:
            actor_loss = actor_loss_fn(obs, current_option, logp, entropy, \
                reward, done, next_obs, option_critic, option_critic_prime, args)
            loss = actor_loss

            if steps % args.update_frequency == 0:
                data_batch = buffer.sample(args.batch_size)
                critic_loss = critic_loss_fn(option_critic, option_critic_prime, data_batch, args)
                loss += critic_loss

            optim.zero_grad()
            loss.backward()
            optim.step()

            if steps % args.freeze_interval == 0:
                option_critic_prime.load_state_dict(option_critic.state_dict())

        # update global steps etc
        steps += 1
        ep_steps += 1
        curr_op_len += 1
        obs = next_obs

        logger.log_data(steps, actor_loss, critic_loss, entropy.item(), epsilon)

    logger.log_episode(steps, rewards, option_lengths, ep_steps, epsilon)
