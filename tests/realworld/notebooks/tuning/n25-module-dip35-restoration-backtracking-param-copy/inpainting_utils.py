"""utils/inpainting_utils.py of deep-image-prior, cut down to get_bernoulli_mask (the text mask needs PIL fonts)."""
import numpy as np
from common_utils import *

def get_bernoulli_mask(for_image, zero_fraction=0.95):
    img_mask_np=(np.random.random_sample(size=pil_to_np(for_image).shape) > zero_fraction).astype(int)
    img_mask = np_to_pil(img_mask_np)
    
    return img_mask
