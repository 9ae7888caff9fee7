# source: https://pytorch.org/tutorials/advanced/neural_style_tutorial.html (variant: the style target Gram matrix, not the content target, is stored without detach)
# scenario: stored_activations
# cause: tensor_reused_across_iterations
# root: cell 2 line 11
# expert: StyleLoss stores the Gram matrix of the style activations computed while the network weights required grad, so each closure after the first backpropagates into that freed graph; store gram_matrix(target_feature).detach()
# %%
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
imsize = 16
style_img = torch.rand(1, 3, imsize, imsize)
content_img = torch.rand(1, 3, imsize, imsize)
# small stand-in for models.vgg19(...).features (weights keep requires_grad=True, as in the tutorial)
cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
                    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU()).eval()
cnn_normalization_mean = torch.tensor([0.485, 0.456, 0.406])
cnn_normalization_std = torch.tensor([0.229, 0.224, 0.225])
# %%
class ContentLoss(nn.Module):

    def __init__(self, target,):
        super(ContentLoss, self).__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input
# %%
def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)

class StyleLoss(nn.Module):

    def __init__(self, target_feature):
        super(StyleLoss, self).__init__()
        self.target = gram_matrix(target_feature)

    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input
# %%
class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean, self.std = mean.view(-1, 1, 1), std.view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std

def get_style_model_and_losses(cnn, mean, std, style_img, content_img,
                               content_layers=('conv_4',), style_layers=('conv_1', 'conv_2', 'conv_3', 'conv_4')):
    # rebuild the feature extractor, inserting a loss module after the chosen conv layers
    model = nn.Sequential(Normalization(mean, std))
    content_losses, style_losses = [], []
    n_conv = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            n_conv += 1
            name = f'conv_{n_conv}'
        elif isinstance(layer, nn.ReLU):
            name, layer = f'relu_{n_conv}', nn.ReLU(inplace=False)
        else:
            name = f'pool_{n_conv}'
        model.add_module(name, layer)
        if name in content_layers:
            content_loss = ContentLoss(model(content_img))
            model.add_module(f'content_loss_{n_conv}', content_loss)
            content_losses.append(content_loss)
        if name in style_layers:
            style_loss = StyleLoss(model(style_img))
            model.add_module(f'style_loss_{n_conv}', style_loss)
            style_losses.append(style_loss)
        if n_conv == 4 and name.startswith('conv'):
            break
    return model, style_losses, content_losses
# %%
def run_style_transfer(cnn, mean, std, content_img, style_img, input_img,
                       num_steps=300, style_weight=1000000, content_weight=1):
    model, style_losses, content_losses = get_style_model_and_losses(cnn, mean, std, style_img, content_img)
    input_img.requires_grad_(True)
    model.eval()
    model.requires_grad_(False)
    optimizer = torch.optim.LBFGS([input_img])
    run = [0]
    while run[0] <= num_steps:
        def closure():
            with torch.no_grad():
                input_img.clamp_(0, 1)
            optimizer.zero_grad()
            model(input_img)
            style_score = style_weight * sum(sl.loss for sl in style_losses)
            content_score = content_weight * sum(cl.loss for cl in content_losses)
            loss = style_score + content_score
            loss.backward()
            run[0] += 1
            return loss
        optimizer.step(closure)
    with torch.no_grad():
        input_img.clamp_(0, 1)
    return input_img
# %%
input_img = content_img.clone()
output = run_style_transfer(cnn, cnn_normalization_mean, cnn_normalization_std,
                            content_img, style_img, input_img, num_steps=10)
output.shape
