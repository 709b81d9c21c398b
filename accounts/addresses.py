"""Whose address a request comes from, and which proxy's word for it is trusted.

Pure (no Django): `client_address(meta, trusted_proxies=...)` reads a WSGI/ASGI
``META`` mapping.

* ``trusted_proxies`` is 0 (the default, ``TRUSTED_PROXIES``): no forwarded
  header is trusted; the address is ``REMOTE_ADDR``. But a server in front
  of Django may already have taken ``REMOTE_ADDR`` from ``X-Forwarded-For``
  (uvicorn does, for connections from loopback, unless run with
  ``--no-proxy-headers``). When ``REMOTE_ADDR`` is one of the header's
  addresses, that is what happened (or a client wrote its own address, which
  changes nothing for it), and the real peer is lost: all such requests count
  as one address, ``FORWARDED``, so a client rotating the header gets one
  shared allowance, not one each. A request whose header does not hold
  ``REMOTE_ADDR`` (a school's outgoing proxy adding its pupils' inner
  addresses) is counted against ``REMOTE_ADDR``.
* ``trusted_proxies`` is N > 0: N proxies in front each append the address
  they were called from, so the client is the N-th address from the right
  of ``X-Forwarded-For`` (what a client writes itself is further left and
  never read). With fewer entries than that, or one that is not an IP
  address, the request did not come through the proxies: ``REMOTE_ADDR``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

__all__ = ["FORWARDED", "UNKNOWN", "client_address", "ip_or_none"]

#: The one address of every request with an X-Forwarded-For that no trusted proxy vouches for.
FORWARDED = "forwarded"
UNKNOWN = "unknown"


def ip_or_none(value: object) -> str | None:
    """`value` as a normalised IP address, or None if it is not one."""
    if not isinstance(value, str):
        return None
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_address(meta: Mapping[str, object], *, trusted_proxies: int = 0) -> str:
    """The address to count a request's attempts against (see the module docstring)."""
    remote = ip_or_none(meta.get("REMOTE_ADDR")) or UNKNOWN
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if not isinstance(forwarded, str) or not forwarded.strip():
        return remote
    hops = [_hop_ip(hop) for hop in forwarded.split(",")]
    if trusted_proxies <= 0:
        return FORWARDED if remote in hops or remote == UNKNOWN else remote
    if len(hops) < trusted_proxies:
        return remote
    return hops[-trusted_proxies] or remote


def _hop_ip(hop: str) -> str | None:
    # An entry may carry a port: "203.0.113.5:4711", "[2001:db8::1]:4711".
    hop = hop.strip()
    if hop.startswith("[") and "]" in hop:
        return ip_or_none(hop[1 : hop.index("]")])
    if hop.count(":") == 1:
        hop = hop.partition(":")[0]
    return ip_or_none(hop)
