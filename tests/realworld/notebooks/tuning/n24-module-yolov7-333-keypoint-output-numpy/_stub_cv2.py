"""Stand-in for OpenCV (cv2, not installed here): the few calls keypoint.ipynb and the
yolov7 utils make, on numpy uint8 images (H, W, 3)."""
import numpy as np

INTER_LINEAR = 1
BORDER_CONSTANT = 0
COLOR_RGB2BGR = 4


def imread(path):
    # a seeded 3-channel image in place of ./person.jpg
    return np.random.default_rng(0).integers(0, 256, size=(300, 200, 3), dtype=np.uint8)


def resize(img, size, interpolation=INTER_LINEAR):
    w, h = size
    rows = (np.arange(h) * img.shape[0] / h).astype(int)
    cols = (np.arange(w) * img.shape[1] / w).astype(int)
    return img[rows][:, cols]


def copyMakeBorder(img, top, bottom, left, right, borderType, value=(0, 0, 0)):
    out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right, img.shape[2]), dtype=img.dtype)
    out[...] = np.asarray(value, dtype=img.dtype)
    out[top:top + img.shape[0], left:left + img.shape[1]] = img
    return out


def cvtColor(img, code):
    return np.ascontiguousarray(img[..., ::-1])


def circle(img, center, radius, color, thickness=1):
    return img


def line(img, pt1, pt2, color, thickness=1):
    return img
