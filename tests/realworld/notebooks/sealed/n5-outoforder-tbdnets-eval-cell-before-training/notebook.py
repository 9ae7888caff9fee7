# source: variant of https://github.com/davidmascharka/tbd-nets/issues/8
# scenario: out_of_order
# cause: no_grad_fn
# root: cell 4 line 6
# order: 0 1 2 3 4 5 6 8 7
# expert: the user runs the validation-accuracy cell at the bottom of train-model.ipynb before the training cell; check_accuracy (defined in an earlier cell) calls torch.set_grad_enabled(False) and never restores it, so the very first loss.backward() in train_epoch fails; the maintainer's fix (commit 9de0235) adds torch.set_grad_enabled(True) at the top of train_epoch, which makes the run order harmless
# %%
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

device = 'cuda' if torch.cuda.is_available() else 'cpu'
# %%
class AttentionModule(nn.Module):
    """ A neural module that takes a feature map and attention, attends to the features, and produces an attention. """
    def __init__(self, dim):
        super().__init__()
        self.conv1 = nn.Conv2d(dim, dim, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(dim, 1, kernel_size=1)

    def forward(self, feats, attn):
        attended_feats = torch.mul(feats, attn.repeat(1, feats.size(1), 1, 1))
        out = F.relu(self.conv1(attended_feats))
        return torch.sigmoid(self.conv2(out))


class QueryModule(nn.Module):
    """ A neural module that takes as input a feature map and an attention and produces a feature map as output. """
    def __init__(self, dim):
        super().__init__()
        self.conv1 = nn.Conv2d(dim, dim, kernel_size=3, padding=1)

    def forward(self, feats, attn):
        attended_feats = torch.mul(feats, attn.repeat(1, feats.size(1), 1, 1))
        return F.relu(self.conv1(attended_feats))


class TbDNet(nn.Module):
    """ The real TbD-net has one neural module per program token; here 4 attention tokens and 1 query token. """
    def __init__(self, vocab, feature_dim=(16, 4, 4), module_dim=16, num_answers=28):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(feature_dim[0], module_dim, kernel_size=3, padding=1), nn.ReLU())
        self.classifier = nn.Sequential(nn.Conv2d(module_dim, 8, kernel_size=1), nn.ReLU(), nn.MaxPool2d(2),
                                        nn.Flatten(), nn.Linear(8 * 2 * 2, 32), nn.ReLU(), nn.Linear(32, num_answers))
        self.function_modules = nn.ModuleDict()
        for module_name in vocab['program_token_to_idx']:
            if module_name.startswith('query'):
                self.function_modules[module_name] = QueryModule(module_dim)
            else:
                self.function_modules[module_name] = AttentionModule(module_dim)
        self.vocab = vocab
        self.ones_var = torch.ones(1, 1, feature_dim[1], feature_dim[2])
        self.attention_sum = 0

    def forward(self, feats, programs):
        batch_size = feats.size(0)
        feat_input_volume = self.stem(feats)
        final_module_outputs = []
        self.attention_sum = 0
        for n in range(batch_size):
            feat_input = feat_input_volume[n:n + 1]
            output = self.ones_var
            for i in reversed(programs.data[n].tolist()):
                module_type = self.vocab['program_idx_to_token'][i]
                output = self.function_modules[module_type](feat_input, output)
                if not module_type.startswith('query'):
                    self.attention_sum += output.sum()
            final_module_outputs.append(output)
        final_module_outputs = torch.cat(final_module_outputs, 0)
        return self.classifier(final_module_outputs)


vocab = {'program_token_to_idx': {'filter_color[red]': 0, 'filter_shape[cube]': 1, 'relate[left]': 2,
                                  'unique': 3, 'query_color': 4}}
vocab['program_idx_to_token'] = {v: k for k, v in vocab['program_token_to_idx'].items()}
tbd_net = TbDNet(vocab).to(device)
# %%
def make_loader(n, batch_size):
    ''' stand-in for ClevrDataLoaderNumpy: (questions, image_idx, feats, answers, programs) batches '''
    feats = torch.randn(n, 16, 4, 4)
    answers = torch.randint(15, 32, (n,))
    programs = torch.cat([torch.full((n, 1), 4), torch.randint(0, 4, (n, 3))], 1)
    return [(None, None, feats[i:i + batch_size], answers[i:i + batch_size], programs[i:i + batch_size])
            for i in range(0, n, batch_size)]


train_loader = make_loader(16, 8)
val_loader = make_loader(8, 8)
# %%
def map_ans(answers):
    ''' Map the answers from the format Justin Johnson et al. use to our own format. '''
    ans_tensor = torch.LongTensor(answers.size())
    order = [15, 16, 18, 20, 21, 25, 26, 30, 17, 19, 29, 22, 28, 23, 27, 24, 31]
    for new, old in enumerate(order):
        ans_tensor[answers == old] = new
    return ans_tensor
# %%
def check_accuracy(loader):
    '''
    Convenience function for checking the accuracy of the model
    over all the data in a given `DataLoader`
    '''
    torch.set_grad_enabled(False)
    num_correct, num_samples = 0, 0
    for batch in loader:
        _, _, feats, answers, programs = batch
        feats = feats.to(device)
        programs = programs.to(device)

        outs = tbd_net(feats, programs)
        _, preds = outs.max(1)
        mapped_ans = map_ans(answers)
        num_correct += (preds.to('cpu') == mapped_ans).sum()
        num_samples += preds.size(0)

    return (num_correct, num_samples)


def write_acc(f, string, correct, total):
    ''' Convenience function to write the accuracy to a file '''
    percent = correct / total * 100 if total != 0 else 100
    f.write(string.format(correct, total, percent))
# %%
optimizer = torch.optim.Adam(tbd_net.parameters(), 1e-04)
xent_loss = torch.nn.CrossEntropyLoss().to(device)
# %%
def train_epoch():
    ''' Convenience function to train the model for one epoch. '''
    num_correct, num_samples = 0, 0
    for batch in train_loader:
        _, _, feats, answers, programs = batch
        feats = feats.to(device)
        programs = programs.to(device)

        optimizer.zero_grad()
        outs = tbd_net(feats, programs)
        _, preds = outs.max(1)
        mapped_ans = map_ans(answers)
        num_correct += (preds.to('cpu') == mapped_ans).sum()
        num_samples += preds.size(0)
        loss = xent_loss(outs, mapped_ans.to(device))

        # L1 penalty on the intermediate attention masks
        loss += tbd_net.attention_sum * 2.5e-07

        loss_file.write('Loss: {}\n'.format(loss.item()))
        loss.backward()
        optimizer.step()

    val_correct, val_samples = check_accuracy(val_loader)

    write_acc(acc_file, 'Train Accuracy: {} / {} ({:.2f}%)\n', num_correct, num_samples)
    write_acc(acc_file, 'Val Accuracy: {} / {} ({:.2f}%)\n', val_correct, val_samples)
    acc_file.flush()
# %%
loss_file = io.StringIO()
acc_file = io.StringIO()
epoch = 0
while epoch < 3:
    epoch += 1
    print('starting epoch', epoch)
    train_epoch()
# %%
# Now let's see how our model did on the validation set
val_correct, val_samples = check_accuracy(val_loader)
print('Val Accuracy: {} / {}'.format(val_correct, val_samples))
