# source: variant of https://github.com/neuroailab/LocalAggregation-Pytorch/issues/7 (the issue quotes ImageNetAgent.train_one_epoch of src/agents/agents.py, where the memory bank update and the k-means re-clustering follow loss.backward() inside `with torch.no_grad():`; written here with that block run with autograd on and MemoryBank.update storing new_data_memory without its .detach(); LocalAggregationLossModule and MemoryBank of src/objectives/localagg.py on one device, a small MLP encoder on random 3x8x8 images and a few torch k-means iterations instead of FAISS)
# style: contrastive
# cause: tensor_reused_across_iterations
# line: 219
# expert: new_data_memory = l2_normalize(m * bank[indices] + (1 - m) * outputs) is a function of this batch's encoder outputs; scattering it into the memory bank with autograd on puts the bank on this batch's graph, so the next batch's dot products with the bank backpropagate into the freed encoder graph of the previous batch. The repository keeps the bank a constant: MemoryBank.update detaches data_memory and train_one_epoch runs the update under torch.no_grad() after the backward, as the quoted code shows.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


def l2_normalize(x, dim=1):
    return x / torch.sqrt(torch.sum(x**2, dim=dim).unsqueeze(dim))


def repeat_1d_tensor(t, num_reps):
    return t.unsqueeze(1).expand(-1, num_reps)


class LocalAggregationLossModule(torch.nn.Module):

    def __init__(self, memory_bank_broadcast, cluster_label_broadcast, k=4096, t=0.07, m=0.5):
        super(LocalAggregationLossModule, self).__init__()
        self.k, self.t, self.m = k, t, m

        self.indices = None
        self.outputs = None
        self._bank = None  # pass in via forward function
        self._cluster_labels = None
        self.memory_bank_broadcast = memory_bank_broadcast
        self.cluster_label_broadcast = cluster_label_broadcast
        self.data_len = memory_bank_broadcast[0].size(0)

    def _softmax(self, dot_prods):
        Z = 2876934.2 / 1281167 * self.data_len
        return torch.exp(dot_prods / self.t) / Z

    def updated_new_data_memory(self, indices, outputs):
        outputs = l2_normalize(outputs)
        data_memory = torch.index_select(self._bank, 0, indices)
        new_data_memory = data_memory * self.m + (1 - self.m) * outputs
        return l2_normalize(new_data_memory, dim=1)

    def _get_all_dot_products(self, vec):
        assert len(vec.size()) == 2
        return torch.matmul(vec, torch.transpose(self._bank, 1, 0))

    def __get_close_nei_in_back(self, each_k_idx, cluster_labels,
                                back_nei_idxs, k):
        # get which neighbors are close in the background set
        batch_labels = cluster_labels[each_k_idx][self.indices]
        top_cluster_labels = cluster_labels[each_k_idx][back_nei_idxs]
        batch_labels = repeat_1d_tensor(batch_labels, k)

        curr_close_nei = torch.eq(batch_labels, top_cluster_labels)
        return curr_close_nei

    def __get_relative_prob(self, all_close_nei, back_nei_probs):
        relative_probs = torch.sum(
            torch.where(
                all_close_nei,
                back_nei_probs,
                torch.zeros_like(back_nei_probs),
            ), dim=1)
        # normalize probs
        relative_probs = relative_probs / torch.sum(back_nei_probs, dim=1, keepdim=True)
        return relative_probs

    def forward(self, indices, outputs, gpu_idx):
        self.indices = indices.detach()
        self.outputs = l2_normalize(outputs, dim=1)
        self._bank = self.memory_bank_broadcast[gpu_idx]  # select a mem bank based on gpu device
        self._cluster_labels = self.cluster_label_broadcast[gpu_idx]

        k = self.k

        all_dps = self._get_all_dot_products(self.outputs)
        back_nei_dps, back_nei_idxs = torch.topk(all_dps, k=k, sorted=False, dim=1)
        back_nei_probs = self._softmax(back_nei_dps)

        all_close_nei_in_back = None
        no_kmeans = self._cluster_labels.size(0)
        with torch.no_grad():
            for each_k_idx in range(no_kmeans):
                curr_close_nei = self.__get_close_nei_in_back(
                    each_k_idx, self._cluster_labels, back_nei_idxs, k)

                if all_close_nei_in_back is None:
                    all_close_nei_in_back = curr_close_nei
                else:
                    all_close_nei_in_back = all_close_nei_in_back | curr_close_nei

        relative_probs = self.__get_relative_prob(all_close_nei_in_back, back_nei_probs)
        loss = -torch.mean(torch.log(relative_probs + 1e-7)).unsqueeze(0)

        # compute new data memory
        new_data_memory = self.updated_new_data_memory(self.indices, self.outputs)

        return loss, new_data_memory


class MemoryBank(object):
    """For efficiently computing the background vectors."""

    def __init__(self, size, dim, device_ids):
        self.size = size
        self.dim = dim
        self.device = torch.device("cpu")
        self._bank = self._create()
        self.bank_broadcast = [self._bank.clone() for _ in device_ids]
        self.num_device = len(self.bank_broadcast)
        del self._bank

    def _create(self):
        # initialize random weights
        mb_init = torch.rand(self.size, self.dim, device=self.device)
        std_dev = 1. / np.sqrt(self.dim / 3)
        mb_init = mb_init * (2 * std_dev) - std_dev
        # L2 normalise so that the norm is 1
        mb_init = l2_normalize(mb_init, dim=1)
        return mb_init.detach()  # detach so its not trainable

    def as_tensor(self):
        return self.bank_broadcast[0]

    def update(self, indices, data_memory):
        # in lieu of scatter-update operation
        data_dim = data_memory.size(1)
        indices = indices.unsqueeze(1).repeat(1, data_dim)

        for i in range(self.num_device):
            self.bank_broadcast[i] = self.bank_broadcast[i].scatter_(0, indices, data_memory)


class Kmeans(object):
    """Stands in for the FAISS Kmeans wrapper: a few Lloyd iterations in torch."""

    def __init__(self, k, memory_bank, niter=5):
        self.k = k
        self.memory_bank = memory_bank
        self.niter = niter

    def compute_clusters(self):
        data = self.memory_bank.as_tensor()
        pred_labels = []
        for k_idx, each_k in enumerate(self.k):
            g = torch.Generator().manual_seed(1234 + k_idx)
            centroids = data[torch.randperm(data.size(0), generator=g)[:each_k]]
            for _ in range(self.niter):
                labels = torch.cdist(data, centroids).argmin(dim=1)
                centroids = torch.stack([data[labels == c].mean(0) if (labels == c).any() else centroids[c]
                                         for c in range(each_k)])
            pred_labels.append(labels)
        return torch.stack(pred_labels, dim=0).long()


class Config:
    class loss_params:
        loss = 'LocalAggregationLossModule'
        k = 16
        t = 0.07
        m = 0.5
        kmeans_k = 4
        n_kmeans = 2
        kmeans_freq = 4

    class optim_params:
        batch_size = 8
        learning_rate = 0.03


class ImageNetAgent(object):
    def __init__(self, config):
        self.config = config
        self.device = torch.device('cpu')
        self.gpu_devices = [0]
        # stands in for the ImageNet instance dataset: (index, image, label)
        self.train_len = 64
        images = torch.randn(self.train_len, 3, 8, 8)
        batch_size = config.optim_params.batch_size
        self.train_loader = [(torch.arange(i, i + batch_size), images[i:i + batch_size],
                              torch.zeros(batch_size, dtype=torch.long))
                             for i in range(0, self.train_len, batch_size)]
        self.model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU(), nn.Linear(64, 32))
        self.optim = torch.optim.SGD(self.model.parameters(), lr=config.optim_params.learning_rate,
                                     momentum=0.9)

        self.memory_bank = MemoryBank(self.train_len, 32, self.gpu_devices)
        self.cluster_labels = torch.arange(self.train_len).long()
        self.cluster_labels = self.cluster_labels.unsqueeze(0).repeat(config.loss_params.n_kmeans, 1)
        self.loss_fn = LocalAggregationLossModule(self.memory_bank.bank_broadcast,
                                                  [self.cluster_labels],
                                                  k=config.loss_params.k,
                                                  t=config.loss_params.t,
                                                  m=config.loss_params.m)
        self.parallel_helper_idxs = 0
        self.first_iteration_kmeans = True
        self.train_loss = []

    def train_one_epoch(self):
        self.model.train()

        for batch_i, (indices, images, labels) in enumerate(self.train_loader):
            batch_size = images.size(0)

            # do a forward pass
            outputs = self.model(images)

            # compute the loss
            loss, new_data_memory = self.loss_fn(indices, outputs, self.parallel_helper_idxs)
            loss = torch.mean(loss)

            self.optim.zero_grad()
            loss.backward()
            self.optim.step()

            self.memory_bank.update(indices, new_data_memory)
            self.loss_fn.memory_bank_broadcast = self.memory_bank.bank_broadcast  # update loss_fn

            if (self.config.loss_params.loss == 'LocalAggregationLossModule' and
                    (self.first_iteration_kmeans or batch_i == self.config.loss_params.kmeans_freq)):

                if self.first_iteration_kmeans:
                    self.first_iteration_kmeans = False

                # get kmeans clustering (update our saved clustering)
                k = [self.config.loss_params.kmeans_k for _ in
                     range(self.config.loss_params.n_kmeans)]

                self.km = Kmeans(k, self.memory_bank)
                cluster_labels = self.km.compute_clusters()

                # broadcast the cluster_labels after modification
                self.loss_fn.cluster_label_broadcast[0] = cluster_labels

            self.train_loss.append(loss.item())
            print('batch', batch_i, 'loss %.4f' % loss.item())


agent = ImageNetAgent(Config())
agent.train_one_epoch()
