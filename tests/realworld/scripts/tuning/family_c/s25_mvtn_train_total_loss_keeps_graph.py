# source: https://github.com/ajhamdi/MVTN/issues/2
# style: vision
# cause: graph_kept_alive
# line: 175
# expert: accumulate the epoch loss as a Python number, total_loss += loss.item() (commit 4c5da6b "fixed memory leakage issue #2"), so no iteration's graph is kept by the running sum
import math
import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)

# ---- models/mvtn.py (LearnedCircularViewSelector + a small PointNet-like FeatureExtractor) ----
class LearnedCircularViewSelector(nn.Module):
    def __init__(self, nb_views=12, canonical_elevation=35.0, canonical_distance=2.2, shape_features_size=512):
        super().__init__()
        self.nb_views = nb_views
        self.canonical_distance = canonical_distance
        views_dist = torch.ones((self.nb_views), dtype=torch.float, requires_grad=False) * canonical_distance
        views_azim = torch.linspace(-180, 180, self.nb_views + 1)[:-1]
        views_elev = torch.ones_like(views_azim, dtype=torch.float, requires_grad=False) * canonical_elevation
        self.view_transformer = nn.Sequential(
            nn.Linear(shape_features_size + 2 * self.nb_views, shape_features_size), nn.ReLU(),
            nn.Linear(shape_features_size, 2 * self.nb_views), nn.Tanh())
        self.register_buffer('views_azim', views_azim)
        self.register_buffer('views_elev', views_elev)
        self.register_buffer('views_dist', views_dist)

    def forward(self, shape_features=None, c_batch_size=1):
        c_views_azim = self.views_azim.expand(c_batch_size, self.nb_views)
        c_views_elev = self.views_elev.expand(c_batch_size, self.nb_views)
        c_views_dist = self.views_dist.expand(c_batch_size, self.nb_views)
        adjutment_vector = self.view_transformer(torch.cat([shape_features, c_views_azim, c_views_elev], dim=1))
        adjutment_vector = torch.chunk(adjutment_vector, 2, dim=1)
        return c_views_azim + adjutment_vector[0] * 180.0 / self.nb_views, c_views_elev + adjutment_vector[1] * 90.0, c_views_dist


class FeatureExtractor(nn.Module):
    def __init__(self, shape_features_size=512):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, shape_features_size))

    def forward(self, points, c_batch_size):
        return self.point_mlp(points).max(dim=1)[0]


class MVTN(nn.Module):
    def __init__(self, nb_views=12, canonical_elevation=30.0, canonical_distance=2.2, shape_features_size=512):
        super().__init__()
        self.view_selector = LearnedCircularViewSelector(nb_views=nb_views, canonical_elevation=canonical_elevation,
                                                         canonical_distance=canonical_distance, shape_features_size=shape_features_size)
        self.feature_extractor = FeatureExtractor(shape_features_size=shape_features_size)

    def forward(self, points=None, c_batch_size=1):
        shape_features = self.feature_extractor(points, c_batch_size)
        return self.view_selector(shape_features=shape_features, c_batch_size=c_batch_size)


# ---- stand-in for models/renderer.py MVRenderer (pytorch3d): a differentiable soft point splatting ----
class MVRenderer(nn.Module):
    def __init__(self, nb_views=12, image_size=16, points_radius=0.1):
        super().__init__()
        self.nb_views, self.image_size, self.points_radius = nb_views, image_size, points_radius
        g = torch.linspace(-1, 1, image_size)
        self.register_buffer('grid', torch.stack(torch.meshgrid(g, g, indexing='ij'), -1))

    def forward(self, meshes, points, azim, elev, dist):
        a, e = azim * math.pi / 180.0, elev * math.pi / 180.0                        # B x M
        x, y, z = points[..., 0:1], points[..., 1:2], points[..., 2:3]               # B x P x 1
        xr = x * torch.cos(a[:, None, :]) + z * torch.sin(a[:, None, :])             # B x P x M
        zr = -x * torch.sin(a[:, None, :]) + z * torch.cos(a[:, None, :])
        yr = y * torch.cos(e[:, None, :]) - zr * torch.sin(e[:, None, :])
        proj = torch.stack([xr, yr], -1) / dist[:, None, :, None]                     # B x P x M x 2
        d2 = ((proj[:, :, :, None, None, :] - self.grid) ** 2).sum(-1)                # B x P x M x H x W
        img = torch.exp(-d2 / self.points_radius ** 2).sum(1).clamp(max=1.0)         # B x M x H x W
        return img.unsqueeze(2).expand(-1, -1, 3, -1, -1), None


# ---- models/multi_view.py ----
def batch_tensor(tensor, dim=1, squeeze=False):
    shape = list(tensor.shape)
    shape[0] = shape[0] * shape[dim]
    del shape[dim]
    return tensor.reshape(shape) if squeeze else tensor


def unbatch_tensor(tensor, batch_size, dim=1, unsqueeze=False):
    shape = list(tensor.shape)
    return tensor.reshape([batch_size, shape[0] // batch_size] + shape[1:])


class ViewMaxAgregate(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, mvimages):
        B, M, C, H, W = mvimages.shape
        pooled_view = torch.max(unbatch_tensor(self.model(batch_tensor(
            mvimages, dim=1, squeeze=True)), B, dim=1, unsqueeze=True), dim=1)[0]
        return pooled_view.squeeze()


class MVAgregate(nn.Module):
    def __init__(self, model, agr_type="max", feat_dim=512, num_classes=1000):
        super().__init__()
        self.agr_type = agr_type
        self.fc = nn.Sequential(nn.LayerNorm(feat_dim), nn.Linear(feat_dim, num_classes))
        self.aggregation_model = ViewMaxAgregate(model=model)

    def forward(self, mvimages):
        pooled_view = self.aggregation_model(mvimages)
        predictions = self.fc(pooled_view)
        return predictions, pooled_view


def regualarize_rendered_views(rendered_images, dropout_p=0, augment_training=False, crop_ratio=0.3):
    rendered_images = nn.functional.dropout2d(rendered_images, p=dropout_p, training=True)
    return rendered_images


# ---- run_mvtn.py ----
setup = {"nb_views": 4, "is_learning_views": True, "view_reg": 0.0, "augment_training": False, "crop_ratio": 0.3,
         "clip_grads": False, "log_metrics": False, "print_freq": 4, "epochs": 3}
classes = list(range(5))
train_loader = [(torch.randint(0, 5, (4,)), None, torch.rand(4, 64, 3) * 2 - 1) for _ in range(8)]

backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 32))
mvnetwork = MVAgregate(backbone, agr_type="max", feat_dim=32, num_classes=len(classes))
mvtn = MVTN(setup["nb_views"], canonical_elevation=30.0, canonical_distance=2.2, shape_features_size=32)
mvrenderer = MVRenderer(nb_views=setup["nb_views"], image_size=16)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(mvnetwork.parameters(), lr=1e-3, weight_decay=0.01)
mvtn_optimizer = torch.optim.AdamW(mvtn.parameters(), lr=1e-4, weight_decay=0.01)
models_bag = {"mvnetwork": mvnetwork, "optimizer": optimizer,
              "mvtn": mvtn, "mvtn_optimizer": mvtn_optimizer, "mvrenderer": mvrenderer}


def train(data_loader, models_bag, setup):
    train_size = len(data_loader)
    total = 0.0
    correct = 0.0

    total_loss = 0.0
    n = 0

    for i, (targets, meshes, points) in enumerate(data_loader):
        c_batch_size = targets.shape[0]
        models_bag["optimizer"].zero_grad()
        if setup["is_learning_views"]:
            models_bag["mvtn_optimizer"].zero_grad()

        azim, elev, dist = models_bag["mvtn"](
            points, c_batch_size=c_batch_size)
        rendered_images, _ = models_bag["mvrenderer"](
            meshes, points,  azim=azim, elev=elev, dist=dist)
        rendered_images = regualarize_rendered_views(
            rendered_images, setup["view_reg"], setup["augment_training"], setup["crop_ratio"])
        targets = Variable(targets)
        outputs = models_bag["mvnetwork"](rendered_images)[0]
        loss = criterion(outputs, targets)
        _, predicted = torch.max(outputs.data, 1)
        total += targets.size(0)

        loss.backward()

        models_bag["optimizer"].step()
        if setup["is_learning_views"]:
            models_bag["mvtn_optimizer"].step()

        if (i + 1) % setup["print_freq"] == 0:
            print("\tIter [%d/%d] Loss: %.4f" %
                  (i + 1, train_size, loss.item()))
        correct += (predicted.cpu() == targets.cpu()).sum()
        total_loss += loss
        n += 1
    avg_loss = total_loss / n
    avg_train_acc = 100 * correct / total

    return avg_train_acc, avg_loss


for epoch in range(setup["epochs"]):
    print('Epoch: [%d/%d]' % (epoch + 1, setup["epochs"]))
    models_bag["mvnetwork"].train()
    models_bag["mvtn"].train()
    models_bag["mvrenderer"].train()
    avg_train_acc, avg_train_loss = train(train_loader, models_bag, setup)
    print('\ttrain acc: %.2f - train Loss: %.4f' % (avg_train_acc.item(), avg_train_loss))
