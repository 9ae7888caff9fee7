# source: variant of https://github.com/HamzaG737/Deep-temporal-clustering/issues/1 (the issue notes that ClusterNet's centroids never change during training and the reporter is "trying to add steps to update" them; here that step is written into ClusterNet.forward as a running soft-assignment mean of the batch embeddings, with the centroids kept as a plain tensor attribute. TAE, ClusterNet, compute_similarity and train.py of the repo; small AgglomerativeClustering / roc_auc_score stand-ins instead of scikit-learn, seeded random two-class series instead of the UCR download, the pretrained autoencoder kept in memory instead of a .pth file)
# style: timeseries
# cause: tensor_reused_across_iterations
# line: 172
# expert: The added update builds the new centroids from z and Q, which both hang off the current batch's encoder graph, and stores them on the module; the next batch computes its similarity (and KL loss) against these centroids, so its backward reaches into the previous batch's graph that total_loss.backward() already freed and fails with "Trying to backward through the graph a second time". Cluster statistics must be updated outside autograd: compute the update under torch.no_grad() (or from z.detach() / Q.detach(), as the model already does for z_np), or make the centroids a trained parameter that the optimizer actually holds.
import os

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


# ---- utils.py ----
def compute_CE(x):
    return torch.sqrt(torch.sum(torch.square(x[:, 1:] - x[:, :-1]), dim=1))


def compute_similarity(z, centroids, similarity="EUC"):
    n_clusters, n_hidden = centroids.shape[0], centroids.shape[1]
    bs = z.shape[0]

    if similarity == "CID":
        CE_z = compute_CE(z).unsqueeze(1)  # shape (batch_size , 1)
        CE_cen = compute_CE(centroids).unsqueeze(0)  ## shape (1 , n_clusters )
        z = z.unsqueeze(0).expand((n_clusters, bs, n_hidden))
        mse = torch.sqrt(torch.sum((z - centroids.unsqueeze(1)) ** 2, dim=2))
        CE_z = CE_z.expand((bs, n_clusters))  # (bs , n_clusters)
        CE_cen = CE_cen.expand((bs, n_clusters))  # (bs , n_clusters)
        CF = torch.max(CE_z, CE_cen) / torch.min(CE_z, CE_cen)
        return torch.transpose(mse, 0, 1) * CF

    elif similarity == "EUC":
        z = z.expand((n_clusters, bs, n_hidden))
        mse = torch.sqrt(torch.sum((z - centroids.unsqueeze(1)) ** 2, dim=2))
        return torch.transpose(mse, 0, 1)


# ---- stand-ins for the scikit-learn pieces used by the repo ----
class AgglomerativeClustering(object):
    """Two-cluster complete-linkage stand-in on a precomputed distance matrix."""

    def __init__(self, n_clusters=2, linkage="complete", affinity="precomputed"):
        self.n_clusters = n_clusters

    def fit_predict(self, dist):
        dist = np.asarray(dist)
        i, j = np.unravel_index(np.argmax(dist), dist.shape)
        return (dist[:, j] < dist[:, i]).astype(int)


def roc_auc_score(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    return float(np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])))


# ---- models.py ----
class TAE_encoder(nn.Module):
    def __init__(self, filter_1, filter_lstm, pooling):
        super().__init__()

        self.hidden_lstm_1 = filter_lstm[0]
        self.hidden_lstm_2 = filter_lstm[1]
        self.pooling = pooling
        self.n_hidden = None
        self.conv_layer = nn.Sequential(
            nn.Conv1d(in_channels=1, out_channels=filter_1, kernel_size=10, stride=1, padding=5),
            nn.LeakyReLU(),
            nn.MaxPool1d(self.pooling),
        )
        self.lstm_1 = nn.LSTM(input_size=50, hidden_size=self.hidden_lstm_1, batch_first=True, bidirectional=True)
        self.lstm_2 = nn.LSTM(input_size=50, hidden_size=self.hidden_lstm_2, batch_first=True, bidirectional=True)

    def forward(self, x):
        out_cnn = self.conv_layer(x)
        out_cnn = out_cnn.permute((0, 2, 1))
        out_lstm1, _ = self.lstm_1(out_cnn)
        out_lstm1 = torch.sum(
            out_lstm1.view(out_lstm1.shape[0], out_lstm1.shape[1], 2, self.hidden_lstm_1), dim=2)
        features, _ = self.lstm_2(out_lstm1)
        features = torch.sum(
            features.view(features.shape[0], features.shape[1], 2, self.hidden_lstm_2), dim=2)  ## (batch_size , n_hidden ,1)
        if self.n_hidden == None:
            self.n_hidden = features.shape[1]
        return features


class TAE_decoder(nn.Module):
    def __init__(self, n_hidden=64, pooling=8):
        super().__init__()

        self.pooling = pooling
        self.n_hidden = n_hidden
        self.up_layer = nn.Upsample(size=pooling)
        self.deconv_layer = nn.ConvTranspose1d(
            in_channels=self.n_hidden, out_channels=self.n_hidden, kernel_size=10, stride=1,
            padding=self.pooling // 2)

    def forward(self, features):
        upsampled = self.up_layer(features)  ##(batch_size  , n_hidden , pooling)
        out_deconv = self.deconv_layer(upsampled)[:, :, : self.pooling].contiguous()
        out_deconv = out_deconv.view(out_deconv.shape[0], -1)
        return out_deconv


class TAE(nn.Module):
    def __init__(self, args, filter_1=50, filter_lstm=[50, 1]):
        super().__init__()

        self.pooling = int(args.pool)
        self.filter_1 = filter_1
        self.filter_lstm = filter_lstm

        self.tae_encoder = TAE_encoder(filter_1=self.filter_1, filter_lstm=self.filter_lstm, pooling=self.pooling)
        n_hidden = self.get_hidden(args.serie_size, args.device)
        args.n_hidden = n_hidden
        self.tae_decoder = TAE_decoder(n_hidden=args.n_hidden, pooling=self.pooling)

    def get_hidden(self, serie_size, device):
        a = torch.randn((1, 1, serie_size)).to(device)
        test_model = TAE_encoder(filter_1=self.filter_1, filter_lstm=self.filter_lstm, pooling=self.pooling).to(device)
        with torch.no_grad():
            _ = test_model(a)
        n_hid = test_model.n_hidden
        del test_model, a
        return n_hid

    def forward(self, x):
        features = self.tae_encoder(x)
        out_deconv = self.tae_decoder(features)
        return features.squeeze(2), out_deconv


class ClusterNet(nn.Module):
    def __init__(self, args):
        super().__init__()

        ## init with the pretrained autoencoder model
        self.tae = TAE(args)
        self.tae.load_state_dict(args.tae_state_dict)
        ## clustering model
        self.alpha_ = args.alpha
        self.centr_size = args.n_hidden
        self.n_clusters = args.n_clusters
        self.device = args.device
        self.similarity = args.similarity
        self.centroid_momentum = 0.1

    def init_centroids(self, x):
        z, _ = self.tae(x.squeeze().unsqueeze(1).detach())
        z_np = z.detach().cpu()
        assignements = AgglomerativeClustering(
            n_clusters=2, linkage="complete", affinity="precomputed"
        ).fit_predict(compute_similarity(z_np, z_np, similarity=self.similarity))

        centroids_ = torch.zeros((self.n_clusters, self.centr_size), device=self.device)

        for cluster_ in range(self.n_clusters):
            index_cluster = [k for k, index in enumerate(assignements) if index == cluster_]
            centroids_[cluster_] = torch.mean(z.detach()[index_cluster], dim=0)

        self.centroids = centroids_

    def update_centroids(self, z, Q):
        # move each centroid towards the soft-assignment mean of the batch embeddings
        batch_centroids = (Q.t() @ z) / torch.sum(Q, dim=0).unsqueeze(1)
        self.centroids = (1 - self.centroid_momentum) * self.centroids + self.centroid_momentum * batch_centroids

    def forward(self, x):
        z, x_reconstr = self.tae(x)
        z_np = z.detach().cpu()

        similarity = compute_similarity(z, self.centroids, similarity=self.similarity)

        ## Q (batch_size , n_clusters)
        Q = torch.pow((1 + (similarity / self.alpha_)), -(self.alpha_ + 1) / 2)
        sum_columns_Q = torch.sum(Q, dim=1).view(-1, 1)
        Q = Q / sum_columns_Q

        ## P : ground truth distribution
        P = torch.pow(Q, 2) / torch.sum(Q, dim=0).view(1, -1)
        sum_columns_P = torch.sum(P, dim=1).view(-1, 1)
        P = P / sum_columns_P

        if self.training:
            self.update_centroids(z, Q)
        return z, x_reconstr, Q, P


# ---- train.py ----
def get_loader(args):
    n = 64
    t = torch.linspace(0, 1, args.serie_size)
    labels = torch.randint(0, 2, (n,))
    X = torch.where(labels[:, None] == 1, torch.sin(12 * t)[None, :], torch.sign(torch.sin(5 * t))[None, :])
    X = X + 0.2 * torch.randn(n, args.serie_size)
    X = (X - X.mean()) / X.std()
    data = [(X[i:i + args.batch_size].unsqueeze(1), labels[i:i + args.batch_size]) for i in range(0, n, args.batch_size)]
    return data, X.numpy()


def pretrain_autoencoder(args, verbose=True):
    print("Pretraining autoencoder... \n")
    tae = TAE(args)
    tae = tae.to(args.device)
    loss_ae = nn.MSELoss()
    optimizer = torch.optim.Adam(tae.parameters(), lr=args.lr_ae)
    tae.train()

    for epoch in range(args.epochs_ae):
        all_loss = 0
        for batch_idx, (inputs, _) in enumerate(trainloader):
            inputs = inputs.type(torch.FloatTensor).to(args.device)
            optimizer.zero_grad()
            z, x_reconstr = tae(inputs)
            loss_mse = loss_ae(inputs.squeeze(1), x_reconstr)

            loss_mse.backward()
            all_loss += loss_mse.item()
            optimizer.step()
        if verbose:
            print("Pretraining autoencoder loss for epoch {} is : {}".format(epoch, all_loss / (batch_idx + 1)))

    print("Ending pretraining autoencoder. \n")
    # keep the weights in memory instead of torch.save(tae.state_dict(), args.path_weights_ae)
    args.tae_state_dict = tae.state_dict()


def initalize_centroids(X):
    X_tensor = torch.from_numpy(X).type(torch.FloatTensor).to(args.device)
    model.init_centroids(X_tensor)


def kl_loss_function(input, pred):
    out = input * torch.log((input) / (pred))
    return torch.mean(torch.sum(out, dim=1))


def train_ClusterNET(epoch, args, verbose):
    model.train()
    train_loss = 0
    all_preds, all_gt = [], []
    for batch_idx, (inputs, labels) in enumerate(trainloader):
        inputs = inputs.type(torch.FloatTensor).to(args.device)
        all_gt.append(labels.cpu().detach())
        optimizer_clu.zero_grad()
        z, x_reconstr, Q, P = model(inputs)
        loss_mse = loss1(inputs.squeeze(), x_reconstr)
        loss_KL = kl_loss_function(P, Q)

        total_loss = loss_mse + loss_KL
        total_loss.backward()
        optimizer_clu.step()

        preds = torch.max(Q, dim=1)[1]
        all_preds.append(preds.cpu().detach())
        train_loss += total_loss.item()
    if verbose:
        print("For epoch ", epoch, " Loss is : %.3f" % (train_loss / (batch_idx + 1)))
    all_gt = torch.cat(all_gt, dim=0).numpy()
    all_preds = torch.cat(all_preds, dim=0).numpy()
    return (
        preds.detach().cpu().numpy(),
        max(roc_auc_score(all_gt, all_preds), roc_auc_score(all_gt, 1 - all_preds)),
        train_loss / (batch_idx + 1),
    )


def training_function(args, verbose=True):
    initalize_centroids(X_scaled)

    max_roc_score = 0
    print("Training full model ...")
    for epoch in range(args.max_epochs):
        preds, roc_score, train_loss = train_ClusterNET(epoch, args, verbose=verbose)
        if roc_score > max_roc_score:
            max_roc_score = roc_score
            patience = 0
        else:
            patience += 1
            if patience == args.max_patience:
                break
    return max_roc_score


class Args(object):
    pool = 8
    similarity = "EUC"
    n_clusters = 2
    alpha = 1
    batch_size = 16
    epochs_ae = 2
    max_epochs = 3
    max_patience = 5
    lr_ae = 1e-2
    lr_cluster = 1e-2
    momentum = 0.9
    serie_size = 40
    device = torch.device("cpu")


args = Args()
trainloader, X_scaled = get_loader(args)
pretrain_autoencoder(args)

model = ClusterNet(args)
model = model.to(args.device)
loss1 = nn.MSELoss()
optimizer_clu = torch.optim.SGD(model.parameters(), lr=args.lr_cluster, momentum=args.momentum)

max_roc_score = training_function(args)

print("maximum roc score is {}".format(max_roc_score))
