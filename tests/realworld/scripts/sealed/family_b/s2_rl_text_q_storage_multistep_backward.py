# source: https://github.com/rentruewang/brief/issues/1
# style: rl
# cause: inplace_modified_saved_tensor
# line: 62
# expert: Qoptim.step() runs between the backward passes of transitions whose graphs overlap (every stored transition S shares the sentence encoder's graph (S = [action, states, gru_out]), so the next transition still needs the weights the step just changed); as the author notes, sum the per-transition TD losses and call backward once (instead of loss.backward(retain_graph=True) per transition)
import torch
from torch import nn
from torch.nn import functional as F
from numpy import random

torch.manual_seed(0)
random.seed(0)


def select_value(QOutput, indexList):
    assert int(QOutput.shape[0]) == len(indexList)
    output = []
    for batch, index in enumerate(indexList):
        output.append(QOutput[batch, index])
    return torch.stack(output, dim=0)


def take_action(QFunc, states, epsilon):
    output, states = QFunc(*states)
    if random.uniform(low=0., high=1.) < epsilon:
        index = torch.randint(low=0, high=output.shape[-1], size=[output.shape[0]])
    else:
        index = output.argmax(-1)
    return index, states


class Storage:
    def __init__(self, decay_value, multistep=True):
        self.decay_value = decay_value
        self.data = []
        self.multistep = multistep

    def save(self, states, actions, rewards):
        self.data.append([states, actions, rewards])

    def refresh(self):
        to_discard = []
        for index in range(len(self.data)):
            if random.uniform(low=0., high=1.) < self.decay_value:
                to_discard.append(index)
        for index in reversed(to_discard):
            self.data.pop(index)

    def optimize(self, QFunc, Qoptim, QEval, QlossFunc):
        for S, action, reward in self.data:
            output, _ = QFunc(*S[0])
            Q_value = select_value(output, action[0])
            Q_NSval, _ = QEval(*S[-1])
            Q_NSval = Q_NSval.max(-1)[0].detach()
            r = sum(reward)
            loss = QlossFunc(Q_value, r + Q_NSval)

            Qoptim.zero_grad()
            loss.backward(retain_graph=True)
            # S carries information all the way back to encoder
            # S = [action, states, gru_out]
            Qoptim.step()


class Dual(nn.Module):
    def __init__(self, in_features, out_features, bias=False):
        super().__init__()
        self.advantage = nn.Linear(in_features=in_features, out_features=out_features, bias=bias)
        self.average = nn.Linear(in_features=in_features, out_features=1, bias=bias)

    def forward(self, input):
        advantage = self.advantage(input)
        advantage = advantage - advantage.mean()
        average = self.average(input)
        return advantage + average


class Decoder(nn.Module):
    def __init__(self, voc_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(voc_size, hidden_size)
        self.gru = nn.GRUCell(2 * hidden_size, hidden_size)

    def forward(self, word, states, gru_out):
        context = gru_out.mean(0)
        states = self.gru(torch.cat([self.embed(word), context], -1), states)
        return states, states


class Q(nn.Module):
    def __init__(self, dec, dual):
        super().__init__()
        self.dec = dec
        self.dual = dual

    def forward(self, input, states, gru_out):
        output, states = self.dec(input, states, gru_out)
        values = self.dual(output)
        return values, states


voc_size, hidden_size, batch, timesteps, sos = 12, 16, 3, 6, 0
encoder = nn.GRU(hidden_size, hidden_size)
embed = nn.Embedding(voc_size, hidden_size)
QFunc = Q(Decoder(voc_size, hidden_size), Dual(hidden_size, voc_size))
QEval = Q(Decoder(voc_size, hidden_size), Dual(hidden_size, voc_size))
Goptim = torch.optim.Adam(list(encoder.parameters()) + list(embed.parameters()) + list(QFunc.parameters()), lr=1e-3)
storage = Storage(decay_value=0.5)

batched_data = torch.randint(1, voc_size, (timesteps, batch))
encoded, states = encoder(embed(batched_data))
states = states[0]
word = torch.tensor([sos] * batch)
for step in range(3):
    S = [word, states, encoded]
    states_list = [S]
    action, states = take_action(QFunc, S, epsilon=0.1)
    S = [action, states, encoded]
    states_list.append(S)
    storage.save(states_list, [action], [torch.rand(batch)])
    word = action
storage.optimize(QFunc, Goptim, QEval, F.mse_loss)
print("optimized", len(storage.data))
