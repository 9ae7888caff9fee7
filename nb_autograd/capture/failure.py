"""Read a failed call while its traceback is alive; keep only plain records."""
from __future__ import annotations

import re
import types
from collections.abc import Callable

import torch

from . import touch
from .backwards import BackwardRecorder, root_nodes
from .frames import is_user_file
from .freed_trainers import optimizers_training_freed
from .graph import ids_below, leaves_below, node_id, snapshot, walk
from .inplace_written import optimizers_writing, tensors_writing
from .no_graph import frozen_optimizers, gradless_caches, grad_names, hook_code, no_grad_forwards, numpy_builtins
from .records import Failure, Holder
from .tensor_values import container_of, tensor_values
from .user_code import user_class

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
    nothing to backpropagate. A graph not read whole is left out."""
    counts = ((index, leaves_below(roots, budget, stop=stale)) for index, roots in recorder.held_roots() if index in calls)
    return tuple((index, len(leaves)) for index, leaves in counts if leaves is not None)


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
                    found[path] = Holder(path, nid, is_stale, reaches, container_of(value, path), tensor._base is not None)
    return tuple(found.values())


def _names_in_code(frames) -> set[str]:
    """The names the user's functions use, wherever they were written (a `train` in
    `trainlib.py` or in an earlier cell): their text is not the failing cell's."""
    names: set[str] = set()
    for frame in frames:
        code = frame.f_code
        names.update(code.co_varnames, code.co_cellvars, code.co_freevars, code.co_names)
    return names


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
                written_by=optimizers_writing(str(exc), [f for f, _ in user_frames], roots),
                written_tensors=tensors_writing(str(exc), [f for f, _ in user_frames]),
                grad_names=grad_names([f for f, _ in reversed(user_frames)]) if "numpy()" in str(exc) else (),
                numpy_builtins=numpy_builtins(user_frames[-1][0] if user_frames else None) if "numpy()" in str(exc) else ())
    if not roots:
        if "does not require grad" not in base["message"]:
            return Failure(**base)
        names, inner_first = set(re.findall(r"[A-Za-z_]\w*", source)), [f for f, _ in reversed(user_frames)]
        return Failure(**base, grad_mode_off=not torch.is_grad_enabled(), gradless_caches=gradless_caches(inner_first, names),
                       no_grad_forwards=no_grad_forwards(inner_first, names), hook_code=hook_code(inner_first, names),
                       frozen_optimizers=frozen_optimizers(inner_first))
    # half of the room at most, so graphs still alive from earlier readings leave room for later ones
    budget = max(1, touch.room() // 4)
    failing = ids_below(roots, budget)
    freed_by = _stale_nodes(failing, recorder, recorder.failing_index, budget)
    stale = set(freed_by)
    idents = set(re.findall(r"[A-Za-z_]\w*", source)) | _names_in_code(f for f, _ in user_frames)
    holders = _holders([f for f, _ in reversed(user_frames)], idents, failing, stale)
    seen = {h.path for h in holders}  # a name on the stack wins over the same name in a paused generator
    holders += tuple(h for h in _holders(_suspended_generators([f for f, _ in user_frames]), idents, failing, stale)
                     if h.path not in seen)
    if owned and not any(h.stale or h.reaches_stale for h in holders if "." in h.path):
        holders += _holders([types.SimpleNamespace(f_locals={"self": m}) for m in owned], idents, failing, stale)
    graph = snapshot(roots, stale=stale, freed_by=freed_by, origin=origin, limit=budget, made_at=made_at,
                     versions="modified by an inplace operation" in base["message"])
    apart = _leaves_apart(recorder, set(freed_by.values()), stale, budget) if stale else ()
    trains = optimizers_training_freed([f for f, _ in user_frames], roots, stale, budget) if stale else None
    return Failure(**base, root_ids=tuple(node_id(r) for r in roots), graph=graph,
                   freed_by=tuple(sorted(freed_by.items())), holders=holders, leaves_apart=apart, trains_freed=trains)
