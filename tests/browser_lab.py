"""A throwaway JupyterLab server and headless Chromium for the browser tests.

The browser tests in ``test_browser_notebooks.py`` open the workshop notebooks in
a real JupyterLab, run them and poke the widgets, because a widget that fails
to render still leaves its text behind and plain pytest cannot tell the
difference.  This module holds the plumbing so the tests read as steps:

* :class:`LabServer` starts ``jupyter lab`` on 127.0.0.1 on a copy of the
  notebooks, with a random token, autosave off and every Jupyter directory
  (config, data, runtime, settings, workspaces) inside a temporary folder, and
  stops it again by its PID.
* :func:`launch_chromium` starts the system Chromium (``/usr/bin/chromium``,
  Debian's package) through Playwright with a fresh profile.  Playwright's own
  browser download is never used.
* The remaining helpers drive the JupyterLab page: open a notebook, wait for
  the kernel, Run All, wait for the run to finish, collect errors.

Left out: JupyterLab's collaborative mode, classic Notebook, and any browser
other than Chromium.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM = Path("/usr/bin/chromium")

# Flags for a quiet, sandbox-free headless Chromium that talks to loopback only.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--no-proxy-server",  # loopback only; ignore any proxy in the environment
]

# JupyterLab user settings written before the server starts.
# plugin id -> settings dict
LAB_SETTINGS = {
    # Never write the notebook copy behind the test's back.
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    # No news or update toast covering the page, and no request to the internet.
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
    # Every cell attached to the DOM, so selectors see outputs below the fold.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}

# Time limits in seconds.  They bound a hang; they are not speed assertions.
SERVER_START_TIMEOUT = 90
KERNEL_IDLE_TIMEOUT = 120_000  # ms, Playwright's unit
RUN_ALL_TIMEOUT = 240_000  # ms


def require_chromium() -> Path:
    """Return the Chromium path, or skip (locally) / fail (in CI) without it."""
    if CHROMIUM.exists():
        return CHROMIUM
    if os.environ.get("CI"):
        pytest.fail(
            f"{CHROMIUM} is missing but CI is set: the browser tests must run in CI. "
            "Install Debian's chromium package first (apt-get install -y chromium)."
        )
    pytest.skip(
        f"{CHROMIUM} not installed (apt-get install chromium); set CI=1 to make this a failure"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _jupyter_env(base: Path) -> dict[str, str]:
    """The server's environment: all Jupyter state under ``base``, no proxy."""
    env = dict(os.environ)
    for key in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(key, None)
    env["no_proxy"] = env["NO_PROXY"] = "127.0.0.1,localhost"
    dirs = {
        "JUPYTER_CONFIG_DIR": "config",
        "JUPYTER_DATA_DIR": "data",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "JUPYTERLAB_SETTINGS_DIR": "settings",
        "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
        "IPYTHONDIR": "ipython",
    }
    for key, name in dirs.items():
        path = base / name
        path.mkdir(parents=True, exist_ok=True)
        env[key] = str(path)
    # The kernels must behave as on a learner's machine: ipykernel picks the inline
    # matplotlib backend only when MPLBACKEND is unset (the suite's conftest sets Agg).
    env.pop("MPLBACKEND", None)
    env.pop("PYTHONSTARTUP", None)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # silence debugpy's frozen-modules note
    return env


def write_lab_settings(settings_dir: Path, settings: dict[str, dict] | None = None) -> None:
    """Write ``<dir>/<package>/<plugin>.jupyterlab-settings`` files (default LAB_SETTINGS)."""
    for plugin_id, values in (LAB_SETTINGS if settings is None else settings).items():
        package, plugin = plugin_id.split(":")
        path = settings_dir / package / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=2), encoding="utf-8")


class LabServer:
    """One ``jupyter lab`` process serving ``root_dir`` on 127.0.0.1.

    Use :meth:`start` / :meth:`stop` (or the instance as a context manager).
    ``base_url`` has no trailing slash; ``token`` authenticates both the REST
    calls made here and the browser (``?token=`` on the first page load).
    """

    def __init__(self, root_dir: Path, state_dir: Path) -> None:
        self.root_dir = Path(root_dir)
        self.state_dir = Path(state_dir)
        self.token = secrets.token_hex(24)
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.state_dir / "jupyter-lab.log"
        self.proc: subprocess.Popen | None = None
        # Direct connections only: loopback must never go through a proxy.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    # -- lifecycle -----------------------------------------------------------

    def start(self, attempts: int = 3) -> LabServer:
        """Start the server and wait for ``/api/status``; retry on a port taken meanwhile."""
        env = _jupyter_env(self.state_dir)
        write_lab_settings(Path(env["JUPYTERLAB_SETTINGS_DIR"]))
        for attempt in range(1, attempts + 1):
            self._spawn(env)
            try:
                self._wait_until_ready()
                break
            except RuntimeError:
                # subtle: free_port() only saw the port free; another process may bind it
                # before the server does, and port_retries=0 makes the server exit then.
                if attempt == attempts or "already in use" not in self.log_tail():
                    raise
                self.port = free_port()
                self.base_url = f"http://127.0.0.1:{self.port}"
        self._check_settings()
        return self

    def _spawn(self, env: dict[str, str]) -> None:
        cmd = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root_dir}",
            f"--IdentityProvider.token={self.token}",
            f"--LabApp.user_settings_dir={env['JUPYTERLAB_SETTINGS_DIR']}",
            f"--LabApp.workspaces_dir={env['JUPYTERLAB_WORKSPACES_DIR']}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            "--ServerApp.terminals_enabled=False",
            # window.jupyterapp lets the tests read the notebook model (execution
            # counts, error outputs) instead of parsing prompt text.
            "--LabApp.expose_app_in_browser=True",
        ]
        log = open(self.log_path, "wb")  # noqa: SIM115 - the child keeps writing after we return
        try:
            self.proc = subprocess.Popen(
                cmd,
                cwd=self.root_dir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()  # the child holds its own copy of the descriptor

    def _check_settings(self) -> None:
        """Fail early if JupyterLab ignored the settings (autosave would write files)."""
        for plugin_id, values in LAB_SETTINGS.items():
            user_values = self.api("GET", f"/lab/api/settings/{plugin_id}")["settings"]
            for key, value in values.items():
                if user_values.get(key) != value:
                    self.stop()
                    raise RuntimeError(
                        f"JupyterLab setting {plugin_id} {key}={user_values.get(key)!r}, "
                        f"expected {value!r}; user_settings_dir was not picked up"
                    )

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            code = self.proc.poll()
            if code is not None:
                self.proc = None
                raise RuntimeError(f"jupyter lab exited with code {code}:\n{self.log_tail()}")
            try:
                status = self.api("GET", "/api/status")
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.25)
                continue
            if "started" in status:
                return
        self.stop()
        raise RuntimeError(
            f"jupyter lab not ready after {SERVER_START_TIMEOUT} s:\n{self.log_tail()}"
        )

    def stop(self) -> None:
        """Shut the kernels down through the API, then end the server by its PID."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                for kernel in self.api("GET", "/api/kernels"):
                    self.api("DELETE", f"/api/kernels/{kernel['id']}")
            except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
                pass  # the server is going away anyway; SIGTERM also stops kernels
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    def __enter__(self) -> LabServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # -- helpers -------------------------------------------------------------

    def api(self, method: str, path: str, body: dict | None = None):
        """Call the REST API with the token; return the decoded JSON (or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with self._opener.open(request, timeout=10) as response:
            payload = response.read()
        return json.loads(payload) if payload else None

    def lab_url(self, notebook_name: str) -> str:
        """URL opening one notebook in a workspace of its own.

        A named, fresh workspace per call: the default workspace would reopen
        every notebook an earlier test left open, as background tabs.
        """
        workspace = "t" + secrets.token_hex(6)
        return f"{self.base_url}/lab/workspaces/{workspace}/tree/{notebook_name}?token={self.token}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


def copy_notebooks(source: Path, dest: Path) -> Path:
    """Copy the notebooks folder (without checkpoints), cleared, and return the copy.

    Outputs, execution counts and saved widget state are removed from the copies,
    so "every code cell has a count" can only mean that this Run All finished
    (the originals are meant to be stored clean; a hygiene test checks that).
    """
    skip = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    shutil.copytree(source, dest, ignore=skip)
    for path in dest.rglob("*.ipynb"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb.get("cells", []):
            if cell.get("cell_type") == "code":
                cell["outputs"] = []
                cell["execution_count"] = None
        nb.get("metadata", {}).pop("widgets", None)
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return dest


# -- browser ---------------------------------------------------------------


def launch_chromium(playwright, user_data_dir: Path, viewport=(1400, 1000), scale: float = 1.0,
                    scrollbars: bool = False):
    """A persistent Chromium context on a fresh profile in ``user_data_dir``.

    ``viewport`` is in CSS pixels and ``scale`` is the device pixel ratio, which is what browser
    zoom changes: a 1280x720 screen at 150% zoom is ``viewport=(853, 480), scale=1.5``.
    Headless Playwright hides scroll bars; ``scrollbars=True`` draws them and lets them take
    their width, as a desktop browser does.
    """
    return playwright.chromium.launch_persistent_context(
        user_data_dir=str(user_data_dir),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--hide-scrollbars"] if scrollbars else None,
        viewport={"width": viewport[0], "height": viewport[1]},
        device_scale_factor=scale,
    )


class PageLog:
    """Console errors and uncaught page exceptions seen while a test runs."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on(
            "console",
            lambda msg: self.errors.append(f"console.{msg.type}: {msg.text}")
            if msg.type == "error"
            else None,
        )


def kernel_status_text(page) -> str:
    """The status bar's kernel item, e.g. ``'Python 3 (ipykernel) | Idle'``."""
    item = page.locator(".jp-StatusBar-Widget .jp-StatusBar-TextItem", has_text="|").first
    return item.inner_text() if item.count() else ""


def wait_for_kernel_idle(page, timeout: int = KERNEL_IDLE_TIMEOUT) -> None:
    """Wait until the status bar reads ``<kernel> | Idle`` for the open notebook.

    JupyterLab 4 shows ``Python 3 (ipykernel) | Idle`` at the bottom left; the
    notebook's session context must agree (it is what the status bar shows,
    read without depending on the text).
    """
    page.wait_for_function(
        """() => {
            const items = [...document.querySelectorAll(
                '.jp-StatusBar-Widget .jp-StatusBar-TextItem')];
            const shown = items.some(el => /\\|\\s*Idle\\s*$/.test(el.textContent.trim()));
            const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const context = panel && panel.sessionContext;
            return shown && Boolean(context) && context.kernelDisplayStatus === 'idle';
        }""",
        timeout=timeout,
        polling=200,
    )


def open_notebook(page, lab: LabServer, name: str) -> None:
    """Load ``/lab/tree/<name>`` and wait for its cells and an idle kernel."""
    page.goto(lab.lab_url(name), wait_until="domcontentloaded")
    first_cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").first
    first_cell.wait_for(timeout=KERNEL_IDLE_TIMEOUT)
    # The file browser would take a quarter of the width the widgets need.
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    wait_for_kernel_idle(page)


def run_all_cells(page) -> None:
    """Run > Run All Cells through the menu bar, as a learner would."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-item:not(.lm-mod-hidden)", has_text="Run All Cells").first.click()


# Summary of the open notebook's model: per code cell its execution count, the
# output types and whether it is tagged raises-exception (JupyterLab then goes on
# after its error).
_RUN_STATE_JS = """() => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    if (!panel || !panel.content || !panel.content.model) { return null; }
    const cells = panel.content.model.toJSON().cells.filter(c => c.cell_type === 'code');
    return cells.map(c => ({
        count: c.execution_count,
        raises: ((c.metadata || {}).tags || []).includes('raises-exception'),
        errors: c.outputs.filter(o => o.output_type === 'error')
                         .map(o => `${o.ename}: ${o.evalue}`),
        source: (Array.isArray(c.source) ? c.source.join('') : c.source).slice(0, 120),
    }));
}"""


def run_state(page) -> list[dict]:
    """Per code cell: ``count`` (int|None), ``raises``, ``errors`` (list[str]), ``source``."""
    return page.evaluate(_RUN_STATE_JS) or []


def unexpected_errors(state: list[dict]) -> list[str]:
    """Error outputs of cells not tagged ``raises-exception``."""
    return [
        f"{err}  (cell: {cell['source']!r})"
        for cell in state
        if not cell["raises"]
        for err in cell["errors"]
    ]


def wait_for_run_all(page, timeout: int = RUN_ALL_TIMEOUT) -> list[dict]:
    """Wait until every code cell has an execution count and the kernel is idle.

    Returns early (without raising) when a cell that is not tagged
    ``raises-exception`` produced an error, because Run All stops there and
    the later cells would never get a count; the caller asserts on
    :func:`unexpected_errors`.  Also checks the prompts in the page: none may
    still read ``[*]:``.
    """
    page.wait_for_function(
        f"""() => {{
            const state = ({_RUN_STATE_JS})();
            if (!state || state.length === 0) {{ return false; }}
            if (state.some(c => !c.raises && c.errors.length > 0)) {{ return true; }}
            const prompts = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
            return state.every(c => Number.isInteger(c.count))
                && !prompts.some(p => p.textContent.includes('*'));
        }}""",
        timeout=timeout,
        polling=250,
    )
    state = run_state(page)
    if not unexpected_errors(state):
        wait_for_kernel_idle(page, timeout=timeout)
    return state


def widget_problems(page, settle_ms: int = 20_000) -> list[str]:
    """Widget views that failed, or still say "Loading widget..." after ``settle_ms``.

    ipywidgets shows "Error displaying widget: ..." when the model is missing
    and a ``.jupyter-widgets-error-widget`` box when a view throws; both leave
    the surrounding text in place, which is why plain text checks are not enough.
    """
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
    with contextlib.suppress(PlaywrightTimeoutError):  # reported below
        page.wait_for_function(
            f"() => !document.querySelector('{panel}').innerText.includes('Loading widget...')",
            timeout=settle_ms,
            polling=250,
        )
    body = page.locator(panel).first.inner_text()
    problems = []
    if "Error displaying widget" in body:
        problems.append("Error displaying widget")
    if "Loading widget..." in body:
        problems.append("Loading widget... (the widget manager never rendered the view)")
    broken = page.locator(f"{panel} .jupyter-widgets-error-widget").count()
    if broken:
        problems.append(
            f"{broken} widget view(s) failed in the front end (.jupyter-widgets-error-widget)"
        )
    return problems


def output_with(page, *selectors: str):
    """The single cell output (``.jp-OutputArea-child``) holding all ``selectors``.

    Finding a widget by what it contains (a slider *and* coloured tokens)
    keeps the tests independent of cell order and of the notebook's prose.
    """
    # Top-level outputs only: an Output widget inside a view nests its own children.
    loc = page.locator(
        ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell-outputArea > .jp-OutputArea-child"
    )
    for sel in selectors:
        loc = loc.filter(has=page.locator(sel))
    return loc


def scroll_to_top(locator) -> None:
    """Scroll the notebook so that the element's top edge is at the top of the view."""
    locator.evaluate("el => el.scrollIntoView({block: 'start'})")


def screenshot(page, path: Path, element=None) -> Path:
    """Save a PNG of the page, or of the visible part of ``element``; print its path.

    An element taller than the notebook view is cut at the view's edge (the
    notebook scrolls inside the page, so a plain element shot would be padded
    with grey): scroll it first with :func:`scroll_to_top`.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    clip = None
    if element is not None:
        box = element.bounding_box()
        view = page.locator(
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer"
        ).first.bounding_box()
        if box and view:
            top = max(box["y"], view["y"])
            bottom = min(box["y"] + box["height"], view["y"] + view["height"])
            clip = {"x": box["x"], "y": top, "width": box["width"], "height": max(1, bottom - top)}
    page.screenshot(path=str(path), clip=clip)
    print(f"screenshot: {path}")
    return path


# -- RISE slideshow ----------------------------------------------------------

# The slide on screen in a RISE page (reveal.js marks it ``present``; a vertical
# subslide is a section inside its slide's section).
PRESENT_SLIDE = ".reveal .slides section.present:not(.stack)"


def start_slideshow(page):
    """Start JupyterLab's ``RISE:slideshow`` on the open notebook's title; return the new page.

    RISE for JupyterLab opens the slideshow in a new browser tab at ``/rise/<path>``; it
    connects to the notebook's running kernel, so what Run All defined in JupyterLab is
    there on the slides.
    """
    # RISE opens at the slide of the active cell: start from the title, as a talk does.
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = 0; }")
    with page.context.expect_page() as opened:
        page.evaluate("() => window.jupyterapp.commands.execute('RISE:slideshow')")
    slides = opened.value
    slides.wait_for_load_state("domcontentloaded")
    slides.locator(PRESENT_SLIDE).first.wait_for(timeout=KERNEL_IDLE_TIMEOUT)
    return slides


def slide_count(slides) -> int:
    """How many screens (slides and subslides) the slideshow has."""
    return slides.evaluate(
        "() => document.querySelectorAll('.reveal .slides section:not(.stack)').length"
    )


def present_slide_text(slides) -> str:
    return slides.locator(PRESENT_SLIDE).first.inner_text()


def next_slide_until(slides, text: str, max_steps: int = 80) -> int:
    """Press the right arrow (next horizontal slide) until the slide on screen shows ``text``.

    Returns the number of presses; fails when ``text`` never comes up.
    """
    for presses in range(max_steps + 1):
        if text in present_slide_text(slides):
            return presses
        before = present_slide_text(slides)
        slides.keyboard.press("ArrowRight")
        slides.wait_for_function(
            "([sel, before]) => { const s = document.querySelector(sel);"
            " return s && s.innerText !== before; }",
            arg=[PRESENT_SLIDE, before],
            timeout=10_000,
        )
    raise AssertionError(f"no slide showing {text!r} within {max_steps} slides")
