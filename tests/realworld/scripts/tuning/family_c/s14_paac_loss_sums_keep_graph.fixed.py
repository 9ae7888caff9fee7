# source: https://github.com/qbx2/PAAC.pytorch/issues/1 (the author's own report "Too late memory free" on Master.train of train.py; PAACNet of paac.py with a smaller conv stack for 4x12x12 frames, the gym worker processes replaced by a random in-process stand-in, Variable(...).data[0] written as .item(), _states[t] cloned before the forward because the per-step copy_ into _states would trip the current in-place version check, Logger.log as a print)
# style: rl
# cause: graph_kept_alive
# line: 219
# expert: loss_p_sum and double_loss_v_sum are only meant for logging, but they accumulate the loss_p / double_loss_v Variables themselves, so every update's graph (policy and value heads, the conv net over all t_max steps) stays referenced until the next log_step flush. As the issue says, the sums should be added by the number, loss_p.data[0] (today loss_p.item()), not by the Variable.
import random

import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)
random.seed(0)
np.random.seed(0)

INPUT_CHANNELS = 4
INPUT_IMAGE_SIZE = (12, 12)


class PAACNet(nn.Module):
    def __init__(self, num_actions):
        super().__init__()

        self.conv_layers = nn.Sequential(
            nn.Conv2d(INPUT_CHANNELS, 8, 4, 2),
            nn.ReLU(),
            nn.Conv2d(8, 16, 3, 1),
            nn.ReLU()
        )

        self.fc = nn.Linear(16 * 3 * 3, 32)

        self.policy_output = nn.Sequential(
            nn.Linear(32, num_actions),
            nn.Softmax(1)
        )

        self.value_output = nn.Linear(32, 1)

        # init weights and biases
        import torch.nn.init as init

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                init.kaiming_normal_(m.weight)
                m.bias.data.zero_()
            elif isinstance(m, nn.Linear):
                init.kaiming_normal_(m.weight)
                m.bias.data.zero_()

    def forward(self, x):
        x = self.conv_layers(x)
        # flatten
        x = x.view(x.size(0), -1)
        x = self.fc(x)
        return self.policy_output(x), self.value_output(x)

    def value(self, x):
        x = self.conv_layers(x)
        x = x.view(x.size(0), -1)
        x = self.fc(x)
        return self.value_output(x)

    @staticmethod
    def log_and_negated_entropy(x, epsilon):
        log_x = (x + epsilon).log()
        return log_x, (x * log_x).sum(0).sum(0)

    @staticmethod
    def get_loss(q_values, values, log_a):
        r"""calculates policy loss and value loss

        :param q_values: Tensor with shape (T, N)
        :param values: Variable with shape (T, N)
        :param log_a: Variable with shape (T, N)
        :return: tuple (policy_loss, value_loss)
        """
        diff = Variable(q_values) - values

        # policy loss
        loss_p = -(Variable(diff.data) * log_a).mean(0)
        # value loss
        # 2 * nn.MSELoss
        double_loss_v = diff.pow(2).mean(0)
        loss = loss_p + 0.25 * double_loss_v
        return loss_p, double_loss_v, loss


class RandomWorkers:
    """Stands in for the Worker processes: fills obs / rewards / terminals for n_e emulators."""

    def __init__(self, n_e):
        self.n_e = n_e

    def step(self, actions, obs, rewards, terminals, t):
        obs.copy_(torch.rand(self.n_e, *INPUT_IMAGE_SIZE))
        rewards[t].copy_((torch.rand(self.n_e) < 0.3).float() * actions.float())
        terminals[t].copy_((torch.rand(self.n_e) < 0.1).float())


class Args:
    n_e = 4
    t_max = 5
    n_max = 8
    gamma = 0.99
    beta = 0.01
    log_step = 4
    epsilon = 1e-30
    clip = 40.0
    learning_rate = 7e-4


class Master:
    def __init__(self, args):
        self.args = args
        self.num_actions = 3
        self.no_op = 0
        self.paac = PAACNet(self.num_actions)
        self.optim = torch.optim.Adam(self.paac.parameters(), args.learning_rate)
        self.workers = RandomWorkers(args.n_e)
        self.start = 0

    def get_starting_point(self):
        return random.randint(0, 3)

    def train(self):
        optim = self.optim
        args = self.args
        model_params = list(self.paac.parameters())
        n_e, t_max, n_max, gamma, beta, log_step, epsilon, clip = (
            args.n_e, args.t_max, args.n_max, args.gamma, args.beta,
            args.log_step, args.epsilon, args.clip)
        log_step_1 = (self.start - 1) % log_step

        values = torch.zeros(t_max, n_e)
        log_a = torch.zeros(t_max, n_e)
        negated_entropy_sum = torch.zeros(())

        # tensor to store states, updated at every timestep
        states = torch.zeros(n_e, INPUT_CHANNELS, *INPUT_IMAGE_SIZE)
        _states = torch.zeros(t_max, n_e, INPUT_CHANNELS, *INPUT_IMAGE_SIZE)
        q_values = torch.zeros(t_max + 1, n_e)

        # tensors to store data for a backprop
        obs = torch.zeros(n_e, *INPUT_IMAGE_SIZE)
        rewards = torch.zeros(t_max, n_e)
        terminals = torch.zeros(t_max, n_e)

        starting_points = [self.get_starting_point() for _ in range(n_e)]
        current_frames = [1] * n_e
        # sum of loss_p & double_loss_v, printed & flushed at every log_step
        loss_p_sum = double_loss_v_sum = entropy_sum = 0

        # start training
        self.paac.train()

        for n in range(self.start, n_max):
            values = Variable(values.data)
            log_a = Variable(log_a.data)
            negated_entropy_sum = Variable(negated_entropy_sum.data)

            negated_entropy_sum.data.zero_()

            for t in range(t_max):
                nonzero_terminals = terminals[t - 1].nonzero()

                if len(nonzero_terminals.size()):
                    for i in nonzero_terminals.squeeze(1):
                        # reset done environments
                        starting_points[i] = self.get_starting_point()
                        current_frames[i] = 1
                        states[i].zero_()

                # states must be cloned for gradient calculation
                _states[t].copy_(states)
                paac_p, paac_v = self.paac(Variable(_states[t].clone()))
                values[t] = paac_v.squeeze(1)

                log_paac_p, negated_h = self.paac.log_and_negated_entropy(
                    paac_p, epsilon)
                negated_entropy_sum += negated_h

                actions = paac_p.multinomial(1).data

                # process no-op environments
                for i in range(n_e):
                    if current_frames[i] < starting_points[i]:
                        current_frames[i] += 1
                        actions[i, 0] = self.no_op

                log_a[t] = log_paac_p.gather(1, Variable(actions.clone())).squeeze(1)

                # perform actions, get new observations
                self.workers.step(actions.squeeze(1), obs, rewards, terminals, t)

                states[:, :-1], states[:, -1] = states[:, 1:].clone(), obs
                # normalize rewards
                rewards[t].clamp_(-1, 1)

            entropy = -negated_entropy_sum / n_e
            entropy_sum += entropy.item()

            # values of new states
            q_values[t_max] = self.paac.value(Variable(states)).data.squeeze(1)

            loss_sum = 0

            # calculate q_values
            for t in reversed(range(t_max)):
                q_values[t] = rewards[t] + \
                              (1. - terminals[t]) * gamma * q_values[t + 1]

                loss_p, double_loss_v, loss = self.paac.get_loss(
                    q_values[t], values[t], log_a[t]
                )

                loss_sum += loss
                loss_p_sum += loss_p.item()
                double_loss_v_sum += double_loss_v.item()

            # entropy term
            loss_sum -= beta * entropy

            optim.zero_grad()
            # loss scaling by t_max
            loss_sum.backward()
            torch.nn.utils.clip_grad_norm_(model_params, clip)
            optim.step()

            if n % log_step == log_step_1:
                print('Iteration %d: average loss_p %.4f, average loss_v %.4f, average entropy %.4f' % (
                    n + 1, loss_p_sum / log_step / t_max, double_loss_v_sum / 2. / log_step / t_max,
                    entropy_sum / log_step / t_max))

                # flush
                loss_p_sum = double_loss_v_sum = entropy_sum = 0


master = Master(Args())
master.train()
