# source: variant of https://github.com/shenweichen/DeepCTR-Torch/issues/69
# style: tabular
# cause: computed_before_loop
# line: 34
# expert: the regularisation loss is built once in __init__ from the parameters and added to every step's loss; compute it every step inside fit (get_regularization_loss(), as DeepCTR-Torch does since v0.2.2) instead of keeping self.reg_loss
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1024)


class BaseModel(nn.Module):
    def __init__(self, n_feat=5, vocab=10, emb=4, l2_reg_linear=1e-5, l2_reg_embedding=1e-5, device='cpu'):
        super(BaseModel, self).__init__()
        self.device = device
        self.reg_loss = torch.zeros((1,), device=device)
        self.aux_loss = torch.zeros((1,), device=device)
        self.embedding_dict = nn.ModuleDict({'f%d' % i: nn.Embedding(vocab, emb) for i in range(n_feat)})
        self.linear_model = nn.Linear(n_feat * emb, 1)
        self.dnn = nn.Sequential(nn.Linear(n_feat * emb, 8), nn.ReLU(), nn.Linear(8, 1, bias=False))
        self.add_regularization_loss(self.embedding_dict.parameters(), l2_reg_embedding)
        self.add_regularization_loss(self.linear_model.parameters(), l2_reg_linear)

    def add_regularization_loss(self, weight_list, weight_decay, p=2):
        reg_loss = torch.zeros((1,), device=self.device)
        for w in weight_list:
            if isinstance(w, tuple):
                l2_reg = torch.norm(w[1], p=p, )
            else:
                l2_reg = torch.norm(w, p=p, )
            reg_loss = reg_loss + l2_reg
        reg_loss = weight_decay * reg_loss
        self.reg_loss = self.reg_loss + reg_loss

    def forward(self, X):
        emb = torch.cat([self.embedding_dict['f%d' % i](X[:, i]) for i in range(X.size(1))], dim=1)
        return torch.sigmoid(self.linear_model(emb) + self.dnn(emb))

    def fit(self, x, y, batch_size=8, epochs=2):
        model = self.train()
        loss_func = F.binary_cross_entropy
        optim = torch.optim.Adagrad(model.parameters(), lr=0.01)
        for epoch in range(epochs):
            loss_epoch = 0
            total_loss_epoch = 0
            for index in range(0, x.size(0), batch_size):
                x_train = x[index:index + batch_size]
                y_train = y[index:index + batch_size]
                y_pred = model(x_train).squeeze()
                optim.zero_grad()
                loss = loss_func(y_pred, y_train.squeeze(), reduction='sum')
                total_loss = loss + self.reg_loss + self.aux_loss
                loss_epoch += loss.item()
                total_loss_epoch += total_loss.item()
                total_loss.backward()
                optim.step()
            print('epoch', epoch, total_loss_epoch)


x = torch.randint(0, 10, (32, 5))
y = torch.randint(0, 2, (32,)).float()
BaseModel().fit(x, y)
