"""A small server-sent-events client over a real socket, for tests.

It speaks plain HTTP/1.1 to the uvicorn test server (``live_asgi``), sends the
session cookie and ``Last-Event-ID`` like a browser's EventSource would, and
parses the stream into messages and comments as they arrive, so a test can
read a few events, hang up, and reconnect.
"""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings
from django.test import Client

__all__ = ["SSEClient", "SSEMessage", "record", "session_cookie"]


@dataclass
class SSEMessage:
    id: str | None = None
    event: str = "message"
    data_lines: list[str] = field(default_factory=list)

    @property
    def data(self) -> dict:
        return json.loads("\n".join(self.data_lines))

    @property
    def seq(self) -> int:
        return int(self.id or 0)


def record(debate, type_: str, **payload):
    """Store one event of ``debate`` as a stage would (in its own transaction)."""
    from django.db import transaction

    from engine.events import record_event

    with transaction.atomic():
        return record_event(debate=debate, type=type_, payload=payload)


def session_cookie(user) -> str:
    """A signed-in session for ``user``, as the ``Cookie`` header a browser would send."""
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class SSEClient:
    """One connection to an SSE endpoint; ``close()`` hangs up like a closed tab."""

    def __init__(
        self,
        url: str,
        *,
        cookie: str,
        last_event_id: int | None = None,
        timeout: float = 10.0,
    ) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        headers = {"Accept": "text/event-stream", "Cookie": cookie}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.comments: list[str] = []
        self.retry: int | None = None
        self.ended = False

    @property
    def status(self) -> int:
        return self.response.status

    @property
    def content_type(self) -> str:
        return self.response.getheader("Content-Type", "")

    def next_message(self) -> SSEMessage | None:
        """The next complete message; ``None`` when the server ended the stream."""
        message = SSEMessage()
        while True:
            raw = self.response.readline()
            if not raw:
                self.ended = True
                return None
            line = raw.decode("utf-8").rstrip("\n").rstrip("\r")
            if line == "":
                if message.data_lines:
                    return message
                message = SSEMessage()  # a block without data (retry:) is no message
                continue
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "id":
                message.id = value
            elif name == "event":
                message.event = value
            elif name == "data":
                message.data_lines.append(value)
            elif name == "retry" and value.isdigit():
                self.retry = int(value)

    def read(self, count: int) -> list[SSEMessage]:
        """Exactly ``count`` messages (fails the test if the stream ends first)."""
        messages = []
        while len(messages) < count:
            message = self.next_message()
            assert message is not None, f"stream ended after {len(messages)} of {count} messages"
            messages.append(message)
        return messages

    def read_to_end(self, *, limit: float = 10.0) -> list[SSEMessage]:
        deadline = time.monotonic() + limit
        messages = []
        while (message := self.next_message()) is not None:
            messages.append(message)
            assert time.monotonic() < deadline, "the stream did not end in time"
        return messages

    def read_comment(self) -> str:
        """Block until the next comment line (a keep-alive) and return it."""
        seen = len(self.comments)
        while len(self.comments) == seen:
            raw = self.response.readline()
            assert raw, "stream ended while waiting for a comment"
            line = raw.decode("utf-8").strip()
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
        return self.comments[-1]

    def close(self) -> None:
        self.connection.close()
