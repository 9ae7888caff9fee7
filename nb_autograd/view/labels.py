"""The widget's own words (buttons, graph legend, block names) in each catalog language.
The explanation itself comes from the i18n catalogs through the pipeline."""
from __future__ import annotations

from ..i18n import text

WORDS = {
    "en": {
        "lang_name": "English", "insert": "Insert below {target}", "replace": "Replace {target}", "copy": "Copy",
        "copied": "Copied to the clipboard.", "copy_failed": "Could not copy: select the code and copy it.",
        "inserted": "Inserted below {target} as a new cell. Review it, then run it.",
        "replaced": "Replaced the code of {target}. Review it, then run it (undo with Z in command mode).",
        "no_notebook": "This front end does not let the widget edit the notebook: copy the fix, or run {magic} in a new cell.",
        "cell_gone": "The failing cell is no longer in this notebook: copy the fix, or run {magic} in a new cell.",
        "graph": "Autograd graph", "fit": "Fit", "expand_all": "Expand all", "collapse_all": "Collapse",
        "graph_hint": "Click a node for its details, a block to open it. Scroll to zoom, drag to pan.",
        "no_graph": "No graph was captured for this error.", "no_layout": "The graph could not be drawn: {why}",
        "working": "Laying out...", "live": "live buffers", "freed": "freed buffers", "none": "saves nothing",
        "unknown": "unknown", "failed": "backward failed here", "stale": "freed by an earlier backward",
        "leaf": "parameter / input (leaf)", "root": "output of the failing backward", "this_cell": "this cell",
        "op": "Operation", "saved": "Saved tensors", "name": "name", "shape": "shape", "dtype": "dtype",
        "bytes": "bytes", "state": "state", "created": "Created at line {line}, iteration {iteration}",
        "created_line": "Created at line {line}", "freed_by": "Freed by the backward at line {line} (iteration {iteration})",
        "freed_by_n": "Freed by backward call #{index}", "leaf_shape": "Leaf tensor of shape {shape}",
        "collapse_block": "Collapse its block", "expand": "Open this block",
        "block_line": "line {line}, iteration {iteration}", "block_line_only": "line {line}",
        "block_iteration": "iteration {iteration}", "block_iterations": "iterations {a}–{b}",
        "block_range": "ops #{a}–#{b}", "block_chain": "chain {first} → {last}",
        "block_leaves": "parameters and inputs", "block_outside": "made outside the cell",
        "block_size": "{size} nodes", "block_freed": "{freed} freed", "items": "{shown} of {total} nodes shown",
        "partial": "the graph goes on below: only the {total} nodes nearest the output were read, so torch can still free it safely",
        "too_big": "That would make the drawing too big to lay out quickly: collapse a block first.",
        "fix_n": "Fix {n}", "other": "Other possible causes", "lines": "The cell",
        "magic_insert": "%gradfix {n}", "magic_replace": "%gradfix {n} replace",
    },
    "zh": {
        "lang_name": "简体中文", "insert": "插入到{target}下方", "replace": "替换{target}", "copy": "复制",
        "copied": "已复制到剪贴板。", "copy_failed": "无法复制：请选中代码后手动复制。",
        "inserted": "已作为新单元格插入到{target}下方。请检查后再运行。",
        "replaced": "已替换{target}的代码。请检查后再运行（命令模式下按 Z 可撤销）。",
        "no_notebook": "当前前端不允许小部件编辑笔记本：请复制修复代码，或在新单元格中运行 {magic}。",
        "cell_gone": "出错的单元格已不在本笔记本中：请复制修复代码，或在新单元格中运行 {magic}。",
        "graph": "自动求导计算图", "fit": "适应", "expand_all": "全部展开", "collapse_all": "折叠",
        "graph_hint": "点击节点查看详情，点击块将其展开。滚动缩放，拖动平移。",
        "no_graph": "此错误没有捕获到计算图。", "no_layout": "无法绘制计算图：{why}",
        "working": "正在布局……", "live": "缓冲区仍存活", "freed": "缓冲区已释放", "none": "不保存张量",
        "unknown": "未知", "failed": "反向传播在此失败", "stale": "已被之前的反向传播释放",
        "leaf": "参数 / 输入（叶子）", "root": "失败的反向传播的输出", "this_cell": "本单元格",
        "op": "运算", "saved": "保存的张量", "name": "名称", "shape": "形状", "dtype": "类型",
        "bytes": "字节", "state": "状态", "created": "创建于第 {line} 行，第 {iteration} 次迭代",
        "created_line": "创建于第 {line} 行", "freed_by": "被第 {line} 行的反向传播释放（第 {iteration} 次迭代）",
        "freed_by_n": "被第 {index} 次反向传播调用释放", "leaf_shape": "形状为 {shape} 的叶子张量",
        "collapse_block": "折叠所在的块", "expand": "展开此块",
        "block_line": "第 {line} 行 · 第 {iteration} 次迭代", "block_line_only": "第 {line} 行",
        "block_iteration": "第 {iteration} 次迭代", "block_iterations": "第 {a}–{b} 次迭代",
        "block_range": "运算 #{a}–#{b}", "block_chain": "链 {first} → {last}",
        "block_leaves": "参数和输入", "block_outside": "在单元格外创建",
        "block_size": "{size} 个节点", "block_freed": "{freed} 个已释放", "items": "显示 {shown} / {total} 个节点",
        "partial": "计算图在下方还有更多节点：只读取了离输出最近的 {total} 个节点，以免妨碍 torch 安全释放它",
        "too_big": "展开后图太大，无法快速布局：请先折叠一个块。",
        "fix_n": "修复 {n}", "other": "其他可能的原因", "lines": "单元格",
        "magic_insert": "%gradfix {n}", "magic_replace": "%gradfix {n} replace",
    },
}


def words(lang: str) -> dict:
    """All UI words for `lang`, plus the catalog's heading and fix words."""
    out = dict(WORDS["en"])
    out.update(WORDS.get(lang, {}))
    for key in ("heading", "fixes", "line", "trace", "unknown", "silent_heading"):
        out["ui_" + key] = text("ui." + key, lang)
    return out


def words_plain(lang: str) -> dict:
    return WORDS.get(lang, WORDS["en"])


def block_label(kind: str, facts: dict, lang: str) -> str:
    """A block's first line, e.g. 'line 11 · iteration 3'."""
    f, w = facts, words_plain(lang)
    if kind == "line":
        return (w["block_line_only"] if f.get("iteration") is None else w["block_line"]).format(**f)
    if kind == "iteration":
        return w["block_iteration"].format(**f)
    if kind == "range" and f.get("iters") and f["iters"][0] != f["iters"][1]:
        return w["block_iterations"].format(a=f["iters"][0], b=f["iters"][1])
    if kind == "range":
        return w["block_range"].format(a=f["first"], b=f["last"])
    if kind == "chain":
        return w["block_chain"].format(first=f.get("first_op", "?"), last=f.get("last_op", "?"))
    return w["block_" + kind] if "block_" + kind in w else kind
