# source: variant of https://github.com/pytorch/tutorials/issues/123 ("Neural style transfer question": working through the neural style transfer tutorial, whose ContentLoss and StyleLoss each had a backward method running self.loss.backward(retain_variables=...) called one by one in the closure, the reporter asks what those backward methods are for and whether the closure would work as well by summing sl.loss and cl.loss and calling total_score.backward() once; the issue was closed, and the tutorial's closure took exactly that form, loss = style_score + content_score; loss.backward(), in advanced_source/neural_style_tutorial.py). The tutorial came from alexis-jacq's Neural_Style.ipynb (d464a69), whose code cells are used here with the optimisation cell the issue quotes (the one that clamps the input); the loss modules' backward methods are written without the retain flag, as one does when retain_variables disappears from backward. Stand-ins: _stub_torchvision.py gives a small seeded VGG-shaped features stack instead of the pretrained vgg19 (no download), seeded random 32x32 pictures replace picasso.jpg and dancing.jpg (no PIL), _stub_pyplot.py draws nothing, torch seeded before the white-noise input, .data[0] written .item(), 10 runs instead of 300
# scenario: earlier_function
# cause: shared_subgraph_multiple_backward
# root: cell 6 line 17
# expert: The five style losses and the content loss hang off one forward graph (input -> conv_1 -> ... ), so each module's own self.loss.backward() without retaining frees the shared trunk; the first style loss's backward frees conv_1's saved tensors and the second style loss's backward fails on the first closure call. As the reporter proposed and the tutorial later did, add the losses up and backpropagate once per closure call: style_score += sl.loss, content_score += cl.loss, total_score = style_score+content_score; total_score.backward(); return total_score (the loss modules' backward methods are then not called at all).
# %%
from __future__ import print_function

import numpy as np

import torch
import torch.nn as nn
from torch.autograd import Variable
import torch.optim as optim

import _stub_pyplot as plt  # stands in for: import matplotlib.pyplot as plt

from _stub_torchvision import transforms, models  # stands in for: import torchvision.transforms as transforms / import torchvision.models as models
# %%
use_cuda = torch.cuda.is_available()
dtype = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor
# %%
imsize = 32  # desired size of the output image


def image_loader(image_name):
    # stand-in for Image.open(image_name) and loader (Scale + ToTensor): a seeded random picture
    g = torch.Generator().manual_seed(sum(map(ord, image_name)))
    image = Variable(torch.rand(3, imsize, imsize, generator=g))
    # fake batch dimension required to fit network's input dimensions
    image = image.unsqueeze(0)
    return image


style = image_loader("images/picasso.jpg").type(dtype)
content = image_loader("images/dancing.jpg").type(dtype)

assert style.size() == content.size(
),"we need to import style and content images of the same size"
# %%
unloader = transforms.ToPILImage()  # reconvert into PIL image


def imshow(tensor):
    image = tensor.clone().cpu()  # we clone the tensor to not do changes on it
    image = image.view(3, imsize, imsize)  # remove the fake batch dimension
    image = unloader(image)
    plt.imshow(image)


fig = plt.figure()

plt.subplot(221)
imshow(style.data)
plt.subplot(222)
imshow(content.data)
# %%
class ContentLoss(nn.Module):
    def __init__(self, target, weight):
        super(ContentLoss, self).__init__()
        # we 'detach' the target content from the tree used
        self.target = target.detach() * weight
        # to dynamically compute the gradient: this is a stated value,
        # not a variable. Otherwise the forward method of the criterion
        # will throw an error.
        self.weight = weight
        self.criterion = nn.MSELoss()

    def forward(self, input):
        self.loss = self.criterion.forward(input * self.weight, self.target)
        self.output = input
        return self.output

    def backward(self):
        self.loss.backward()
        return self.loss
# %%
class GramMatrix(nn.Module):
    def forward(self, input):
        a, b, c, d = input.size()  # a=batch size(=1)
        # b=number of feature maps
        # (c,d)=dimensions of a f. map (N=c*d)

        features = input.view(a * b, c * d)  # resise F_XL into \hat F_XL

        G = torch.mm(features, features.t())  # compute the gram product

        # we 'normalize' the values of the gram matrix
        # by dividing by the number of element in each feature maps.
        return G.div(a * b * c * d)
# %%
class StyleLoss(nn.Module):
    def __init__(self, target, weight):
        super(StyleLoss, self).__init__()
        self.target = target.detach() * weight
        self.weight = weight
        self.gram = GramMatrix()
        self.criterion = nn.MSELoss()

    def forward(self, input):
        self.output = input.clone()
        self.G = self.gram.forward(input)
        self.G.mul_(self.weight)
        self.loss = self.criterion.forward(self.G, self.target)
        return self.output

    def backward(self):
        self.loss.backward()
        return self.loss
# %%
cnn = models.vgg19(pretrained=True).features

# move it to the GPU if possible:
if use_cuda:
    cnn = cnn.cuda()
# %%
# desired depth layers to compute style/content losses :
content_layers = ['conv_4']
style_layers = ['conv_1', 'conv_2', 'conv_3', 'conv_4', 'conv_5']

# just in order to have an iterable access to or list of content/syle losses
content_losses = []
style_losses = []

model = nn.Sequential()  # the new Sequential module network
gram = GramMatrix()  # we need a gram module in order to compute style targets

# move these modules to the GPU if possible:
if use_cuda:
    model = model.cuda()
    gram = gram.cuda()

# weigth associated with content and style losses
content_weight = 1
style_weight = 1000

i = 1
for layer in list(cnn):
    if isinstance(layer, nn.Conv2d):
        name = "conv_" + str(i)
        model.add_module(name, layer)

        if name in content_layers:
            # add content loss:
            target = model.forward(content).clone()
            content_loss = ContentLoss(target, content_weight)
            model.add_module("content_loss_" + str(i), content_loss)
            content_losses.append(content_loss)

        if name in style_layers:
            # add style loss:
            target_feature = model.forward(style).clone()
            target_feature_gram = gram.forward(target_feature)
            style_loss = StyleLoss(target_feature_gram, style_weight)
            model.add_module("style_loss_" + str(i), style_loss)
            style_losses.append(style_loss)

    if isinstance(layer, nn.ReLU):
        name = "relu_" + str(i)
        model.add_module(name, layer)

        if name in content_layers:
            # add content loss:
            target = model.forward(content).clone()
            content_loss = ContentLoss(target, content_weight)
            model.add_module("content_loss_" + str(i), content_loss)
            content_losses.append(content_loss)

        if name in style_layers:
            # add style loss:
            target_feature = model.forward(style).clone()
            target_feature_gram = gram.forward(target_feature)
            style_loss = StyleLoss(target_feature_gram, style_weight)
            model.add_module("style_loss_" + str(i), style_loss)
            style_losses.append(style_loss)

        i += 1

    if isinstance(layer, nn.MaxPool2d):
        name = "pool_" + str(i)
        model.add_module(name, layer)  # ***
# %%
input = image_loader("images/dancing.jpg").type(dtype)
# if we want to fill it with a white noise:
torch.manual_seed(0)
input.data = torch.randn(input.data.size()).type(dtype)

# add the original input image to the figure:
plt.subplot(223)
imshow(input.data)
# %%
# this line to show that input is a parameter that requires a gradient
input = nn.Parameter(input.data)
optimizer = optim.LBFGS([input])
# %%
run = [0]
while run[0] <= 10:

    def closure():
        # correct the values of updated input image
        input.data.clamp_(0, 1)

        optimizer.zero_grad()
        model.forward(input)
        style_score = 0
        content_score = 0

        for sl in style_losses:
            style_score += sl.loss
        for cl in content_losses:
            content_score += cl.loss

        run[0]+=1
        if run[0] % 10 == 0:
            print("run " + str(run) + ":")
            print(style_score.item())
            print(content_score.item())

        total_score = style_score+content_score
        total_score.backward()

        return total_score

    optimizer.step(closure)

# a last correction...
input.data.clamp_(0, 1)
    
# finally enjoy the result:
plt.subplot(224)
imshow(input.data)
plt.show()
