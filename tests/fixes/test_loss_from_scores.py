"""loss_from_scores: a loss read from argmax'ed predictions reads the scores instead, through
the program's own CrossEntropyLoss when it has one; argmax over another dimension is left alone."""
from nb_autograd.fixes.loss_from_scores import loss_from_scores

HEAD = "import torch\ncrit = {crit}\n"
BODY = "logits = net(x)\npreds = torch.softmax(logits, dim=1).argmax({dim})\nloss = crit(preds, y + 0)\n"


def test_reads_the_logits_through_cross_entropy():
    src = HEAD.format(crit="torch.nn.MSELoss()") + BODY.format(dim="dim=1")
    out = loss_from_scores(src, cut_line=4, loss_line=5)
    assert out.endswith("loss = torch.nn.functional.cross_entropy(logits, (y + 0).long())\n")
    assert loss_from_scores(out, cut_line=4, loss_line=5) is None


def test_keeps_the_programs_own_cross_entropy_criterion():
    src = HEAD.format(crit="torch.nn.CrossEntropyLoss(label_smoothing=0.1)") + BODY.format(dim="1")
    assert loss_from_scores(src, cut_line=4, loss_line=5).endswith("loss = crit(logits, (y + 0).long())\n")


def test_leaves_argmax_over_another_dimension_alone():
    src = HEAD.format(crit="torch.nn.MSELoss()") + BODY.format(dim="dim=0")
    assert loss_from_scores(src, cut_line=4, loss_line=5) is None


def test_reads_through_the_casts_a_regression_loss_needed():
    src = HEAD.format(crit="torch.nn.MSELoss()") + BODY.format(dim="1").replace("crit(preds, y + 0)", "crit(preds.float(), y.float())")
    assert loss_from_scores(src, cut_line=4, loss_line=5).endswith(
        "loss = torch.nn.functional.cross_entropy(logits, y.long())\n")
