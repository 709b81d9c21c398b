"""A request body over MAX_REQUEST_BODY_BYTES is refused before it is read, chunked or not.

Through the site's real ASGI entry point (config.asgi) on uvicorn, over a raw
socket: a body that declares 2 GB is answered at once; a chunked body with no
length is cut once it passes the limit, and the server stops reading it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

LIMIT = 1024 * 1024


@pytest.fixture
def site(transactional_db, settings) -> Iterator[tuple[str, int]]:
    import uvicorn

    from config.asgi import application

    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    settings.MAX_REQUEST_BODY_BYTES = LIMIT
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(application, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield sock.getsockname()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


def _rest_of_answer(conn: socket.socket, answer: bytes) -> bytes:
    """Read on until the answer's declared body has arrived: its head and body may come
    in separate packets, and a test that stops at the head sees no body at all."""
    head, _, body = answer.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    conn.setblocking(True)
    conn.settimeout(5)
    with contextlib.suppress(OSError):
        while len(body) < length:
            more = conn.recv(65536)
            if not more:
                break
            body += more
    return head + b"\r\n\r\n" + body


def _post(address, head: str, chunks: Iterator[bytes]) -> tuple[int, int, bytes]:
    """Send a POST's head then its body until the server answers; (status, bytes sent, answer)."""
    conn = socket.create_connection(address, timeout=10)
    conn.sendall(head.encode())
    conn.setblocking(False)
    sent, answer = 0, b""
    deadline = time.monotonic() + 20
    try:
        for chunk in chunks:
            while chunk and time.monotonic() < deadline:
                with contextlib.suppress(BlockingIOError):
                    answer += conn.recv(65536)
                if b"\r\n\r\n" in answer:
                    return _status(answer), sent, _rest_of_answer(conn, answer)
                try:
                    n = conn.send(chunk)
                except BlockingIOError:
                    time.sleep(0.001)
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    # The server answered and closed between our last read and this send:
                    # its answer may still wait in our receive buffer (it did once, in CI).
                    with contextlib.suppress(OSError):
                        answer += conn.recv(65536)
                    return _status(answer), sent, answer
                sent += n
                chunk = chunk[n:]
        conn.setblocking(True)
        answer += conn.recv(65536)
        return _status(answer), sent, _rest_of_answer(conn, answer)
    finally:
        conn.close()


def _head(path: str, headers: str) -> str:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\n{headers}\r\n"
    )


def test_it_answers_a_body_declared_too_large_without_reading_it(site) -> None:
    path = reverse("login")
    two_gb = 2 * 1024**3
    megabyte = b"a" * (1024 * 1024)
    started = time.perf_counter()
    status, sent, answer = _post(
        site, _head(path, f"Content-Length: {two_gb}\r\n"), (megabyte for _ in range(2048))
    )
    assert status == 413, answer[:200]
    assert time.perf_counter() - started < 5
    assert sent < 64 * 1024 * 1024  # what the sockets' buffers take, not 2 GB
    assert b"at most 1 MB in one request" in answer


def test_it_cuts_a_chunked_body_once_it_passes_the_limit(site) -> None:
    path = reverse("login")
    piece = b"a" * 65536
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    status, sent, answer = _post(
        site, _head(path, "Transfer-Encoding: chunked\r\n"), (chunk for _ in range(32768))
    )  # 2 GB offered, no Content-Length
    assert status == 413, answer[:200]
    assert sent < 64 * 1024 * 1024


def test_it_lets_a_body_under_the_limit_through(site) -> None:
    body = "username=ada&password=x"
    status, _sent, answer = _post(
        site, _head(reverse("login"), f"Content-Length: {len(body)}\r\n"), iter([body.encode()])
    )
    assert status == 403, answer[:200]  # the login form's CSRF check, not the body limit


def test_it_refuses_a_declared_body_before_csrf_in_the_readers_language(db, settings) -> None:
    settings.MAX_REQUEST_BODY_BYTES = LIMIT
    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = client.post(reverse("login"), {"username": "ada", "password": "x" * (2 * LIMIT)})
    assert response.status_code == 413
    assert response["Connection"] == "close"
    assert "1 MB" in response.content.decode() and "Too large to send" not in (
        response.content.decode()
    )
