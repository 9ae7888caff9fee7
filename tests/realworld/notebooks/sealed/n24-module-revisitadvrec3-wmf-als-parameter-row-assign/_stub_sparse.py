"""Stand-in for scipy.sparse (not installed here): csr_matrix over a dense numpy array, with
the few members the trainers use (shape, toarray, transpose, row iteration, indexing)."""
import numpy as np


class csr_matrix:
    def __init__(self, arg):
        self._a = np.atleast_2d(np.asarray(arg, dtype=np.float32))
        self.shape = self._a.shape

    def toarray(self):
        return self._a.copy()

    def transpose(self):
        return csr_matrix(self._a.T)

    def __iter__(self):
        for row in self._a:
            yield csr_matrix(row[None])

    def __getitem__(self, idx):
        return csr_matrix(self._a[idx])

    @property
    def indices(self):
        return np.nonzero(self._a[0])[0]
