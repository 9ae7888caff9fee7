# source: https://github.com/dragen1860/MAML-Pytorch/issues/40
# scenario: no_grad_setup
# cause: no_grad_fn
# root: file meta.py line 74
# expert: with update_step=1 the inner loop in Meta.forward (meta.py) never runs, so losses_q[-1] is losses_q[1], the query loss after the first update, which is computed inside 'with torch.no_grad():' and has no grad_fn; compute that query loss with grad enabled and keep only the accuracy bookkeeping under no_grad (as the thread's answer explains)
# %%
import argparse
import torch
import numpy as np
from meta import Meta
torch.manual_seed(222)
np.random.seed(222)
argparser = argparse.ArgumentParser()
argparser.add_argument('--n_way', type=int, default=3)
argparser.add_argument('--k_spt', type=int, default=1)
argparser.add_argument('--k_qry', type=int, default=2)
argparser.add_argument('--task_num', type=int, default=2)
argparser.add_argument('--meta_lr', type=float, default=1e-3)
argparser.add_argument('--update_lr', type=float, default=0.4)
argparser.add_argument('--update_step', type=int, default=1)
args = argparser.parse_args([])
# %%
config = [
    ('linear', [16, 8]),
    ('relu', [True]),
    ('linear', [args.n_way, 16])
]
maml = Meta(args, config)
x_spt = torch.randn(args.task_num, args.n_way * args.k_spt, 8)
y_spt = torch.arange(args.n_way).repeat(args.task_num, args.k_spt)
x_qry = torch.randn(args.task_num, args.n_way * args.k_qry, 8)
y_qry = torch.arange(args.n_way).repeat(args.task_num, args.k_qry)
# %%
for step in range(2):
    accs = maml(x_spt, y_spt, x_qry, y_qry)
    print('step:', step, '\ttraining acc:', accs)
