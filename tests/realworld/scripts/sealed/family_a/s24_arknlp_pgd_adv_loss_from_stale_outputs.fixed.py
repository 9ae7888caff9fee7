# source: https://github.com/xiangking/ark-nlp/issues/46
# style: nlp
# cause: computed_before_loop
# line: 257
# expert: In the reporter's PGD _on_backward, every attack step runs a new forward (logits = self.module(**inputs)) but then builds loss_adv from `outputs`, the forward that fit() ran before _on_backward and whose graph loss.backward() has just freed, so the first loss_adv.backward() fails (and retain_graph=True, tried in issue #50, only hides it by backpropagating the clean loss again). The PGD support ark-nlp later added (commit 48663cf, _sequence_classification.py) takes the loss from the perturbed forward: outputs = self.module(**inputs); logits, loss_adv = self._get_train_loss(inputs, outputs, **kwargs).
# The reporter's _on_backward override with PGD from ark_nlp/factory/utils/attack.py, on ark-nlp's
# SequenceClassificationTask as it was at the time of the issue (8977757): fit(), the step hooks,
# _get_train_loss, _compute_loss, _on_backward_record and _on_optimize kept, _on_train_begin cut
# down (no class_num/id2cat bookkeeping, get_optimizer replaced by torch.optim.AdamW, a plain
# DataLoader over dict batches), no EMA/scheduler, no tqdm. A small embedding classifier whose
# embedding is named `emb` (PGD's default emb_name 'emb.') stands in for the BERT model, random
# token batches for the ark-nlp dataset; K = 3, 2 batches, CPU.
import warnings

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

torch.manual_seed(0)


# ---- ark_nlp/factory/utils/attack.py ----
class PGD(object):
    def __init__(self, module):
        self.module = module
        self.emb_backup = {}
        self.grad_backup = {}

    def attack(
        self,
        epsilon=1.,
        alpha=0.3,
        emb_name='emb.',
        is_first_attack=False
    ):
        # emb_name这个参数要换成你模型中embedding的参数名
        for name, param in self.module.named_parameters():
            if param.requires_grad and emb_name in name:
                if is_first_attack:
                    self.emb_backup[name] = param.data.clone()
                norm = torch.norm(param.grad)
                if norm != 0 and not torch.isnan(norm):
                    r_at = alpha * param.grad / norm
                    param.data.add_(r_at)
                    param.data = self.project(name, param.data, epsilon)

    def restore(self, emb_name='emb.'):
        # emb_name这个参数要换成你模型中embedding的参数名
        for name, param in self.module.named_parameters():
            if param.requires_grad and emb_name in name:
                assert name in self.emb_backup
                param.data = self.emb_backup[name]
        self.emb_backup = {}

    def project(self, param_name, param_data, epsilon):
        r = param_data - self.emb_backup[param_name]
        if torch.norm(r) > epsilon:
            r = epsilon * r / torch.norm(r)
        return self.emb_backup[param_name] + r

    def backup_grad(self):
        for name, param in self.module.named_parameters():
            if param.requires_grad and param.grad is not None:
                self.grad_backup[name] = param.grad.clone()

    def restore_grad(self):
        for name, param in self.module.named_parameters():
            if param.requires_grad and param.grad is not None:
                param.grad = self.grad_backup[name]


# ---- ark_nlp/factory/task/base/_sequence_classification.py (cut down) ----
class SequenceClassificationTask(object):
    def __init__(self, module, optimizer, loss_function, n_gpu=1, device=None, **kwargs):
        self.module = module
        self.optimizer = optimizer
        self.loss_function = loss_function
        self.n_gpu = n_gpu
        self.device = device if device is not None else torch.device('cpu')
        self.ema_decay = None
        self.scheduler = None

    def fit(
        self,
        train_data,
        validation_data=None,
        lr=False,
        params=None,
        batch_size=32,
        epochs=1,
        gradient_accumulation_steps=1,
        **kwargs
    ):
        self.logs = dict()

        train_generator = self._on_train_begin(
            train_data,
            validation_data,
            batch_size,
            lr,
            params,
            shuffle=True,
            **kwargs
        )

        for epoch in range(epochs):

            self._on_epoch_begin(**kwargs)

            for step, inputs in enumerate(train_generator):

                self._on_step_begin(epoch, step, inputs, **kwargs)

                # input处理和设备转移
                inputs = self._get_module_inputs_on_train(inputs, **kwargs)

                # forward
                outputs = self.module(**inputs)

                # 计算损失
                logits, loss = self._get_train_loss(inputs, outputs, **kwargs)

                # loss backword
                loss = self._on_backward(inputs, outputs, logits, loss, **kwargs)

                if (step + 1) % gradient_accumulation_steps == 0:

                    # optimize
                    self._on_optimize(inputs, outputs, logits, loss, **kwargs)

                # setp evaluate
                self._on_step_end(step, inputs, outputs, logits, loss, **kwargs)

    def _on_train_begin(self, train_data, validation_data, batch_size, lr, params, shuffle, **kwargs):
        self.train_to_device_cols = ['input_ids', 'label_ids']
        train_generator = DataLoader(train_data, batch_size=batch_size, shuffle=shuffle)
        self.train_generator_lenth = len(train_generator)
        self.optimizer = torch.optim.AdamW(self.module.parameters(), lr=lr)
        self.optimizer.zero_grad()
        self.module.train()
        self.logs['global_step'] = 0
        self.logs['global_loss'] = 0
        return train_generator

    def _on_epoch_begin(self, **kwargs):
        self.module.train()
        self.logs['epoch_loss'] = 0
        self.logs['epoch_evaluation'] = 0
        self.logs['epoch_step'] = 0

    def _on_step_begin(self, epoch, step, inputs, **kwargs):
        pass

    def _get_module_inputs_on_train(
        self,
        inputs,
        **kwargs
    ):
        for col in self.train_to_device_cols:
            if type(inputs[col]) is torch.Tensor:
                inputs[col] = inputs[col].to(self.device)
            else:
                warnings.warn(f"The {col} is not Tensor.\n")

        return inputs

    def _get_train_loss(
        self,
        inputs,
        outputs,
        **kwargs
    ):

        if type(outputs) == tuple:
            if len(outputs) > 2:
                logits, loss, *_ = outputs
            else:
                logits, loss = outputs
        else:
            logits = outputs
            # 计算损失
            loss = self._compute_loss(inputs, logits, **kwargs)

        return logits, loss

    def _compute_loss(
        self,
        inputs,
        logits,
        verbose=True,
        **kwargs
    ):
        loss = self.loss_function(logits, inputs['label_ids'])

        return loss

    def _on_backward_record(self, loss, **kwargs):
        self.logs['global_loss'] += loss.item()
        self.logs['epoch_loss'] += loss.item()

    def _on_optimize(
        self,
        inputs,
        outputs,
        logits,
        loss,
        grad_clip=None,
        **kwargs
    ):
        # 更新权值
        self.optimizer.step()

        # 清空梯度
        self.optimizer.zero_grad()

        self.logs['global_step'] += 1
        self.logs['epoch_step'] += 1

    def _on_step_end(self, step, inputs, outputs, loss, verbose=True, show_step=100, **kwargs):
        pass


# ---- the reporter's task: PGD adversarial training added after loss.backward() ----
class PGDSequenceClassificationTask(SequenceClassificationTask):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.pgd = PGD(self.module)
        self.K = 3

    def _on_backward(
        self,
        inputs,
        outputs,
        logits,
        loss,
        gradient_accumulation_steps=1,
        **kwargs
    ):

        # 如果GPU数量大于1
        if self.n_gpu > 1:
            loss = loss.mean()
        # 如果使用了梯度累积，除以累积的轮数
        if gradient_accumulation_steps > 1:
            loss = loss / gradient_accumulation_steps

        loss.backward()
        self.pgd.backup_grad()
        # 对抗训练
        for t in range(self.K):
            self.pgd.attack(is_first_attack=(t==0)) # 在embedding上添加对抗扰动, first attack时备份param.data
            if t != self.K-1:
                self.module.zero_grad()
            else:
                self.pgd.restore_grad()
            outputs = self.module(**inputs)
            logits, loss_adv = self._get_train_loss(inputs, outputs, **kwargs)
            # 如果GPU数量大于1
            if self.n_gpu > 1:
                loss_adv = loss_adv.mean()
            # 如果使用了梯度累积，除以累积的轮数
            if gradient_accumulation_steps > 1:
                loss_adv = loss_adv / gradient_accumulation_steps
            loss_adv.backward()
        self.pgd.restore() # 恢复embedding参数 

        self._on_backward_record(loss, **kwargs)

        return loss


# ---- stand-in for the BERT classifier and the ark-nlp dataset ----
class TinyClassifier(nn.Module):
    def __init__(self, vocab_size=50, dim=16, class_num=3):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.classifier = nn.Linear(dim, class_num)

    def forward(self, input_ids, label_ids=None, **kwargs):
        return self.classifier(torch.tanh(self.emb(input_ids)).mean(1))


train_data = [{'input_ids': torch.randint(0, 50, (12,)), 'label_ids': torch.randint(0, 3, ()).long()}
              for _ in range(16)]
model = PGDSequenceClassificationTask(TinyClassifier(), 'adamw', nn.CrossEntropyLoss())
model.fit(train_data, lr=2e-5, batch_size=8, epochs=1)
print('global_loss', model.logs['global_loss'])
