"""A fresh Jupyter kernel driven the way JupyterLab drives one: each cell is an execute_request
carrying its cell id in the metadata. Used to run notebooks (`nb-autograd diagnose X.ipynb`),
and by the tests and benchmarks that must see what a notebook user sees."""
from __future__ import annotations

import os
import queue
import time
from dataclasses import dataclass, field


class NoKernel(RuntimeError):
    """No kernel could be started (jupyter_client or ipykernel missing, or the start failed)."""


@dataclass
class CellResult:
    stdout: str = ""
    stderr: str = ""
    error: tuple[str, str] | None = None          # (ename, evalue)
    traceback: tuple[str, ...] = ()               # the error's traceback lines as the front end gets them
    displays: list[dict] = field(default_factory=list)  # mime bundles, in order
    seconds: float = 0.0
    died: bool = False


class Kernel:
    """`with Kernel(cwd) as k: k.run(code, cell_id)`; a new python3 kernel per instance."""

    def __init__(self, cwd: str | os.PathLike | None = None, env: dict | None = None, name: str = "python3"):
        try:
            from jupyter_client.manager import start_new_kernel

            self.km, self.kc = start_new_kernel(kernel_name=name, cwd=str(cwd or os.getcwd()),
                                                env={**os.environ, **(env or {})})
        except Exception as exc:  # ImportError, NoSuchKernel, a failed start
            raise NoKernel(f"{type(exc).__name__}: {exc}") from None

    def run(self, code: str, cell_id: str | None = None, timeout: float = 600) -> CellResult:
        content = dict(code=code, silent=False, store_history=True, user_expressions={}, allow_stdin=False,
                       stop_on_error=True)
        msg = self.kc.session.msg("execute_request", content, metadata={"cellId": cell_id} if cell_id else {})
        self.kc.shell_channel.send(msg)
        msg_id, out, start = msg["header"]["msg_id"], CellResult(), time.perf_counter()
        deadline = time.time() + timeout
        while True:
            try:
                m = self.kc.get_iopub_msg(timeout=max(0.5, min(5.0, deadline - time.time())))
            except queue.Empty:
                if not self.km.is_alive():
                    out.died, out.error = True, ("KernelDied", "the kernel died")
                    out.seconds = time.perf_counter() - start
                    return out
                if time.time() > deadline:
                    raise TimeoutError(f"cell {cell_id} did not finish in {timeout} s") from None
                continue
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            kind, c = m["msg_type"], m["content"]
            if kind == "stream":
                setattr(out, c["name"], getattr(out, c["name"], "") + c["text"])
            elif kind == "error":
                out.error = (c["ename"], c["evalue"])
                out.traceback = tuple(c.get("traceback", ()))
            elif kind in ("display_data", "execute_result"):
                out.displays.append(c["data"])
            elif kind == "status" and c["execution_state"] == "idle":
                out.seconds = time.perf_counter() - start
                return out

    def alive(self) -> bool:
        return self.km.is_alive()

    def pid(self) -> int | None:
        provisioner = getattr(self.km, "provisioner", None)
        process = getattr(provisioner, "process", None)
        return getattr(process, "pid", None)

    def close(self) -> None:
        try:
            self.kc.stop_channels()
        finally:
            self.km.shutdown_kernel(now=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
