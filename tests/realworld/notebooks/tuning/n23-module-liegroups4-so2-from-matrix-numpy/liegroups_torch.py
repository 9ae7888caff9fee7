"""liegroups/torch/_base.py, so2.py and utils.py as they were before commit c2b479e
("Added missing detach() calls for numpy conversions"), cut down to what SO2.from_matrix
and SO2Matrix.log use."""
import torch
import numpy as np  # for matrix determinant and SVD


def isclose(mat1, mat2, tol=1e-6):
    """Check element-wise if two tensors are close within some tolerance.

    Either tensor can be replaced by a scalar.
    """
    return (mat1 - mat2).abs_().lt(tol)


class SOMatrixBase:
    """Implementation of methods common to SO(N) matrix lie groups using PyTorch"""

    def __init__(self, mat):
        self.mat = mat

    @classmethod
    def from_matrix(cls, mat, normalize=False):
        mat_is_valid = cls.is_valid_matrix(mat)

        if mat_is_valid.all() or normalize:
            result = cls(mat)
            return result
        else:
            raise ValueError(
                "Invalid rotation matrix. Use normalize=True to handle rounding errors.")

    @classmethod
    def is_valid_matrix(cls, mat):
        if mat.dim() < 3:
            mat = mat.unsqueeze(dim=0)

        # Check the shape
        shape_check = torch.BoolTensor(mat.shape[0]).fill_(False)

        if mat.shape[1:3] != (cls.dim, cls.dim):
            return shape_check
        else:
            shape_check.fill_(True)

        # Determinants of each matrix in the batch should be 1
        det_check = isclose(mat.__class__(
            np.linalg.det(mat.cpu().numpy())), 1.)

        # The transpose of each matrix in the batch should be its inverse
        inv_check = isclose(mat.transpose(2, 1).bmm(mat),
                            torch.eye(cls.dim, dtype=mat.dtype)).sum(dim=1).sum(dim=1) \
            == cls.dim * cls.dim

        return shape_check & det_check & inv_check


class SO2Matrix(SOMatrixBase):
    """See :mod:`liegroups.SO2`"""
    dim = 2
    dof = 1

    def log(self):
        if self.mat.dim() < 3:
            mat = self.mat.unsqueeze(dim=0)
        else:
            mat = self.mat

        s = mat[:, 1, 0]
        c = mat[:, 0, 0]

        return torch.atan2(s, c).squeeze_()

    def to_angle(self):
        """Recover the rotation angle in rad from the rotation matrix."""
        return self.log()


SO2 = SO2Matrix
