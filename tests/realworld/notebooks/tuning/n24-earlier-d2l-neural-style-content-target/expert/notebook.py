# source: https://d2l.ai/chapter_computer-vision/neural-style.html (PyTorch tab of d2l's Neural Style Transfer section; its content_loss comment: "We detach the target content from the tree used to dynamically compute the gradient: this is a stated value, not a variable. Otherwise the loss will throw an error." Here content_loss is written without that detach, as the comment warns. A small VGG19-shaped random feature stack stands in for the pretrained torchvision VGG-19, seeded random images for rainier.jpg / autumn-oak.jpg, torch-only preprocess without torchvision/PIL, prints instead of d2l.Animator; the last cell of the section is split into a feature cell and a training cell; 10 epochs)
# scenario: earlier_cell
# cause: computed_before_loop
# root: cell 6 line 2
# expert: contents_Y is extracted once, in the cell before training, by the VGG feature layers whose weights require grad, so it carries a graph; the content loss of every epoch backpropagates into it and the second epoch finds it freed. As d2l's content_loss does, detach the target content (Y.detach()): it is a stated value, not a variable
# %%
import torch
from torch import nn

torch.manual_seed(0)
# stand-ins for d2l.Image.open('../img/rainier.jpg') and '../img/autumn-oak.jpg' (H, W, C in [0, 1])
content_img = torch.rand(24, 36, 3)
style_img = torch.rand(30, 40, 3)
# %%
rgb_mean = torch.tensor([0.485, 0.456, 0.406])
rgb_std = torch.tensor([0.229, 0.224, 0.225])

def preprocess(img, image_shape):
    img = nn.functional.interpolate(img.permute(2, 0, 1).unsqueeze(0), size=image_shape,
                                    mode='bilinear', align_corners=False)[0]
    img = (img - rgb_mean.reshape(3, 1, 1)) / rgb_std.reshape(3, 1, 1)
    return img.unsqueeze(0)

def postprocess(img):
    img = img[0].to(rgb_std.device)
    img = torch.clamp(img.permute(1, 2, 0) * rgb_std + rgb_mean, 0, 1)
    return img
# %%
class VGG19Features(nn.Module):
    """stand-in for torchvision.models.vgg19(pretrained=True): the same layer layout, few channels"""
    def __init__(self, cfg=(8, 8, 'M', 16, 16, 'M', 16, 16, 16, 16, 'M', 32, 32, 32, 32, 'M', 32, 32, 32, 32, 'M')):
        super().__init__()
        layers, in_c = [], 3
        for v in cfg:
            if v == 'M':
                layers.append(nn.MaxPool2d(kernel_size=2, stride=2, ceil_mode=True))
            else:
                layers += [nn.Conv2d(in_c, v, kernel_size=3, padding=1), nn.ReLU(inplace=True)]
                in_c = v
        self.features = nn.Sequential(*layers)

pretrained_net = VGG19Features()
style_layers, content_layers = [0, 5, 10, 19, 28], [25]
net = nn.Sequential(*[pretrained_net.features[i] for i in
                      range(max(content_layers + style_layers) + 1)])
# %%
def extract_features(X, content_layers, style_layers):
    contents = []
    styles = []
    for i in range(len(net)):
        X = net[i](X)
        if i in style_layers:
            styles.append(X)
        if i in content_layers:
            contents.append(X)
    return contents, styles

def get_contents(image_shape, device):
    content_X = preprocess(content_img, image_shape).to(device)
    contents_Y, _ = extract_features(content_X, content_layers, style_layers)
    return content_X, contents_Y

def get_styles(image_shape, device):
    style_X = preprocess(style_img, image_shape).to(device)
    _, styles_Y = extract_features(style_X, content_layers, style_layers)
    return style_X, styles_Y
# %%
def content_loss(Y_hat, Y):
    # We detach the target content from the tree used to dynamically compute
    # the gradient: this is a stated value, not a variable. Otherwise the loss
    # will throw an error.
    return torch.square(Y_hat - Y.detach()).mean()

def gram(X):
    num_channels, n = X.shape[1], X.numel() // X.shape[1]
    X = X.reshape((num_channels, n))
    return torch.matmul(X, X.T) / (num_channels * n)

def style_loss(Y_hat, gram_Y):
    return torch.square(gram(Y_hat) - gram_Y.detach()).mean()

def tv_loss(Y_hat):
    return 0.5 * (torch.abs(Y_hat[:, :, 1:, :] - Y_hat[:, :, :-1, :]).mean() +
                  torch.abs(Y_hat[:, :, :, 1:] - Y_hat[:, :, :, :-1]).mean())

content_weight, style_weight, tv_weight = 1, 1e4, 10

def compute_loss(X, contents_Y_hat, styles_Y_hat, contents_Y, styles_Y_gram):
    # Calculate the content, style, and total variance losses respectively
    contents_l = [content_loss(Y_hat, Y) * content_weight for Y_hat, Y in zip(
        contents_Y_hat, contents_Y)]
    styles_l = [style_loss(Y_hat, Y) * style_weight for Y_hat, Y in zip(
        styles_Y_hat, styles_Y_gram)]
    tv_l = tv_loss(X) * tv_weight
    # Add up all the losses
    l = sum(styles_l + contents_l + [tv_l])
    return contents_l, styles_l, tv_l, l
# %%
class SynthesizedImage(nn.Module):
    def __init__(self, img_shape, **kwargs):
        super(SynthesizedImage, self).__init__(**kwargs)
        self.weight = nn.Parameter(torch.rand(*img_shape))

    def forward(self):
        return self.weight

def get_inits(X, device, lr, styles_Y):
    gen_img = SynthesizedImage(X.shape).to(device)
    gen_img.weight.data.copy_(X.data)
    trainer = torch.optim.Adam(gen_img.parameters(), lr=lr)
    styles_Y_gram = [gram(Y) for Y in styles_Y]
    return gen_img(), styles_Y_gram, trainer

def train(X, contents_Y, styles_Y, device, lr, num_epochs, lr_decay_epoch):
    X, styles_Y_gram, trainer = get_inits(X, device, lr, styles_Y)
    scheduler = torch.optim.lr_scheduler.StepLR(trainer, lr_decay_epoch, 0.8)
    for epoch in range(num_epochs):
        trainer.zero_grad()
        contents_Y_hat, styles_Y_hat = extract_features(
            X, content_layers, style_layers)
        contents_l, styles_l, tv_l, l = compute_loss(
            X, contents_Y_hat, styles_Y_hat, contents_Y, styles_Y_gram)
        l.backward()
        trainer.step()
        scheduler.step()
        if (epoch + 1) % 5 == 0:
            print(epoch + 1, float(sum(contents_l)), float(sum(styles_l)), float(tv_l))
    return X
# %%
device, image_shape = torch.device('cpu'), (24, 36)  # (h, w)
content_X, contents_Y = get_contents(image_shape, device)
_, styles_Y = get_styles(image_shape, device)
# %%
output = train(content_X, contents_Y, styles_Y, device, 0.3, 10, 5)
