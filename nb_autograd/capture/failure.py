"""Read a failed call while its traceback is alive; keep only plain records."""
from __future__ import annotations

import ast
import re
import types
from collections.abc import Callable

import torch

from . import touch
from .backwards import BackwardRecorder, root_nodes
from .frames import is_user_file
from .graph import ids_below, node_id, snapshot, walk
from .no_graph import gradless_caches, grad_names, hook_code, no_grad_forwards, numpy_builtins
from .records import Failure, Holder
from .tensor_values import tensor_values
from .user_code import MAX_ITEMS, NOT_OBJECTS, user_class

REACH_LIMIT = 2_000


def traceback_frames(tb):
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next


def _failing_roots(tb) -> list:
    """The roots the failing call was given: the engine's, or (a non-scalar output refused
    before the engine runs) the outputs `_make_grads` was checking."""
    for frame, _ in traceback_frames(tb):
        if frame.f_code.co_name == "_engine_run_backward" and "t_outputs" in frame.f_locals:
            return root_nodes(frame.f_locals["t_outputs"])
    for frame, _ in traceback_frames(tb):
        if frame.f_code.co_name == "_make_grads" and "outputs" in frame.f_locals:
            return root_nodes(frame.f_locals["outputs"])
    return []


def _stale_nodes(failing: set[int], recorder: BackwardRecorder, failing_index: int | None,
                 budget: int) -> dict[int, int]:
    """Nodes of the failing graph that an earlier, graph-freeing call already ran through."""
    freed_by: dict[int, int] = {}
    earlier = [(index, ids) for index, ids in recorder.freed_ids()]
    earlier += [(index, ids_below(roots, budget)) for index, roots in recorder.held_roots()]
    for index, ids in earlier:
        if failing_index is not None and index >= failing_index:
            continue
        for nid in ids & failing:
            if nid >= 0:
                freed_by.setdefault(nid, index)
    return freed_by


def _leaves_apart(recorder: BackwardRecorder, calls: set[int], stale: set[int], budget: int) -> tuple[tuple[int, int], ...]:
    """For each held graph-freeing call in `calls`: how many leaves (parameters, inputs that
    require grad) its graph reaches without going through the stale part. None of them: that
    loss trains nothing but what it shares, so detaching the shared tensor there leaves it
    nothing to backpropagate."""
    out = []
    for index, roots in recorder.held_roots():
        if index not in calls:
            continue
        seen, todo, leaves = set(), list(roots), 0
        while todo and len(seen) < budget:
            node = todo.pop()
            nid = node_id(node)
            if nid in seen or nid in stale:
                continue
            seen.add(nid)
            leaves += nid < 0 and type(node).__name__ == "AccumulateGrad"
            todo.extend(touch.children(node))
        out.append((index, leaves))
    return tuple(out)


def _ddp_parameters(frames) -> tuple[str, ...]:
    """The trainable parameter names of the DistributedDataParallel module the user's frames
    hold, in the order DDP numbers them (its error messages give indices)."""
    ddp = getattr(getattr(torch.nn, "parallel", None), "DistributedDataParallel", None)
    if ddp is None:
        return ()
    for frame in frames:
        for value in list(frame.f_locals.values()):
            if isinstance(value, ddp):
                return tuple(n for n, p in value.module.named_parameters() if p.requires_grad)
    return ()


_MODIFIED = re.compile(r"modified by an inplace operation: \[torch\.\w+ \[([\d, ]*)\]\].*? is at version (\d+);")


def _leaf_ids(roots, limit: int) -> set[int] | None:
    """ids of the tensors the failing graph accumulates gradients into (its parameters), or
    None when the graph could not be read whole."""
    nodes = list(walk(roots, limit))
    if not nodes or len(nodes) >= limit:
        return None
    return {id(v) for n in nodes if (v := getattr(n, "variable", None)) is not None}


def _optimizer_values(frames):
    """(path, optimizer) for the optimizers the frames name, or their objects hold (`self.opt_g`)."""
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            candidates = [(name, value)]
            if not isinstance(value, (torch.optim.Optimizer, *NOT_OBJECTS)) and hasattr(value, "__dict__"):
                try:
                    candidates += [(f"{name}.{k}", v) for k, v in list(vars(value).items())[:MAX_ITEMS]]
                except TypeError:
                    pass
            yield from ((path, opt) for path, opt in candidates if isinstance(opt, torch.optim.Optimizer))


def _optimizers_writing(message: str, frames, roots=()) -> tuple[str, ...]:
    """The optimizers in the user's frames (`opt_g`, `self.optimizer_G`) with a parameter of the
    shape and version an in-place error names: whose step() wrote the saved tensor. Of several
    (an actor-critic's Q and V nets end alike), those whose parameters the failing graph reaches."""
    m = _MODIFIED.search(message)
    if m is None:
        return ()
    shape, version = tuple(int(x) for x in m.group(1).split(",") if x.strip()), int(m.group(2))
    found: dict[str, object] = {}
    for path, opt in _optimizer_values(frames):
        if path not in found and any(tuple(p.shape) in (shape, shape[::-1]) and p._version == version  # a Linear saves weight.t()
                                     for g in opt.param_groups for p in g["params"]):
            found[path] = opt
    leaves = _leaf_ids(roots, max(1, touch.room() // 8)) if len(found) > 1 and roots else None
    reached = [path for path, opt in found.items() if leaves and any(id(p) in leaves for g in opt.param_groups for p in g["params"])]
    return tuple(reached or found)


def _holders(frames, idents: set[str], failing: set[int], stale: set[int]) -> tuple[Holder, ...]:
    found: dict[str, Holder] = {}
    for frame in frames:
        for name, value in list(frame.f_locals.items()):
            if name not in idents or name.startswith("_"):
                continue
            for path, tensor in tensor_values(name, value, idents):
                node = touch.node_of(tensor) if path not in found else None
                if node is None:
                    continue
                nid = node_id(node)
                is_stale = nid in stale
                reaches = is_stale or any(node_id(n) in stale for n in walk([node], REACH_LIMIT))
                if nid in failing or reaches:  # e.g. a memory bank already refreshed this step
                    found[path] = Holder(path, nid, is_stale, reaches, _container(value, path))
    return tuple(found.values())


def _suspended_generators(frames) -> list:
    """The frames of user generators the failing frames hold, paused at a `yield` (a rollout's
    `predict_generator` keeps its `state` there between steps): not on the stack, still user code."""
    found = []
    for frame in frames:
        for value in list(frame.f_locals.values()):
            inner = getattr(value, "gi_frame", None) if isinstance(value, types.GeneratorType) else None
            if inner is not None and is_user_file(inner.f_code.co_filename) and not any(f is inner for f in found):
                found.append(inner)
    return found[:4]


def _container(value, path: str) -> str:
    """How `path` holds its tensor, outermost first, joined by ">": "namedtuple" for `state[0]`
    of a NamedTuple, "dict>tuple" for `states[0][1]` of a dict of (h, c) pairs, "tensor" for a
    plain name. Read from instance dicts and the containers themselves (no user code runs)."""
    base, _, indexes = path.partition("[")
    for attr in base.split(".")[1:]:
        own = getattr(value, "__dict__", None)
        buffers = own.get("_buffers") if isinstance(own, dict) else None
        if isinstance(own, dict) and attr in own:
            value = own[attr]
        elif isinstance(buffers, dict) and attr in buffers:
            value = buffers[attr]
        else:
            return ""
    kinds = [_kind(value)]
    for key in _INDEX.findall("[" + indexes if indexes else ""):
        try:
            value = value[ast.literal_eval(key)]
        except Exception:
            return ">".join(kinds)
        if isinstance(value, torch.Tensor):
            break
        kinds.append(_kind(value))
    return ">".join(kinds)


_INDEX = re.compile(r"\[([^\]]*)\]")


def _kind(value) -> str:
    if isinstance(value, torch.Tensor):
        return "tensor"
    if isinstance(value, tuple):
        return "namedtuple" if hasattr(type(value), "_fields") else "tuple"
    if isinstance(value, (list, dict)):
        return "list" if isinstance(value, list) else "dict"
    return "deque" if type(value).__name__ == "deque" else "object"


def _user_modules_in_library_frames(frames) -> list:
    """Frames of a framework (Lightning's strategy, a trainer) that hold the user's own
    module: its attributes are what the user's methods call `self.x`."""
    found = []
    for frame in frames:
        if is_user_file(frame.f_code.co_filename):
            continue
        for value in list(frame.f_locals.values()):
            if isinstance(value, torch.nn.Module) and user_class(type(value)):
                if not any(v is value for v in found):
                    found.append(value)
    return found[:4]


def read_failure(exc: BaseException, tb, cell_filename: str, source: str, recorder: BackwardRecorder,
                 origin: Callable | None = None, made_at: Callable | None = None) -> Failure:
    """Facts about `exc` for the cell compiled as `cell_filename` (`source`: the text whose
    names may hold tensors). Never keeps `exc` or frames."""
    frames = []
    for frame, line in traceback_frames(tb):
        if frame.f_code.co_name == "_engine_run_backward":
            break  # below it the engine calls user code (Function.backward, hooks): not the failing line
        frames.append((frame, line))
    user_frames = [(f, line) for f, line in frames if is_user_file(f.f_code.co_filename)]
    stack_lines = tuple(line for f, line in frames if f.f_code.co_filename == cell_filename)
    stack = tuple((f.f_code.co_filename, line) for f, line in user_frames)
    roots = _failing_roots(tb)
    owned = _user_modules_in_library_frames([f for f, _ in frames])
    frames.clear()
    base = dict(error_type=type(exc).__name__, message=str(exc)[:4000], stack_lines=stack_lines, stack=stack,
                unit=recorder.unit, ddp_parameters=_ddp_parameters([f for f, _ in user_frames]),
                written_by=_optimizers_writing(str(exc), [f for f, _ in user_frames], roots),
                grad_names=grad_names([f for f, _ in reversed(user_frames)]) if "numpy()" in str(exc) else (),
                numpy_builtins=numpy_builtins(user_frames[-1][0] if user_frames else None) if "numpy()" in str(exc) else ())
    if not roots:
        if "does not require grad" not in base["message"]:
            return Failure(**base)
        names, inner_first = set(re.findall(r"[A-Za-z_]\w*", source)), [f for f, _ in reversed(user_frames)]
        return Failure(**base, grad_mode_off=not torch.is_grad_enabled(), gradless_caches=gradless_caches(inner_first, names),
                       no_grad_forwards=no_grad_forwards(inner_first, names), hook_code=hook_code(inner_first, names))
    # half of the room at most, so graphs still alive from earlier readings leave room for later ones
    budget = max(1, touch.room() // 4)
    failing = ids_below(roots, budget)
    freed_by = _stale_nodes(failing, recorder, recorder.failing_index, budget)
    stale = set(freed_by)
    idents = set(re.findall(r"[A-Za-z_]\w*", source))
    holders = _holders([f for f, _ in reversed(user_frames)], idents, failing, stale)
    seen = {h.path for h in holders}  # a name on the stack wins over the same name in a paused generator
    holders += tuple(h for h in _holders(_suspended_generators([f for f, _ in user_frames]), idents, failing, stale)
                     if h.path not in seen)
    if owned and not any(h.stale or h.reaches_stale for h in holders if "." in h.path):
        holders += _holders([types.SimpleNamespace(f_locals={"self": m}) for m in owned], idents, failing, stale)
    graph = snapshot(roots, stale=stale, freed_by=freed_by, origin=origin, limit=budget, made_at=made_at,
                     versions="modified by an inplace operation" in base["message"])
    apart = _leaves_apart(recorder, set(freed_by.values()), stale, budget) if stale else ()
    return Failure(**base, root_ids=tuple(node_id(r) for r in roots), graph=graph,
                   freed_by=tuple(sorted(freed_by.items())), holders=holders, leaves_apart=apart)
