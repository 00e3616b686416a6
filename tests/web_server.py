"""A real ``crit serve`` server on loopback for the browser and load tests: uvicorn in a thread,
on a port the system picks, stopped when the test is done."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator


@contextmanager
def serving(campaign: str, **kwargs: Any) -> Iterator[tuple[str, Any]]:
    """``(base_url, app)`` of a server for ``campaign`` while the block runs."""
    from critcore.web.app import create_app

    app = create_app(campaign, **kwargs)
    try:
        with serving_app(app) as base:
            yield base, app
    finally:
        app.state.service.close()


@contextmanager
def serving_app(app: Any) -> Iterator[str]:
    """The base URL of a server running the ASGI ``app`` (behind the size limit) while the block runs."""
    import uvicorn

    from critcore.web.app import with_limits

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY, as crit serve's
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(2048)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(with_limits(app), log_level="warning", lifespan="off",
                                           limit_concurrency=500, backlog=2048))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def artifacts_dir(default: str) -> str:
    """Where screenshots go: ``$CRITCORE_ARTIFACTS`` (CI keeps it), else ``default``."""
    folder = os.environ.get("CRITCORE_ARTIFACTS") or default
    os.makedirs(folder, exist_ok=True)
    return folder


def screenshooter(default: str, docs: str, for_docs: frozenset[str] | set[str]) -> Any:
    """``take(page, name)`` for the browser tests: a full-page screenshot into
    ``$CRITCORE_ARTIFACTS`` (``.ci/run`` sets it and CI keeps the folder), and with
    ``CRITCORE_DOC_SCREENSHOTS=1`` also the pictures of the docs (``for_docs``, copied to
    ``docs``). A plain ``pytest`` names neither and takes none: a screenshot asserts nothing
    and costs about half a second of the browser's time (7 s of the browser tests' 34)."""
    refresh_docs = os.environ.get("CRITCORE_DOC_SCREENSHOTS") == "1"
    if not (os.environ.get("CRITCORE_ARTIFACTS") or refresh_docs):
        return lambda page, name: None
    folder = artifacts_dir(default)

    def take(page: Any, name: str) -> None:
        page.screenshot(path=os.path.join(folder, name), full_page=True)
        if refresh_docs and name in for_docs:
            os.makedirs(docs, exist_ok=True)
            shutil.copyfile(os.path.join(folder, name), os.path.join(docs, name))

    return take
