"""Which address a request is counted against, and whose forwarded header is believed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.addresses import FORWARDED, UNKNOWN, client_address, ip_or_none


@pytest.mark.parametrize(
    ("meta", "proxies", "address"),
    [
        ({"REMOTE_ADDR": "198.51.100.9"}, 0, "198.51.100.9"),
        # The server put the header's address in REMOTE_ADDR: the real peer is lost.
        ({"REMOTE_ADDR": "1.2.3.4", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, 0, FORWARDED),
        ({"REMOTE_ADDR": "1.2.3.4", "HTTP_X_FORWARDED_FOR": "9.9.9.9, 1.2.3.4:80"}, 0, FORWARDED),
        ({"REMOTE_ADDR": "::1", "HTTP_X_FORWARDED_FOR": "[::1]:8000"}, 0, FORWARDED),
        ({"REMOTE_ADDR": "garbage", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, 0, FORWARDED),
        # A school's outgoing proxy adds its pupils' inner addresses: the school's address.
        ({"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": "10.1.2.3"}, 0, "198.51.100.9"),
        ({"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 5.6.7.8"}, 1, "5.6.7.8"),
        ({"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 5.6.7.8"}, 2, "1.2.3.4"),
        ({"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "5.6.7.8"}, 2, "10.0.0.2"),
        ({"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "not-an-ip"}, 1, "10.0.0.2"),
        ({"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": " 2001:DB8::1 "}, 1, "2001:db8::1"),
        ({"REMOTE_ADDR": "10.0.0.2"}, 1, "10.0.0.2"),
        ({}, 0, UNKNOWN),
        ({"REMOTE_ADDR": "garbage"}, 0, UNKNOWN),
    ],
)
def test_it_takes_the_address_only_from_trusted_hops(meta, proxies, address) -> None:
    assert client_address(meta, trusted_proxies=proxies) == address


@given(hops=st.lists(st.ip_addresses().map(str), min_size=1, max_size=4))
def test_it_never_lets_a_rotated_header_pick_a_fresh_address(hops) -> None:
    # A server trusting the header from loopback (uvicorn's default) puts its last
    # address in REMOTE_ADDR: every such request is the one shared address.
    meta = {"REMOTE_ADDR": hops[-1], "HTTP_X_FORWARDED_FOR": ", ".join(hops)}
    assert client_address(meta, trusted_proxies=0) == FORWARDED


@given(header=st.text(max_size=60), proxies=st.integers(0, 3))
def test_it_reads_any_header_without_failing(header, proxies) -> None:
    address = client_address(
        {"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": header}, trusted_proxies=proxies
    )
    assert address in {FORWARDED, "198.51.100.9"} or ip_or_none(address) == address
