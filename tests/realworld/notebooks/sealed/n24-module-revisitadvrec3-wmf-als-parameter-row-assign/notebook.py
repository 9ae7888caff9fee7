# source: https://github.com/graytowne/revisit_adv_rec/issues/3 (the reporter runs the attack generation with the WMF-ALS surrogate, "sur_wmf_als"/"sur_wmf_afs", and gets "RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation."; fixed by the author in PR #4, commit ad88bd2. The notebook runs what generate_attack.py and BlackBoxAdvTrainer.train_epoch's compute_adv_grads do for one adversarial epoch: the sur_wmf_als config of generate_attack_args.py, data_tensor = real rows + fake rows with requires_grad, then sur_trainer_.fit_adv(...). trainers/wmf_trainer.py, base_trainer.py, losses.py and utils/utils.py are the repository's at the parent of ad88bd2, kept next to the notebook (flat imports); a seeded random click matrix replaces the Gowalla data, stubs stand in for scipy.sparse and bunch; 8 latent dims, 2 ALS epochs)
# scenario: imported_module
# cause: leaf_inplace
# root: file wmf_trainer.py line 115
# expert: WMFTrainer.train_als writes each solved row into the parameters with model.P[user] = new_p_u.t() (and model.Q[item] = ...), an in-place write into a view of a leaf nn.Parameter that requires grad, outside torch.no_grad(). As the author's fix (PR #4) does, write through .data: model.P.data[user] = new_p_u.t() and model.Q.data[item] = new_q_v.t(), since ALS sets the factors in closed form and they need no gradient history
# %%
import numpy as np
import torch

import _stub_sparse as sparse  # stands in for scipy.sparse
from _stub_bunch import Bunch  # stands in for bunch.Bunch
from losses import *
from utils import set_seed, sparse2tensor
from wmf_trainer import WMFTrainer

seed = 1234
use_cuda = False
set_seed(seed, use_cuda)
# %%
shared_params = {
    "use_cuda": use_cuda,
    "metrics": [],
    "seed": seed,
    "output_dir": "./outputs/",
}
sur_wmf_als = {
    **shared_params,
    "epochs": 2,
    "lr": 1e-3,
    "l2": 5e-2,
    "save_feq": 10,
    "batch_size": 1,
    "valid_batch_size": 512,
    "model": {
        "trainer_class": WMFTrainer,
        "model_name": "Sur-WeightedMF-als",
        "hidden_dims": [8],
        "weight_alpha": 20,
        "optim_method": "als"
    }
}
# %%
# stand-in for the Gowalla train split: users x items clicks
n_users, n_items = 30, 20
train_data = sparse.csr_matrix((np.random.rand(n_users, n_items) < 0.2).astype(np.float32))
target_items = np.array([3, 7])
n_fakes = 2
# BlackBoxAdvTrainer._initialize: the fake users' data, optimized by the attack
fake_tensor = sparse2tensor(sparse.csr_matrix((np.random.rand(n_fakes, n_items) < 0.2).astype(np.float32)))
fake_tensor.requires_grad_()
# %%
# Reset the surrogate model.
sur_args = Bunch(sur_wmf_als)
sur_args.model_load_path = ""
sur_trainer_class = sur_args.model["trainer_class"]
sur_trainer_ = sur_trainer_class(
    n_users=n_users + n_fakes,
    n_items=n_items,
    args=sur_args)

data_tensor = torch.cat(
    [sparse2tensor(train_data),
     fake_tensor.detach().clone()], dim=0)
data_tensor.requires_grad_()

# Train surrogate model.
adv_loss_, adv_grads_ = sur_trainer_.fit_adv(
    data_tensor=data_tensor,
    epoch_num=sur_args["epochs"],
    unroll_steps=1,
    n_fakes=n_fakes,
    target_items=target_items
)
print(adv_loss_, adv_grads_.shape)
