import torch
import torch.nn as nn


class CLIPVisionConfig:
    """stand-in for transformers.CLIPVisionConfig (tiny sizes)"""
    def __init__(self, hidden_size=32, patch_size=4, image_size=16, num_hidden_layers=2):
        self.hidden_size = hidden_size
        self.patch_size = patch_size
        self.image_size = image_size
        self.num_hidden_layers = num_hidden_layers

    @classmethod
    def from_pretrained(cls, name):
        return cls()


class _Output:
    def __init__(self, hidden_states):
        self.hidden_states = hidden_states
        self.last_hidden_state = hidden_states[-1]


class CLIPVisionModel(nn.Module):
    """stand-in for transformers.CLIPVisionModel: patch embedding + class token + encoder layers"""
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.patch_embedding = nn.Conv2d(3, config.hidden_size, config.patch_size, stride=config.patch_size)
        self.class_embedding = nn.Parameter(torch.randn(config.hidden_size) * 0.02)
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(config.hidden_size, 4, 64, dropout=0.0, batch_first=True)
                                     for _ in range(config.num_hidden_layers)])

    @classmethod
    def from_pretrained(cls, name, device_map=None):
        return cls(CLIPVisionConfig.from_pretrained(name))

    def forward(self, pixel_values, output_hidden_states=False):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        x = torch.cat([self.class_embedding.expand(x.shape[0], 1, -1), x], dim=1)
        hidden_states = [x]
        for layer in self.layers:
            x = layer(x)
            hidden_states.append(x)
        return _Output(tuple(hidden_states))


class CLIPVisionTower(nn.Module):
    def __init__(self, vision_tower, args, delay_load=False):
        super().__init__()

        self.is_loaded = False

        self.vision_tower_name = vision_tower
        self.select_layer = args.mm_vision_select_layer
        self.select_feature = getattr(args, 'mm_vision_select_feature', 'patch')

        if not delay_load:
            self.load_model()
        else:
            self.cfg_only = CLIPVisionConfig.from_pretrained(self.vision_tower_name)

    def load_model(self):
        self.vision_tower = CLIPVisionModel.from_pretrained(self.vision_tower_name)
        self.vision_tower.requires_grad_(False)

        self.is_loaded = True

    def feature_select(self, image_forward_outs):
        image_features = image_forward_outs.hidden_states[self.select_layer]
        if self.select_feature == 'patch':
            image_features = image_features[:, 1:]
        elif self.select_feature == 'cls_patch':
            image_features = image_features
        else:
            raise ValueError(f'Unexpected select feature: {self.select_feature}')
        return image_features

    @torch.no_grad()
    def forward(self, images):
        if type(images) is list:
            image_features = []
            for image in images:
                image_forward_out = self.vision_tower(image.to(device=self.device, dtype=self.dtype).unsqueeze(0), output_hidden_states=True)
                image_feature = self.feature_select(image_forward_out).to(image.dtype)
                image_features.append(image_feature)
        else:
            image_forward_outs = self.vision_tower(images.to(device=self.device, dtype=self.dtype), output_hidden_states=True)
            image_features = self.feature_select(image_forward_outs).to(images.dtype)

        return image_features

    @property
    def dummy_feature(self):
        return torch.zeros(1, self.hidden_size, device=self.device, dtype=self.dtype)

    @property
    def dtype(self):
        return self.vision_tower.patch_embedding.weight.dtype

    @property
    def device(self):
        return self.vision_tower.patch_embedding.weight.device

    @property
    def config(self):
        if self.is_loaded:
            return self.vision_tower.config
        else:
            return self.cfg_only

    @property
    def hidden_size(self):
        return self.config.hidden_size
