# source: https://github.com/hrzhang1123/DTFD-MIL/issues/8 (the reporter trains DTFD-MIL from a notebook with PyTorch 1.12 and gets the in-place error at loss1.backward() of the second tier; Main_DTFD_MIL.py of the repository at 10964f4 kept next to the notebook, cut down to its parser, train_attention_preFeature_DTFD and helpers, with Model/Attention.py, Model/network.py and utils.get_cam_1d as flat modules; the notebook sets up models and optimizers as main() does, with random 64-d patch features for 8 slides instead of the pickled Camelyon16 features, mDim 32, and a no-op writer instead of tensorboard's SummaryWriter)
# scenario: imported_module
# cause: inplace_modified_saved_tensor
# root: file Main_DTFD_MIL.py line 145
# expert: In train_attention_preFeature_DTFD the first-tier optimizer0.step() runs before the second-tier loss1.backward(), but the second tier's input (the attention-pooled tattFeat_tensor with distill_type 'AFS') was computed with the first-tier weights, which the step has just modified in place. As the issue proposes, call optimizer0.step() right before optimizer1.step(), after loss1.backward(), so both backward passes see the weights they were computed with.
# %%
import io
import numpy as np
import torch

from Main_DTFD_MIL import parser, train_attention_preFeature_DTFD, reOrganize_mDATA
from Main_DTFD_MIL import Attention, Attention_with_Classifier, Classifier_1fc, DimReduction

params = parser.parse_args(['--device', 'cpu', '--mDim', '32', '--EPOCH', '2', '--train_show_freq', '4'])
# %%
# stand-in for the pickled patch features of Camelyon16 (slide name -> list of patches with a 'feature' vector)
rng = np.random.RandomState(0)
mDATA_train = {}
for i in range(8):
    name = ('tumor_%03d' if i % 2 else 'normal_%03d') % i
    mDATA_train[name] = [{'feature': rng.randn(64).astype(np.float32)} for _ in range(int(rng.randint(12, 20)))]
SlideNames_train, FeatList_train, Label_train = reOrganize_mDATA(mDATA_train)


class NoWriter:  # stands in for torch.utils.tensorboard.SummaryWriter
    def add_scalar(self, *args, **kwargs):
        pass


writer = NoWriter()
log_file = io.StringIO()
# %%
in_chn = 64

classifier = Classifier_1fc(params.mDim, params.num_cls, params.droprate).to(params.device)
attention = Attention(params.mDim).to(params.device)
dimReduction = DimReduction(in_chn, params.mDim, numLayer_Res=params.numLayer_Res).to(params.device)
attCls = Attention_with_Classifier(L=params.mDim, num_cls=params.num_cls, droprate=params.droprate_2).to(params.device)

ce_cri = torch.nn.CrossEntropyLoss(reduction='none').to(params.device)

trainable_parameters = []
trainable_parameters += list(classifier.parameters())
trainable_parameters += list(attention.parameters())
trainable_parameters += list(dimReduction.parameters())

optimizer_adam0 = torch.optim.Adam(trainable_parameters, lr=params.lr,  weight_decay=params.weight_decay)
optimizer_adam1 = torch.optim.Adam(attCls.parameters(), lr=params.lr,  weight_decay=params.weight_decay)
# %%
for ii in range(params.EPOCH):
    train_attention_preFeature_DTFD(classifier=classifier, dimReduction=dimReduction, attention=attention, UClassifier=attCls, mDATA_list=(SlideNames_train, FeatList_train, Label_train), ce_cri=ce_cri,
                                    optimizer0=optimizer_adam0, optimizer1=optimizer_adam1, epoch=ii, params=params, f_log=log_file, writer=writer, numGroup=params.numGroup, total_instance=params.total_instance, distill=params.distill_type)
