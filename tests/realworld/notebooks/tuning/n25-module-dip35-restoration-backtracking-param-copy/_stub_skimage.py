"""Stand-in for skimage.measure.compare_psnr (data range 1 for float images)."""
import numpy as np


def compare_psnr(im_true, im_test, data_range=None):
    im_true = np.asarray(im_true, dtype=np.float64)
    im_test = np.asarray(im_test, dtype=np.float64)
    if data_range is None:
        data_range = 1.0
    err = np.mean((im_true - im_test) ** 2)
    return 10 * np.log10((data_range ** 2) / err)
