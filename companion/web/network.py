"""Which address the phones can reach, and the listening socket.

The LAN address is the local end of a UDP socket "connected" towards a public address:
the system picks the interface it would route through, and nothing is sent."""

import errno
import ipaddress
import os
import re
import socket

from companion.errors import CompanionError, shown

_PROBES = ("192.0.2.1", "10.255.255.255", "172.16.0.1", "192.168.0.1")  # never contacted


def _routed_address(probe: str) -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect((probe, 9))
            return s.getsockname()[0]
        except OSError:
            return None


def candidates() -> list[str]:
    """The machine's IPv4 addresses other than loopback, the routed one first."""
    found: list[str] = []
    for probe in _PROBES:
        addr = _routed_address(probe)
        if addr and addr not in found:
            found.append(addr)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found += [i[4][0] for i in infos if i[4][0] not in found]
    except OSError:
        pass
    return [a for a in found if not ipaddress.ip_address(a).is_loopback
            and not ipaddress.ip_address(a).is_unspecified]


def ip_family(host: str) -> int:
    try:
        return socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        raise CompanionError(f"{shown(host)} is not an IP address (give a name with --name)",
                             field="--host") from None


def everywhere(host: str) -> bool:
    """0.0.0.0 or ::, every address of this machine: no address a phone can use."""
    return ipaddress.ip_address(host).is_unspecified


def loopback(host: str) -> bool:
    return ipaddress.ip_address(host).is_loopback


_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")


def host_name(value: str) -> str:
    """A --name as the Host check compares it: an IP address, or a DNS name of letters,
    digits and hyphens (never a pattern such as *, which would turn the check off)."""
    name = value.strip().lower().removesuffix(".")
    try:
        return normal(name)
    except ValueError:
        pass
    labels = name.split(".")
    if (0 < len(name) <= 253 and all(_LABEL.fullmatch(label) for label in labels)
            and not labels[-1].isdigit()):
        return name
    raise CompanionError(f"{shown(value)} is not a host name (letters, digits and hyphens "
                         "between dots, like table.lan; or an IP address)", field="--name")


def normal(address: str) -> str:
    """One spelling of an IP address (IPv6 compressed, lowercase); ValueError if not one."""
    return ipaddress.ip_address(address).compressed


def listening_socket(host: str, port: int | None) -> socket.socket:
    """A socket bound and listening on host:port (port None or 0: any free port)."""
    family = ip_family(host)
    # proto=IPPROTO_TCP: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say
    # so; without it each answer waits ~40 ms for the phone's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if os.name == "nt":
        # On Windows SO_REUSEADDR would let a second server take the same port: claim it
        # alone instead.
        if hasattr(socket, "SO_EXCLUSIVEADDRUSE"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
    else:  # here it only lets a restart bind while the old connections linger
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6 and everywhere(host):
        try:  # "::" takes IPv4 phones too, where the system allows it
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        except (OSError, AttributeError):
            pass
    try:
        # getaddrinfo: the IPv6 address tuple, with the scope of a link-local address
        address = socket.getaddrinfo(host, port or 0, family, socket.SOCK_STREAM, 0,
                                     socket.AI_NUMERICHOST)[0][4]
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        # Taken, or reserved (Windows reports a reserved port as WSAEACCES)
        in_use = e.errno in (errno.EADDRINUSE, errno.EACCES,
                             getattr(errno, "WSAEACCES", errno.EACCES))
        field = "--port" if in_use and port else "--host"
        raise CompanionError(f"cannot listen on {host}:{port or 'any port'} "
                             f"({e.strerror or e})", field=field) from None
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    """The host as a URL writes it: an IPv6 address in brackets, its zone's % escaped."""
    return f"[{host.replace('%', '%25')}]" if ":" in host else host
