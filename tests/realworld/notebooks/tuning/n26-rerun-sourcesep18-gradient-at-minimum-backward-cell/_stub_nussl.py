"""Stand-in for nussl: only nussl.utils.seed, which seeds random, numpy and torch like nussl's."""
import random
import types

import numpy as np
import torch


def _seed(random_seed, set_cudnn=False):
    torch.manual_seed(random_seed)
    np.random.seed(random_seed)
    random.seed(random_seed)


utils = types.SimpleNamespace(seed=_seed)
