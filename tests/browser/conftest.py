"""Real-browser fixtures: a JupyterLab or Notebook 7 server on 127.0.0.1 with throwaway
dirs, and Debian's Chromium driven by Playwright with every non-local request refused."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

CHROMIUM = os.environ.get("NB_AUTOGRAD_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
APPS = {"lab": ("jupyterlab", "LabApp", "lab/tree"), "notebook": ("notebook", "JupyterNotebookApp", "notebooks")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, app: str, tmp: Path):
        module, app_class, self.tree = APPS[app]
        self.app, self.root, self.token, self.port = app, tmp / "root", uuid.uuid4().hex, free_port()
        self.root.mkdir()
        env = dict(os.environ)
        for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                         ("JUPYTERLAB_SETTINGS_DIR", "settings"), ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
                         ("IPYTHONDIR", "ipython")):
            (tmp / sub).mkdir()
            env[var] = str(tmp / sub)
        env.pop("JUPYTER_TOKEN", None)
        news = tmp / "settings" / "@jupyterlab" / "apputils-extension"
        news.mkdir(parents=True)
        (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
        args = [sys.executable, "-m", module, "--no-browser", "--ServerApp.ip=127.0.0.1", f"--port={self.port}",
                f"--ServerApp.token={self.token}", "--ServerApp.allow_root=True", f"--ServerApp.root_dir={self.root}",
                f"--{app_class}.news_url=None" if app == "lab" else "--ServerApp.open_browser=False",
                f"--{app_class}.expose_app_in_browser=True"]
        self.log = open(tmp / "server.log", "wb")
        self.proc = subprocess.Popen(args, env=env, stdout=self.log, stderr=subprocess.STDOUT, cwd=self.root)
        self.url = f"http://127.0.0.1:{self.port}"
        self._wait()

    def _wait(self, timeout: float = 90) -> None:
        end = time.time() + timeout
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.app} server exited")
            try:
                urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=2).read()
                return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"{self.app} server did not start")

    def page_url(self, name: str) -> str:
        return f"{self.url}/{self.tree}/{name}?token={self.token}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"no Chromium at {CHROMIUM} (scripts/install_browser.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs it: missing there is a broken setup, not a skip
        pytest.skip(message)
    from playwright import sync_api as playwright
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(params=["lab", "notebook"])
def server(request, tmp_path_factory):
    s = Server(request.param, tmp_path_factory.mktemp(request.param))
    yield s
    s.stop()


@pytest.fixture
def page(browser, server):
    """A page that may reach 127.0.0.1 only; `page.blocked` lists anything else it tried."""
    context = browser.new_context(viewport={"width": 1280, "height": 2400}, device_scale_factor=1,
                                  permissions=["clipboard-read", "clipboard-write"])
    blocked: list[str] = []

    def route(r):
        url = urlparse(r.request.url)
        if url.scheme in ("data", "blob") or url.hostname == "127.0.0.1":
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.set_default_timeout(60_000)  # the machine is shared: kernels start slowly under load
    pg.blocked = blocked
    pg.server = server
    yield pg
    context.close()
