"""Which address the phones can reach, and the listening socket.

The LAN address is the local end of a UDP socket "connected" towards a public address:
the system picks the interface it would route through, and nothing is sent."""

import ipaddress
import socket

from companion.errors import CompanionError

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
        raise CompanionError(f"{host!r} is not an IP address (give a name with --name)",
                             field="--host") from None


def listening_socket(host: str, port: int | None) -> socket.socket:
    """A socket bound and listening on host:port (port None or 0: any free port)."""
    family = ip_family(host)
    # proto=IPPROTO_TCP: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say
    # so; without it each answer waits ~40 ms for the phone's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port or 0))
        sock.listen(128)
    except OSError as e:
        sock.close()
        field = "--port" if e.errno in (98, 13) and port else "--host"
        raise CompanionError(f"cannot listen on {host}:{port or 'any port'} ({e.strerror})",
                             field=field) from None
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
