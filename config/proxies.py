"""Which senders may say who the client is: the proxies the operator names.

``TRUSTED_PROXIES`` (settings, from the environment) lists addresses or networks (``127.0.0.1``,
``10.0.0.0/24``, ``::1``). A request whose immediate sender (``REMOTE_ADDR``) is not one of
them is its own client, whatever forwarding headers it carries; one from a trusted proxy names
its client in ``X-Forwarded-For`` (``tournaments/client_ip.py`` reads it). ``*`` means every
sender, which ``manage.py check --deploy`` warns about in production. Pure Python (no Django),
so the settings can check the list at start-up.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
EVERYONE = "*"


class ProxyListError(ValueError):
    """An entry of TRUSTED_PROXIES that is no address or network."""


def parse_trusted(entries: Iterable[str]) -> tuple[Network, ...]:
    """The networks of ``entries`` (``*`` stands for every IPv4 and IPv6 sender)."""
    networks: list[Network] = []
    for raw in entries:
        entry = (raw or "").strip()
        if not entry:
            continue
        if entry == EVERYONE:
            networks += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ProxyListError(
                f"TRUSTED_PROXIES: {entry!r} is not an IP address or network (e.g. 127.0.0.1, "
                "10.0.0.0/24, ::1)."
            ) from None
    return tuple(networks)


def trusts_everyone(networks: Iterable[Network]) -> bool:
    """Whether any sender at all would be believed (a network of prefix length 0)."""
    return any(net.prefixlen == 0 for net in networks)


def is_trusted(address, networks: Iterable[Network]) -> bool:
    """Whether ``address`` (an ``ip_address``, or text) is one of the trusted proxies."""
    if isinstance(address, str):
        try:
            address = ipaddress.ip_address(address.strip())
        except ValueError:
            return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address.version == net.version and address in net for net in networks)
