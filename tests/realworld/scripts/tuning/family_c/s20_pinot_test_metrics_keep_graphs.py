# source: https://github.com/choderalab/pinot/issues/23 (pinot/metrics.py, pinot/net.py and Train/Test/TrainAndTest/MultipleTrainAndTest of pinot/app/experiment.py at b1d7bf9^, driven like scripts/heteroscedastic_vs_homoscedastic/run.py; a small dense-adjacency graph convolution and a minimal dgl.batch/unbatch stand-in replace dgl and the GraphConv representation, random molecule-like graphs replace ESOL, 5 epochs instead of 3000)
# style: gnn
# cause: graph_kept_alive
# line: 218
# expert: Test.test evaluates every recorded state dict with the metric functions, which return the loss tensors themselves (torch.sqrt(mse_loss(...)), 1 - ss_res/ss_tot, net.loss(...).mean()) computed with autograd on, and stores them in the results dict for every state, test and training split and experiment; each stored metric keeps the whole forward graph of the full data set alive, so memory grows with every recorded epoch (the reporter's 'unexpectedly large memory'). As suggested in the thread (extract the value, not the graph-carrying tensor), the maintainer's fix 'detach metrics' (b1d7bf9) makes the metrics return .detach().numpy().
import copy
import torch

torch.manual_seed(0)


# ---- minimal stand-in for dgl (not installed): graphs with node features and an adjacency matrix ----
class _Graph:
    def __init__(self, h0, adj, sizes=None):
        self.ndata = {"h0": h0}
        self.adj = adj
        self.sizes = sizes if sizes is not None else [h0.shape[0]]


class dgl:
    @staticmethod
    def batch(graphs):
        return _Graph(torch.cat([g.ndata["h0"] for g in graphs]),
                      torch.block_diag(*[g.adj for g in graphs]),
                      [s for g in graphs for s in g.sizes])

    @staticmethod
    def unbatch(g):
        out, start = [], 0
        for n in g.sizes:
            out.append(_Graph(g.ndata["h0"][start:start + n], g.adj[start:start + n, start:start + n]))
            start += n
        return out


# ---- pinot/metrics.py ----
def _mse(y, y_hat):
    return torch.nn.functional.mse_loss(y, y_hat)


def mse(net, g, y):
    y_hat = net.expectation(g)
    return _mse(y, y_hat)


def _rmse(y, y_hat):
    return torch.sqrt(torch.nn.functional.mse_loss(y, y_hat))


def rmse(net, g, y):
    y_hat = net.expectation(g)
    return _rmse(y, y_hat)


def _r2(y, y_hat):
    ss_tot = (y - y.mean()).pow(2).sum()
    ss_res = (y_hat - y).pow(2).sum()
    return 1 - torch.div(ss_res, ss_tot)


def r2(net, g, y):
    y_hat = net.expectation(g)
    return _r2(y, y_hat)

def avg_nll(net, g, y):
    return net.loss(g, y).mean()


# ---- pinot/net.py ----
class Net(torch.nn.Module):
    """ An object that combines the representation and parameter
    learning, puts into a predicted distribution and calculates the
    corresponding divergence.

    """

    def __init__(
        self,
        representation,
        parameterization,
        distribution_class=torch.distributions.normal.Normal,
        param_transform=lambda x, y: (x, torch.exp(y) + 1e-5),
        expectation_fn=lambda x, y: x,
    ):
        super(Net, self).__init__()
        self.representation = representation
        self.parametrization = parameterization
        self.distribution_class = distribution_class
        self.param_transform = param_transform
        self.expectation_fn = expectation_fn

    def forward(self, g):
        """ Forward pass.
        """
        h = self.representation(g)
        theta = self.parametrization(h)
        return theta

    def condition(self, g):
        """ Compute the output distribution.
        """
        theta = self.forward(g)
        distribution = self.distribution_class(
            *self.param_transform(*torch.unbind(theta, dim=-1))
        )
        return distribution

    def expectation(self, g):
        theta = self.forward(g)
        return self.expectation_fn(*torch.unbind(theta, dim=-1))

    def loss(self, g, y):
        """ Compute the loss with a input graph and a set of parameters.
        """
        distribution = self.condition(g)
        return -distribution.log_prob(y)


# small graph-convolution representation standing in for
# pinot.representation.Sequential(dgl_legacy.gn('GraphConv'), [32, 'tanh', 32, 'tanh'])
class Sequential(torch.nn.Module):
    def __init__(self, feature_units=8, input_units=16, config=(32, 32)):
        super(Sequential, self).__init__()
        self.f_in = torch.nn.Sequential(torch.nn.Linear(feature_units, input_units), torch.nn.Tanh())
        dims = [input_units] + list(config)
        self.convs = torch.nn.ModuleList([torch.nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])

    def forward(self, g):
        h = self.f_in(g.ndata["h0"])
        for conv in self.convs:
            h = torch.tanh(conv(g.adj @ h))
        return torch.stack([part.sum(0) for part in torch.split(h, g.sizes)])


# ---- pinot/app/experiment.py ----
class Train:
    """ Training experiment.
    """

    def __init__(self, net, data, optimizer, n_epochs=100, record_interval=1):

        self.data = data
        self.optimizer = optimizer
        self.n_epochs = n_epochs
        self.net = net
        self.record_interval = record_interval
        self.states = {}

    def train_once(self):
        """ Train the model for one batch.
        """
        for g, y in self.data:

            def l():
                loss = torch.sum(self.net.loss(g, y))
                self.optimizer.zero_grad()
                loss.backward()
                return loss

            self.optimizer.step(l)

    def train(self):
        """ Train the model for multiple steps and
        record the weights once every
        `record_interval`.

        """

        for epoch_idx in range(self.n_epochs):
            self.train_once()

            if epoch_idx % self.record_interval == 0:
                self.states[epoch_idx] = copy.deepcopy(self.net.state_dict())

        self.states["final"] = copy.deepcopy(self.net.state_dict())

        return self.net


class Test:
    """ Run sequences of test on a trained model.
    """

    def __init__(self, net, data, states, metrics=[rmse, r2]):
        self.net = net  # deepcopy the model object
        self.data = data
        self.metrics = metrics
        self.states = states

    def test(self):
        # switch to test
        self.net.eval()

        # initialize an empty dict for each metrics
        results = {}

        for metric in self.metrics:
            results[metric.__name__] = {}

        for state_name, state in self.states.items():  # loop through states
            self.net.load_state_dict(state)

            # concat y and y_hat in test set
            y = []
            g = []
            for g_, y_ in self.data:
                y.append(y_)
                g += dgl.unbatch(g_)

            if y[0].dim() == 0:
                y = torch.stack(y)
            else:
                y = torch.cat(y)

            g = dgl.batch(g)

            for metric in self.metrics:  # loop through the metrics
                results[metric.__name__][state_name] = metric(self.net, g, y)

        self.results = results
        return dict(results)


class TrainAndTest:
    """ Train a model and then test it.

    """

    def __init__(
        self,
        net,
        data_tr,
        data_te,
        optimizer,
        metrics=[rmse, r2, avg_nll],
        n_epochs=100,
        record_interval=1,
    ):
        self.net = net  # deepcopy the model object
        self.data_tr = data_tr
        self.data_te = data_te
        self.metrics = metrics
        self.optimizer = optimizer
        self.n_epochs = n_epochs
        self.record_interval = record_interval

    def run(self):
        train = Train(
            net=self.net,
            data=self.data_tr,
            optimizer=self.optimizer,
            n_epochs=self.n_epochs,
        )

        print('start training', flush=True)
        train.train()

        self.states = train.states

        print('start testing', flush=True)
        test = Test(
            net=self.net, data=self.data_te, metrics=self.metrics, states=self.states
        )

        test.test()

        self.results_te = test.results

        test = Test(
            net=self.net, data=self.data_tr, metrics=self.metrics, states=self.states
        )

        test.test()

        self.results_tr = test.results

        print('deleting training obj', flush=True)
        del train

        return {'test': self.results_te, 'training': self.results_tr}


class MultipleTrainAndTest:
    """ A sequence of controlled experiment.
    """

    def __init__(self, experiment_generating_fn, param_dicts):
        self.experiment_generating_fn = experiment_generating_fn
        self.param_dicts = param_dicts

    def run(self):
        results = []

        for param_dict in self.param_dicts:
            print(param_dict, flush=True)
            train_and_test = self.experiment_generating_fn(param_dict)
            result = train_and_test.run()
            results.append((param_dict, result))
            del train_and_test

        self.results = results

        return self.results


# ---- scripts/heteroscedastic_vs_homoscedastic/run.py, on random molecule-like graphs instead of ESOL ----
def random_batches(n_batches, batch_size):
    batches = []
    for _ in range(n_batches):
        graphs = []
        for _ in range(batch_size):
            n = int(torch.randint(3, 7, ()))
            adj = (torch.rand(n, n) < 0.4).float()
            adj = ((adj + adj.t() + torch.eye(n)) > 0).float()
            graphs.append(_Graph(torch.randn(n, 8), adj))
        batches.append((dgl.batch(graphs), torch.randn(batch_size)))
    return batches


def run():
    def experiment_generating_fn(param_dict):
        param_transform = param_dict['param_transform']

        net = Net(
            representation=Sequential(),
            parameterization=torch.nn.Linear(32, 2),
            param_transform=param_transform)

        ds = random_batches(5, 4)
        ds_tr, ds_te = ds[:4], ds[4:]

        train_and_test = TrainAndTest(
            net=net,
            data_tr=ds_tr,
            data_te=ds_te,
            optimizer=torch.optim.Adam(net.parameters(), 1e-3),
            n_epochs=5)

        return train_and_test

    multiple_train_and_test = MultipleTrainAndTest(
        experiment_generating_fn=experiment_generating_fn,
        param_dicts=[
            {
                '#': 'homoscedastic, fixed sigma',
                'param_transform': lambda mu, log_sigma: (mu, torch.tensor(1.0))
            },
            {
                '#': 'heteroscedastic, fixed sigma',
                'param_transform': lambda mu, log_sigma: (mu, torch.exp(log_sigma))
            },
        ])

    results = multiple_train_and_test.run()
    for param_dict, result in results:
        print(param_dict['#'], 'test rmse (final):', float(result['test']['rmse']['final']))


if __name__ == '__main__':
    run()
