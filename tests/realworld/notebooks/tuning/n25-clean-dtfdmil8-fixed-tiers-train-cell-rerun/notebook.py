# source: https://github.com/hrzhang1123/DTFD-MIL/issues/8 (the same notebook as the module case from this issue, with Main_DTFD_MIL.py as the issue proposes to fix it: optimizer0.step() moved right before optimizer1.step(), after the second-tier loss1.backward(); the training cell is run a second time, as one does to train for more epochs)
# scenario: clean
# order: 0 1 2 3 3
# expert: Nothing to fix: each slide builds its own first- and second-tier graphs and both backward passes run before either optimizer steps, so re-running the training cell starts fresh graphs.
# %%
import io
import numpy as np
import torch

from Main_DTFD_MIL import parser, train_attention_preFeature_DTFD, reOrganize_mDATA
from Main_DTFD_MIL import Attention, Attention_with_Classifier, Classifier_1fc, DimReduction

params = parser.parse_args(['--device', 'cpu', '--mDim', '32', '--EPOCH', '1', '--train_show_freq', '4'])
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
