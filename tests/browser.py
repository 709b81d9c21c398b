"""Pages in a real browser: uvicorn serves the ASGI app, Chromium drives it.

`live_asgi` runs the real ASGI application (the one `make run` serves) under
uvicorn in a thread of the test process, so streamed NDJSON and SSE responses
reach the browser as they are produced. It needs a database the server's
threads can see, hence `transactional_db`.

`page` is a Playwright page in Debian's headless Chromium (no browser
download): CHROMIUM_PATH, else `chromium` on PATH. Without Chromium the
browser tests skip with a reason; CI installs it.
"""

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@dataclass
class LiveServer:
    url: str

    def __str__(self) -> str:
        return self.url


@pytest.fixture
def live_asgi(transactional_db, settings) -> Iterator[LiveServer]:
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    # The test server speaks plain http: secure-only cookies would never come back.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # Django's handler, as config/asgi.py builds it, built here so it reads the test settings.
    app = ASGIStaticFilesHandler(get_asgi_application())
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start within 10 s")
        time.sleep(0.02)
    try:
        yield LiveServer(url=f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")


@pytest.fixture(scope="module")
def chromium_browser():
    path = chromium_path()
    if not path:
        pytest.skip("Chromium is not installed (apt-get install chromium); CI installs it")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps its event loop "running" in this thread for as
    # long as it is open. Two consequences:
    # - Django refuses ORM calls from the test body; the body is synchronous code,
    #   so the check is a false alarm here, and it is lifted only meanwhile.
    # - any later `asyncio.run` in this thread fails ("cannot be called from a
    #   running event loop"), so the browser lives for one module, never the
    #   session: a session-wide browser broke every async test ordered after it.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(chromium_browser):
    context = chromium_browser.new_context(locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def sign_in(page, live: LiveServer, username: str, password: str) -> None:
    """Sign in through the real login form, as a person would."""
    page.goto(f"{live.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    # Wait for the page the form leads to (the signed-in page, or the form again with
    # its error), not for "networkidle": that one always waits half a second more.
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Sign in").click()
