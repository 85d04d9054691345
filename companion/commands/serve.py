"""`companion serve`: the Lugvanion bag draw for the table's phones (companion/web)."""

import signal
import sys
from pathlib import Path

import click

from companion.files import paths
from companion.commands import common
from companion.commands.common import lang as check_lang
from companion.errors import CompanionError
from companion.interrupt import Interrupted


def parse_players(value: str | None, teams: dict) -> list[dict] | None:
    """'red,blue' or 'red=Alice,blue=Bob' -> [{"colour": "red", "name": "Alice"}, ...]."""
    if value is None:
        return None
    players = []
    for item in value.split(","):
        colour, _, name = item.partition("=")
        colour, name = colour.strip().lower(), name.strip()
        if colour not in teams:
            raise CompanionError(f"unknown colour {colour!r} (use {', '.join(teams)})",
                                 field="--players")
        if any(p["colour"] == colour for p in players):
            raise CompanionError(f"colour {colour} is given twice", field="--players")
        if len(name) > 40:
            raise CompanionError(f"name {name[:20]!r}... is over 40 characters",
                                 field="--players")
        players.append({"colour": colour, "name": name})
    if not 2 <= len(players) <= 4:
        raise CompanionError(f"Lugvanion is played by 2 to 4, not {len(players)}",
                             field="--players")
    return players


@click.command(short_help="The phone table: bag draws and scores on your LAN.", epilog="""\b
Examples:
  companion serve
  companion serve --players red=Alice,blue=Bob,green=Chloé --qr-pdf table-qr.pdf
  companion serve --data output/tuesday.sqlite3 --port 8765
  companion serve --game tidepool/tidepool.toml     (your own game scored on the phones)
Start it again with the same --data to go on with the same table: the token, the link,
the holders and every draw are kept.""")
@click.option("--host", help="Address to serve on, IPv4 or IPv6 (0.0.0.0 or :: for all of this "
                              "machine's; the link then uses its LAN address). "
                              "Default: this machine's LAN IPv4.")
@click.option("--port", type=click.IntRange(0, 65535),
              help="Port. Default: the table's last port if free, else any free port.")
@click.option("--players", help="Colours at the table, optionally named: red=Alice,blue=Bob. "
                                "Default: all four colours.")
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path),
              help="The table's file (SQLite; served by one companion at a time). Default: "
                   "./output/lugvanion-table.sqlite3 (under the current folder).")
@click.option("--tie-rule", type=common.TIE_RULE,
              help="On a tie: extra (the default, RULINGS L6) or redraw.")
@click.option("--name", "names", multiple=True,
              help="Another host name the phones may use (a local DNS name such as "
                   "table.lan, or an IP address).")
@click.option("--qr-pdf", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a printable page with the QR code and the link.")
@click.option("--paper", type=common.PAPER, default="a4", show_default=True,
              help="Paper of the --qr-pdf page.")
@click.option("--lang", type=common.WORDS, default="en", show_default=True,
              help="Language of the --qr-pdf page.")
@click.option("--game", "own", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Your own game's file (its [[scoring]]) on the phones too; repeatable.")
def serve(host, port, players, data, tie_rule, names, qr_pdf, paper, lang, own):
    """Serve the Lugvanion bag draw to the phones on this network, with a QR link."""
    from companion.files import lock
    from companion.web import games, look, network, store

    lang = check_lang(lang)
    page_size = None
    if qr_pdf:
        from companion.press.presets import paper_size

        page_size = paper_size(paper)  # checked before anything is written
    the_look = look.load(own)
    wanted = parse_players(players, the_look.teams)
    names = [network.host_name(n) for n in names]
    found = network.candidates()
    host = host or (found[0] if found else None)
    if host is None:
        raise CompanionError("no LAN address found: join the table's Wi-Fi, or give one",
                             field="--host")
    network.ip_family(host)
    data = Path(data or paths.output() / "lugvanion-table.sqlite3")
    if qr_pdf:  # never over the table itself (a new one too), nor a device renamed over
        from companion.files import atomic, inputs

        inputs.note(data)
        atomic.guard(qr_pdf, "--qr-pdf")
    # SIGTERM stops the server as Ctrl+C does: the table is closed, its log folded in.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        # One server per table file, for its whole life: a second would seal seeds and
        # undo draws the first does not know of. Locked before the file is touched: its
        # path (a new table is made under that lock), then the file itself, whatever
        # other name or hard link reaches it.
        teams = [{"colour": t, "name": ""} for t in the_look.teams]
        with lock.held(data.resolve(), "serving this table"):
            store.Store.ensure(data, wanted, tie_rule, teams)
            with lock.held_file(data, "serving this table"):
                table = store.Store.open(data, list(the_look.guilds), wanted, tie_rule, teams)
                try:
                    games.self_check(table)
                    try:
                        _run(table, the_look, host, port, found, names, qr_pdf, page_size,
                             lang)
                    except (KeyboardInterrupt, Interrupted):  # before uvicorn took Ctrl+C
                        pass  # (or as it began): the table open all the same, closed below
                finally:
                    table.close()
    finally:
        signal.signal(signal.SIGTERM, previous)
    click.echo(f"Stopped. Every draw is kept in {table.source}: serve again with "
               "the same --data to go on.")


def _interrupt(signum, frame):
    raise Interrupted


def _run(table, the_look, host, port, found, names, qr_pdf, page_size, lang):
    import uvicorn

    from companion.web import app, limits, network, qr

    sock = _listen(network, host, port, table.port)
    bound = sock.getsockname()[1]
    table.remember_port(bound)
    # On every address (0.0.0.0, ::), the link needs one a phone can reach: the LAN's.
    link_host = (found[0] if found else "127.0.0.1") if network.everywhere(host) else host
    link = f"http://{network.url_host(link_host)}:{bound}/t/{table.token}"
    if qr_pdf:
        words = {k: v[lang] for k, v in the_look.texts.items()}
        qr.write_card(qr_pdf, link, words, the_look.all_credits(lang), page_size)

    out = sys.stdout
    click.echo(f"Table link: {link}")
    qr.print_terminal(link, out)
    if link_host != host:
        click.echo(f"Listening on every address of this machine ({host}); the link uses "
                   f"{link_host}.")
    if network.loopback(link_host):
        click.echo(f"Note: {link_host} is this machine only; phones need a LAN address "
                   "(--host).")
    others = [a for a in found if a != link_host]
    if others:
        click.echo("This machine has other addresses; if phones cannot connect, restart with "
                   "--host " + " or --host ".join(others))
    if qr_pdf:
        click.echo(f"QR card: {qr_pdf}")
    click.echo(f"Table data: {table.source} ({len(table.draws)} draws so far). "
               "Stop with Ctrl+C.")
    out.flush()

    served = {link_host, *names, "localhost", "127.0.0.1", "::1"}
    served |= set(found) if network.everywhere(host) else {host}
    config = uvicorn.Config(
        app.create_app(table, the_look, sorted(served), bound),
        log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
        http=limits.protocol(limits.connection_limit()), ws="none", proxy_headers=False,
        timeout_keep_alive=5, backlog=limits.BACKLOG, h11_max_incomplete_event_size=16 * 1024)
    limits.quiet_logs()
    try:
        limits.Server(config).run(sockets=[sock])
    except (KeyboardInterrupt, Interrupted):  # uvicorn re-raises Ctrl+C (and our SIGTERM)
        pass  # once stopped


def _listen(network, host: str, port: int | None, last_port: int | None):
    """The port asked for; else the table's last one, so that a printed QR still works;
    else any free port."""
    if port is None and last_port:
        try:
            return network.listening_socket(host, last_port)
        except CompanionError:
            click.echo(f"Port {last_port} is taken now: the table gets a new link.", err=True)
    return network.listening_socket(host, port)
