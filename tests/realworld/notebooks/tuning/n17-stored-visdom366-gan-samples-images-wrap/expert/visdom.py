"""Cut-down visdom (June 2018, visdom/__init__.py), next to the notebook: pytorch_wrap and the
Visdom methods it wraps; nothing is sent to a server, the checked numpy payload is only counted."""
import numpy as np


def pytorch_wrap(fn):
    def result(*args, **kwargs):
        args = ((a.detach() if a.requires_grad else a).cpu().numpy()
                if type(a).__module__.startswith('torch') else a for a in args)

        for k in kwargs:
            if type(kwargs[k]).__module__.startswith('torch'):
                val = kwargs[k]
                if val.requires_grad:
                    val = val.detach()
                kwargs[k] = val.cpu().numpy()

        return fn(*args, **kwargs)
    return result


def wrap_tensor_methods(cls, wrapper):
    fns = ['image', 'images', 'line', 'scatter', 'heatmap', 'histogram']
    for key in [k for k in dir(cls) if k in fns]:
        setattr(cls, key, wrapper(getattr(cls, key)))


class Visdom(object):
    def __init__(self, server='http://localhost', port=8097, env='main'):
        self.server, self.port, self.env = server, port, env
        self.sent = []

    def _send(self, msg):
        self.sent.append(msg)
        return msg.get('win', 'window_%d' % len(self.sent))

    def images(self, tensor, nrow=8, padding=2, win=None, env=None, opts=None):
        assert tensor.ndim == 4, 'images should be 4D: B x C x H x W'
        return self._send({'data': np.asarray(tensor), 'win': win, 'opts': opts})

    def line(self, Y, X=None, win=None, env=None, opts=None, update=None):
        Y = np.asarray(Y)
        X = np.arange(len(Y)) if X is None else np.asarray(X)
        return self._send({'data': (X, Y), 'win': win, 'opts': opts, 'update': update})


wrap_tensor_methods(Visdom, pytorch_wrap)
