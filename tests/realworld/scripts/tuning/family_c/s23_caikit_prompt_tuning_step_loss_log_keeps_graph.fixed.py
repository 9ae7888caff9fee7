# source: https://github.com/caikit/caikit-nlp/pull/258
# style: nlp
# cause: graph_kept_alive
# line: 198
# expert: The prompt-tuning train loop records every step's loss as the live tensor (step_loss_log[step_count] = loss) and only converts it to float after the epoch, so each stored loss keeps its step's autograd graph (grad_fn chain back through the model) alive for the whole epoch and memory grows with the number of steps. The merged PR converts the loss right away, loss_float = loss.detach().float().item(), and stores/accumulates that float (total_loss += loss_float; step_loss_log[step_count] = loss_float).
# PeftPromptTuning._execute_train_loop of caikit_nlp/modules/text_generation/peft_prompt_tuning.py
# as it was before PR #258 (e8d176e^1), run with accelerate's Accelerator on CPU. The PEFT-wrapped
# causal LM is replaced by a tiny prompt-tuning model of the same interface (frozen embedding + LM
# head, 8 trainable virtual-token embeddings, model(**batch).loss/.logits, config.use_cache,
# gradient_checkpointing_enable()); transformers' get_linear_schedule_with_warmup is re-implemented
# with LambdaLR; alog/caikit error helpers are replaced by logging. 2 epochs x 16 random token
# batches, no eval loader, seeded, CPU.
import logging
from datetime import datetime
from types import SimpleNamespace
from typing import Callable, Optional, Union

AutoTokenizer = object  # transformers tokenizer type, only used in annotations here

from accelerate import Accelerator
from torch.optim import AdamW
from torch.utils.data import DataLoader
from tqdm import tqdm
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logging.basicConfig(level=logging.INFO)


class _Log:
    def __init__(self):
        self._log = logging.getLogger("PEFT_PROMPT")

    def info(self, code, *args):
        self._log.info("%s %s", code, args)

    def debug(self, *args):
        self._log.debug(*args)


log = _Log()


def error(code, exc):
    raise exc


# ---- transformers.optimization.get_linear_schedule_with_warmup ----
def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, last_epoch=-1):
    def lr_lambda(current_step: int):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(
            0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps))
        )

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda, last_epoch)


# ---- stand-in for the PeftModel (prompt tuning on a frozen causal LM) ----
class PeftModel(nn.Module):
    def __init__(self, vocab_size=64, dim=32, num_virtual_tokens=8):
        super().__init__()
        self.config = SimpleNamespace(use_cache=True)
        self.word_embeddings = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size)
        self.body = nn.GRU(dim, dim, batch_first=True)
        for p in list(self.word_embeddings.parameters()) + list(self.lm_head.parameters()) + list(self.body.parameters()):
            p.requires_grad_(False)
        self.prompt_encoder = nn.Embedding(num_virtual_tokens, dim)
        self.num_virtual_tokens = num_virtual_tokens

    def gradient_checkpointing_enable(self):
        pass

    def forward(self, input_ids, labels):
        prompts = self.prompt_encoder.weight.unsqueeze(0).expand(input_ids.shape[0], -1, -1)
        h, _ = self.body(torch.cat([prompts, self.word_embeddings(input_ids)], 1))
        logits = self.lm_head(h[:, self.num_virtual_tokens:])
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), labels[:, 1:].reshape(-1))
        return SimpleNamespace(loss=loss, logits=logits)


class PeftPromptTuning:
    @classmethod
    def _execute_train_loop(
        cls,
        model: PeftModel,
        num_epochs: int,
        train_dataloader: DataLoader,
        device: str,
        eval_dataloader: Union[DataLoader, None] = None,
        metric: Optional[Callable] = None,
        learning_rate: int = 1e-3,
        tokenizer: Union[AutoTokenizer, None] = None,
        accumulate_steps: int = 1,
        silence_progress_bars: bool = True,
        torch_dtype: "torch.dtype" = torch.float32,
    ) -> None:
        """Execute the core training logic for training the prompt vectors on the frozen model.
        Note that this is done by reference.

        Args:
            model: PeftModel
                Underlying model being leveraged for text generation via prompt tuning.
            num_epochs: int
                Number of epochs to train.
            train_dataloader: torch.utils.data.DataLoader
                DataLoader to be used for loading training data.
            device: str
                Device to be used for training the model.
            eval_dataloader: Union[DataLoader, None].
                DataLoader to be used for loading eval data or None.
            metric: Union[Callable, None]
                Function to be used for evaluating data if an eval data loader is provided.
                Default: None.
            learning_rate: float
                Learning rate to be used while tuning prompt vectors. Default: 1e-3.
            tokenizer: Union[AutoTokenizer, None]
                Tokenizer for default evaluation; only used if no metric is provided and we have
                an eval dataloader.
                TODO - remove this can likely be removed.
            accumulate_steps: int
                Number of steps to use for gradient accumulation. Default: 1.
            silence_progress_bars: bool
                Silences TQDM progress bars. Default: True
            torch_dtype: torch.dtype
                Dtype to be used for training. Default: torch.float32

        Returns:
            training_metadata: Dict
                Metadata computed during training
        """
        optimizer = AdamW(params=model.parameters(), lr=learning_rate)
        lr_scheduler = get_linear_schedule_with_warmup(
            optimizer=optimizer,
            num_warmup_steps=0,
            num_training_steps=(len(train_dataloader) * num_epochs),
        )

        # Enable gradient checkpointing
        model.gradient_checkpointing_enable()

        if torch_dtype == torch.float16:
            mixed_precision = "fp16"
        elif (
            torch.cuda.is_available()
            and torch.cuda.is_bf16_supported()
            and torch_dtype == torch.bfloat16
        ):
            mixed_precision = "bf16"
        else:
            mixed_precision = "no"

        accelerator = Accelerator(
            gradient_accumulation_steps=accumulate_steps,
            device_placement=True,
            mixed_precision=mixed_precision,
        )

        # Disable cache for training
        model.config.use_cache = False

        # Below would send all the data and model to
        # configured device and convert them to required dtypes
        model, optimizer, new_train_dataloader, lr_scheduler = accelerator.prepare(
            model,
            optimizer,
            train_dataloader,
            lr_scheduler,
        )

        training_loss_tracker = []

        step_count = 1

        for epoch in range(num_epochs):
            step_loss_log = {}
            model.train()
            total_loss = 0
            tqdm_loader = tqdm(new_train_dataloader, disable=silence_progress_bars)
            for batch in tqdm_loader:

                tqdm_loader.set_description("Epoch: {}".format(epoch))

                # TODO Can this dict comprehension always replace "batch.to(device)" for us?
                try:
                    with accelerator.accumulate(model):
                        outputs = model(**batch)
                        loss = outputs.loss
                        # We are converting loss to float explicitely for later use
                        # keeping it in tensor form can potentially cause memory issues
                        loss_float = loss.detach().float().item()
                        total_loss += loss_float
                        accelerator.backward(loss)
                        optimizer.step()
                        lr_scheduler.step()
                        optimizer.zero_grad()
                        step_loss_log[step_count] = loss_float
                        step_count += 1
                except (
                    torch.cuda.OutOfMemoryError  # pylint: disable=catching-non-exception
                ):
                    error(
                        "<NLP07175292E>",
                        MemoryError("Not enough memory available for training!"),
                    )

            log.info("<NLP46114010I>", {"loss": loss_float, "epoch": epoch})

            for step, loss_val in step_loss_log.items():

                # Below is added to be propagated and stored as training_metadata
                training_loss_tracker.append(
                    {
                        "epoch": epoch,
                        "step": step,
                        "value": loss_val,
                        "timestamp": datetime.isoformat(datetime.now()),
                    }
                )

            if eval_dataloader is not None:
                model.eval()

                if metric is not None:
                    for _, batch in enumerate(
                        tqdm(eval_dataloader, disable=silence_progress_bars)
                    ):
                        batch.to(device)
                        with torch.no_grad():
                            outputs = model(**batch)
                        predictions = outputs.logits.argmax(dim=-1)
                        references = batch["labels"]
                        metric.add_batch(
                            predictions=predictions,
                            references=references,
                        )
                    eval_metric = metric.compute()

                    log.info("epoch %s: %s", epoch, eval_metric)
                else:
                    eval_loss = 0
                    # TODO Can we get away with not maintaining eval_preds?
                    eval_preds = []
                    for _, batch in enumerate(
                        tqdm(eval_dataloader, disable=silence_progress_bars)
                    ):
                        batch = {k: v.to(device) for k, v in batch.items()}
                        with torch.no_grad():
                            outputs = model(**batch)
                        loss = outputs.loss
                        eval_loss += loss.detach().float()

                        if tokenizer is not None:
                            eval_preds.extend(
                                tokenizer.batch_decode(
                                    torch.argmax(outputs.logits, -1)
                                    .detach()
                                    .cpu()
                                    .numpy(),
                                    skip_special_tokens=True,
                                )
                            )

                    eval_epoch_loss = eval_loss / len(train_dataloader)
                    eval_ppl = torch.exp(eval_epoch_loss)
                    train_epoch_loss = total_loss / len(eval_dataloader)
                    train_ppl = torch.exp(train_epoch_loss)
                    log.debug(
                        "epoch %s: %s %s %s %s",
                        epoch,
                        train_ppl,
                        train_epoch_loss,
                        eval_ppl,
                        eval_epoch_loss,
                    )

        return {"loss": training_loss_tracker}


class TokenDataset(torch.utils.data.Dataset):
    def __init__(self, n=64, seq_len=24, vocab_size=64):
        self.ids = torch.randint(0, vocab_size, (n, seq_len))

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.ids[i]}


if __name__ == "__main__":
    model = PeftModel()
    train_dataloader = DataLoader(TokenDataset(), batch_size=4, shuffle=True)
    meta = PeftPromptTuning._execute_train_loop(
        model, num_epochs=2, train_dataloader=train_dataloader, device="cpu", learning_rate=1e-2
    )
    print("steps logged:", len(meta["loss"]), "last loss:", meta["loss"][-1]["value"])
