"""Plain records the capture stage hands on: ids, strings and sizes, never tensors or frames."""
from __future__ import annotations

from dataclasses import dataclass, field

Frame = tuple[str, int]  # (the filename a code object carries, line): a cell's or a user file's


@dataclass(frozen=True)
class Source:
    """A unit of the user's code that ran: one execution of a cell, or a user file."""

    key: str                   # the filename its code objects carry
    text: str                  # as Python ran it (IPython's transformed cell)
    cell: int | None = None    # the execution count, In [n]
    cell_id: str | None = None # the front end's cell id
    file: str | None = None    # a user file's path (None for a cell)
    raw: str | None = None     # the cell as typed, when IPython transformed it (magics)
    unit: int = 0              # which run of the session it was (files: 0)
    raised: bool = False       # the run ended in an exception


@dataclass(frozen=True)
class Place:
    """Where a line is: a cell run (In [n] and its front-end id) or a user file."""

    cell: int | None = None
    cell_id: str | None = None
    file: str | None = None
    line: int | None = None

    def as_dict(self, line: bool = True) -> dict:
        out = {"cell": self.cell, "cell_id": self.cell_id, "file": self.file}
        return {**out, "line": self.line} if line else out


@dataclass(frozen=True)
class SavedBuffer:
    """One tensor a graph node saved for its backward."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    nbytes: int
    state: str  # "live" | "freed" | "unknown"


@dataclass(frozen=True)
class GraphNode:
    """One autograd node; `id` is its sequence number (leaves get negative ids)."""

    id: int
    op: str
    saved: tuple[SavedBuffer, ...] = ()
    is_leaf: bool = False
    leaf_shape: tuple[int, ...] = ()
    line: int | None = None
    iteration: int | None = None
    freed_by: int | None = None  # index of the BackwardCall that freed it
    source: str | None = None    # key of the Source whose `line` made it
    made_at: tuple[str, int] | None = None  # innermost user frame that made it, when not `line` itself

    @property
    def state(self) -> str:
        """live / freed / none (saves nothing) / unknown, from the saved buffers."""
        if not self.saved:
            return "none"
        states = {b.state for b in self.saved}
        if "freed" in states:
            return "freed"
        return "live" if states == {"live"} else "unknown"


@dataclass(frozen=True)
class GraphSnapshot:
    """The graph below some roots: nodes, edges (parent -> child, towards the leaves)."""

    nodes: tuple[GraphNode, ...]
    edges: tuple[tuple[int, int], ...]
    roots: tuple[int, ...]
    truncated: bool = False          # the graph goes on below what was read
    stale: tuple[int, ...] = ()      # nodes an earlier backward had already run through
    failed_at: tuple[int, ...] = ()  # stale nodes whose saved buffers were freed
    unread: int = 0                  # nodes reached but not read (the reading budget ran out)
    modified: tuple[int, ...] = ()   # nodes whose saved tensors were changed in place since (in-place errors)

    def node(self, node_id: int) -> GraphNode | None:
        return next((n for n in self.nodes if n.id == node_id), None)


@dataclass(frozen=True)
class BackwardCall:
    """One call into the autograd engine (backward, autograd.backward or autograd.grad)."""

    index: int                     # counted over the whole session
    stack_lines: tuple[int, ...]  # lines of the program on the call stack, outermost first
    iteration: int                 # how many earlier calls came from the same stack
    kind: str                      # "backward" | "grad"
    retain_graph: bool
    root_ids: tuple[int, ...]
    next_id: int = -1              # the next node id autograd would hand out when the call began
    stack: tuple[Frame, ...] = ()  # the user frames as they ran, outermost first
    unit: int = 0                  # the run (Source.unit) it was made in

    @property
    def line(self) -> int | None:
        return self.stack_lines[-1] if self.stack_lines else None


@dataclass(frozen=True)
class Holder:
    """A name in the user's frames whose value holds part of the failing graph."""

    path: str            # "temp[0]", "self.prev_ft", "hidden"
    node_id: int
    stale: bool          # its own node was already run through by an earlier backward
    reaches_stale: bool  # its graph reaches a stale node
    container: str = ""  # how the path holds its tensor, outermost first: "tensor", "namedtuple",
                         # "dict>tuple" (a dict of pairs), ... (how a fix may detach it)
    view: bool = False   # the tensor is a view of another (it cannot be detached in place)


@dataclass(frozen=True)
class Failure:
    """What the failing call left behind, read while the traceback was alive."""

    error_type: str
    message: str
    stack_lines: tuple[int, ...]  # program lines on the failing stack, outermost first
    root_ids: tuple[int, ...] = ()
    graph: GraphSnapshot | None = None
    freed_by: tuple[tuple[int, int], ...] = ()  # (stale node id, BackwardCall index)
    holders: tuple[Holder, ...] = ()
    stack: tuple[Frame, ...] = ()  # the user frames as they ran, outermost first
    unit: int = 0                  # the run (Source.unit) that raised
    ddp_parameters: tuple[str, ...] = ()  # a DistributedDataParallel module's trainable parameters, in its order
    leaves_apart: tuple[tuple[int, int], ...] = ()  # (freeing call, leaves its graph reaches without the stale part)
    trains_freed: tuple[str, ...] | None = None  # optimizers holding a parameter behind the freed part (a generator's, under its discriminator's loss)
    written_by: tuple[str, ...] = ()  # optimizers (as the frames name them) holding a parameter like the one an in-place error names
    written_tensors: tuple[str, ...] = ()  # other tensors of the user's frames (`model.queue`) with that shape and version
    grad_names: tuple[tuple[str, str], ...] = ()  # (name, "tensor" | "list" | ...) in the user frames, innermost first, holding a tensor that requires grad (NumPy errors)
    numpy_builtins: tuple[str, ...] = ()  # builtins (`sum`) the failing user frame's globals bind to NumPy's (NumPy errors)
    gradless_caches: tuple[str, ...] = ()
    grad_mode_off: bool = False  # gradient tracking was off for the whole session when the error was read
    hook_code: tuple[Frame, ...] = ()  # user functions registered as forward hooks on the frames' modules: (file, def line)
    frozen_optimizers: tuple[str, ...] = ()  # optimizers in the user frames whose every parameter is frozen (a loss with no grad_fn)
    no_grad_forwards: tuple[Frame, ...] = ()  # user modules in the frames whose forward is decorated no_grad: (file, decorator line)  # user modules' plain tensor attributes without grad ("model.combined.cache"), for a loss with no grad_fn

    @property
    def line(self) -> int | None:
        return self.stack_lines[-1] if self.stack_lines else None


@dataclass(frozen=True)
class Capture:
    """Everything the later stages may know about one run of a cell or a script: `source` and
    `filename` are the unit that ran; `sources` the program around it (earlier cells in the
    order they ran, user files on the stacks), `backwards` the session's calls, oldest first."""

    source: str
    filename: str
    failure: Failure | None
    backwards: tuple[BackwardCall, ...] = ()
    watched: bool = False
    silent: tuple = field(default=())  # family-C observations from the watcher
    sources: tuple[Source, ...] = ()
