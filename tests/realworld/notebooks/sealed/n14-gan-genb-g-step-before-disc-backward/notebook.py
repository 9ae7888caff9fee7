# source: variant of https://github.com/chojw/genb/issues/6 (the training iteration of train.py split into a 'train genb' cell and a 'train the discriminator / robust model' cell; small stand-ins for BaseModel, GenB and Discriminator of base_model.py with a softplus on the classifier output so the KL distillation term stays finite, one random VQA batch instead of VQA-CP, CPU)
# scenario: gan_multiloss
# cause: inplace_modified_saved_tensor
# root: cell 2 line 22
# expert: g_loss.backward(retain_graph=True) keeps the graph of pred_g so the discriminator loss can reuse vae_preds = discriminator(pred_g), but optim_G.step() in the genb cell rewrites GenB's weights in place, and dsc_loss.backward() in the next cell needs the weights saved by that forward; as the reporter settled, backward the generator loss without stepping, and step optim_G (with optim_D) only after the discriminator loss has been backpropagated
# %%
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
np.random.seed(0)

num_hid, v_dim, num_objs, ntoken, num_ans = 16, 8, 4, 20, 6

class QVNet(nn.Module):  # stand-in for w_emb/q_emb/v_att/q_net/v_net/classifier
    def __init__(self):
        super().__init__()
        self.w_emb = nn.Embedding(ntoken, 12)
        self.q_emb = nn.GRU(12, num_hid, batch_first=True)
        self.v_att = nn.Linear(v_dim + num_hid, 1)
        self.q_net = nn.Linear(num_hid, num_hid)
        self.v_net = nn.Linear(v_dim, num_hid)
        self.classifier = nn.Sequential(nn.Linear(num_hid, num_hid * 2), nn.ReLU(),
                                        nn.Linear(num_hid * 2, num_ans), nn.Softplus())

    def joint(self, v, q):
        w_emb = self.w_emb(q)
        _, q_emb = self.q_emb(w_emb)
        q_emb = q_emb[-1]
        att = self.v_att(torch.cat([v, q_emb.unsqueeze(1).expand(-1, v.size(1), -1)], 2))
        att = nn.functional.softmax(att, 1)
        v_emb = (att * v).sum(1)
        return self.classifier(self.v_net(v_emb) * self.q_net(q_emb))

class BaseModel(QVNet):
    def forward(self, v, q):
        return self.joint(v, q)

class GenB(QVNet):
    def __init__(self):
        super().__init__()
        self.generate = nn.Sequential(nn.Linear(8, num_hid), nn.BatchNorm1d(num_hid, 0.8),
                                      nn.LeakyReLU(0.2, inplace=True), nn.Linear(num_hid, v_dim),
                                      nn.ReLU(inplace=True))

    def forward(self, v, q, gen=True):
        b, c, f = v.shape
        # generate from noise
        if gen == True:
            v_z = torch.FloatTensor(np.random.normal(0, 1, (b, c, 8)))
            v = self.generate(v_z.view(-1, 8)).view(b, c, f)
        return self.joint(v, q)

class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(num_ans, num_hid), nn.ReLU(True),
                                 nn.Linear(num_hid, 1), nn.Sigmoid())

    def forward(self, z):
        return self.net(z)

def calc_genb_loss(logits, bias, labels):
    gen_grad = torch.clamp(2 * labels * torch.sigmoid(-2 * labels * bias.detach()), 0, 1)
    loss = F.binary_cross_entropy_with_logits(logits, gen_grad)
    loss *= labels.size(1)
    return loss

model, genb, discriminator = BaseModel(), GenB(), Discriminator()
# %%
optim = torch.optim.Adamax(filter(lambda p: p.requires_grad, model.parameters()), lr=0.001)
optim_G = torch.optim.Adamax(filter(lambda p: p.requires_grad, genb.parameters()), lr=0.001)
optim_D = torch.optim.Adamax(filter(lambda p: p.requires_grad, discriminator.parameters()), lr=0.001)
genb.train(True)
discriminator.train(True)
kld = nn.KLDivLoss(reduction='batchmean')
bce = nn.BCELoss()

# one batch: object features, question tokens, soft answer scores
v = torch.rand(4, num_objs, v_dim).requires_grad_()
q = torch.randint(0, ntoken, (4, 5))
a = torch.rand(4, num_ans).round() * torch.rand(4, num_ans)
valid = torch.ones(v.size(0), 1)
fake = torch.zeros(v.size(0), 1)
# %%
# get model output
optim.zero_grad()
pred = model(v, q)

# train genb
optim_G.zero_grad()
optim_D.zero_grad()

pred_g = genb(v, q, gen=True)
g_loss = F.binary_cross_entropy_with_logits(pred_g, a, reduction='none').mean()
g_loss *= a.size(1)

vae_preds = discriminator(pred_g)
main_preds = discriminator(pred)

g_distill = kld(pred_g, pred.detach())
dsc_loss = bce(vae_preds, valid) + bce(main_preds, valid)

g_loss += dsc_loss + g_distill * 5
g_loss.backward(retain_graph=True)
nn.utils.clip_grad_norm_(genb.parameters(), 0.25)
optim_G.step()
# done training genb
# %%
# train the discriminator
dsc_loss = bce(vae_preds, fake) + bce(main_preds, valid)
dsc_loss.backward(retain_graph=True)
optim_D.step()
# done training the discriminator

# use genb to train the robust model
genb.train(False)
pred_g = genb(v, q, gen=False)

genb_loss = calc_genb_loss(pred, pred_g, a)
genb_loss.backward()

nn.utils.clip_grad_norm_(model.parameters(), 0.25)
optim.step()
genb.train(True)
print(g_loss.item(), dsc_loss.item(), genb_loss.item())
