# source: https://github.com/ldkong1205/TranSVAE/issues/11 (the notebook cell from the traceback, 'with torch.no_grad(): if __name__ == "__main__": main(opt)', around the notebook's train()/main(); TranSVAE cut down to a small source/target video-feature model with a classifier and a domain discriminator on random clip features, 2 epochs of 3 batches)
# scenario: no_grad_setup
# cause: no_grad_fn
# root: cell 3 line 1
# expert: the cell that launches training wraps main(opt) in torch.no_grad(), so every forward pass inside train() (defined in an earlier cell) runs without building a graph and loss.backward() finds a loss without grad_fn; training must not run under no_grad: call main(opt) directly.
# %%
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

opt = argparse.Namespace(epochs=2, lr=1e-3, clip_gradient=20, weighted_class_loss='N', use_vae=False,
                         num_segments=5, feat_dim=32, num_class=6)
source_loader = [(torch.randn(4, opt.num_segments, opt.feat_dim), torch.randint(0, opt.num_class, (4,))) for _ in range(3)]
target_loader = [(torch.randn(4, opt.num_segments, opt.feat_dim), torch.randint(0, opt.num_class, (4,))) for _ in range(3)]
# %%
class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.beta = beta
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.beta, None


class TransVAE(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.fc_feature = nn.Sequential(nn.Linear(opt.feat_dim, 32), nn.ReLU())
        self.temporal = nn.GRU(32, 32, batch_first=True)
        self.fc_classifier = nn.Linear(32, opt.num_class)
        self.fc_domain = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, x_source, x_target, beta=1.0):
        feats = []
        for x in (x_source, x_target):
            h, _ = self.temporal(self.fc_feature(x))
            feats.append(h[:, -1])
        pred_source = self.fc_classifier(feats[0])
        pred_domain = [self.fc_domain(GradReverse.apply(f, beta)) for f in feats]
        return pred_source, pred_domain


model = TransVAE(opt)
optimizer = torch.optim.SGD(model.parameters(), lr=opt.lr, momentum=0.9)
# %%
def train(source_loader, target_loader, model, optimizer, train_file, epoch, criterion_src, criterion_domain, opt):
    model.train()
    losses, losses_c = [], []
    for (source_data, source_label), (target_data, _) in zip(source_loader, target_loader):
        out_source, pred_domain = model(source_data, target_data)
        loss_classification = criterion_src(out_source, source_label)
        domain_label = torch.cat([torch.zeros(len(source_data)), torch.ones(len(target_data))]).long()
        loss_adversarial = criterion_domain(torch.cat(pred_domain), domain_label)
        loss = loss_classification + loss_adversarial

        optimizer.zero_grad()
        if opt.use_vae:
            VAE_loss = loss  # the VAE terms are not part of this cut-down model
            VAE_loss.backward()
        else:
            loss.backward()

        if opt.clip_gradient is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), opt.clip_gradient)
        optimizer.step()
        losses.append(loss.item())
        losses_c.append(loss_classification.item())
    train_file.append('epoch %d loss %.4f' % (epoch, sum(losses) / len(losses)))
    return sum(losses) / len(losses), sum(losses_c) / len(losses_c)


def main(opt):
    criterion_src, criterion_domain = nn.CrossEntropyLoss(), nn.CrossEntropyLoss()
    train_file, loss_history = [], []
    for epoch in range(opt.epochs):
        # train one epoch
        loss, loss_c = train(source_loader, target_loader, model, optimizer, train_file, epoch, criterion_src, criterion_domain, opt)

        # update the recorded loss
        loss_history.append((loss, loss_c))
    print('\n'.join(train_file))
# %%
with torch.no_grad():
    if __name__ == '__main__':
        main(opt)
