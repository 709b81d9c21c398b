"""A minimal keep-alive HTTP/1.1 client on asyncio streams, for bench_coach.

Twenty simulated students share two cores with the server under test, so the
client must cost as little CPU as possible: no cookie jar policies, no
redirects, no content decoding — only what the benchmark needs (cookies by
name, Content-Length and chunked bodies, time to the last byte).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

__all__ = ["Response", "Session"]


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    last_byte_ms: float

    def json(self):
        return json.loads(self.body)


@dataclass
class Session:
    """One student's connection, with the cookies the server has set."""

    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    _reader: asyncio.StreamReader | None = None
    _writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self._writer is not None:
            writer, self._reader, self._writer = self._writer, None, None
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        return await self.request("GET", path, b"", headers or {})

    async def post_form(self, path: str, data: dict[str, str]) -> Response:
        body = urlencode(data).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return await self.request("POST", path, body, headers)

    async def post_json(self, path: str, data: object, headers: dict[str, str]) -> Response:
        body = json.dumps(data).encode()
        return await self.request(
            "POST", path, body, {"Content-Type": "application/json", **headers}
        )

    async def request(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> Response:
        reused = self._writer is not None
        try:
            return await self._exchange(method, path, body, headers)
        except (ConnectionError, asyncio.IncompleteReadError):
            if not reused:
                raise
            # The server closed an idle keep-alive connection: open a new one, once.
            await self.close()
            return await self._exchange(method, path, body, headers)

    async def _exchange(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> Response:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines.append(f"Content-Length: {len(body)}")
        started = time.perf_counter()
        self._writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self._writer.drain()
        status, response_headers = await self._read_head()
        payload = await self._read_body(response_headers)
        elapsed_ms = (time.perf_counter() - started) * 1000
        if response_headers.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, response_headers, payload, elapsed_ms)

    async def _read_head(self) -> tuple[int, dict[str, str]]:
        status_line = await self._reader.readline()
        if not status_line:
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookie_name, _, rest = value.partition("=")
                self.cookies[cookie_name] = rest.split(";", 1)[0]
            headers[name] = value
        return status, headers

    async def _read_body(self, headers: dict[str, str]) -> bytes:
        if headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self._reader.readline()).split(b";")[0], 16)
                chunk = await self._reader.readexactly(size + 2)  # data + CRLF
                if size == 0:
                    return b"".join(parts)
                parts.append(chunk[:-2])
        if "content-length" in headers:
            return await self._reader.readexactly(int(headers["content-length"]))
        payload = await self._reader.read()
        await self.close()
        return payload
