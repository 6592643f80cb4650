#!/usr/bin/env python3
"""A loopback TCP proxy that delays every chunk by a fixed time each way and counts
client-to-server round trips, for benchmarking over a slow link.

    delay-proxy.py LISTEN_PORT TARGET [--delay-ms 5] [--lifetime 600] [--report FILE]

TARGET is 127.0.0.1:PORT, or the path of a Unix socket (e.g. a PostgreSQL
server's /tmp/dir/.s.PGSQL.5432, which is how `pgwarden dev` listens).

Listens on 127.0.0.1 only. Data from either side is forwarded after DELAY ms (in
order, so a link of that latency each way, not a bandwidth limit). A round trip is
a client send burst that waited for the server: counted when the client sends after
the server has sent something AND at least one link round trip (2 x DELAY) after
its previous chunk (a client that waited for a reply cannot send sooner; chunks of
one pipelined write that the server already began answering are one burst), plus
the first burst of each connection. `reply_bursts` counts every client chunk that
follows server data, without the time condition (an upper bound). Bytes each way
are counted too. On SIGTERM/SIGINT, or after LIFETIME
seconds (so it always stops by itself), it writes the counts as JSON to FILE (or
stdout) and exits. Counts are per connection and totalled. With --trace FILE, the printable start
of each round trip's first client chunk is written there, one line each (to see
where the round trips go).
"""
import argparse, asyncio, json, signal, sys, time


class Counts:
    def __init__(self):
        self.connections = []

    def total(self):
        keys = ("round_trips", "reply_bursts", "client_bytes", "server_bytes")
        return {k: sum(c[k] for c in self.connections) for k in keys} | {
            "connections": len(self.connections), "per_connection": self.connections}


async def pump(reader, writer, delay, on_data):
    """Forwards reader -> writer, each chunk delivered `delay` seconds after it arrived."""
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        try:
            writer.write_eof()
        except (OSError, RuntimeError):
            pass

    task = asyncio.ensure_future(deliver())
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            on_data(data)
            queue.put_nowait((time.monotonic() + delay, data))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait((0, None))
    await task


TRACE = None


async def handle(client_reader, client_writer, target, delay, counts):
    try:
        if isinstance(target, str):
            server_reader, server_writer = await asyncio.open_unix_connection(target)
        else:
            server_reader, server_writer = await asyncio.open_connection(*target)
    except OSError:
        client_writer.close()
        return
    stats = {"round_trips": 0, "reply_bursts": 0, "client_bytes": 0, "server_bytes": 0}
    counts.connections.append(stats)
    state = {"server_spoke": True, "server_spoke_since_burst": True, "last_client": -1e9}

    def from_client(data):
        now = time.monotonic()
        waited = now - state["last_client"] >= 2 * delay * 0.95
        state["last_client"] = now
        if state["server_spoke_since_burst"]:
            stats["reply_bursts"] += 1
            state["server_spoke_since_burst"] = False
        if state["server_spoke"] and waited:
            stats["round_trips"] += 1
            state["server_spoke"] = False
            if TRACE:
                text = "".join(c if 32 <= ord(c) < 127 else "." for c in data[:160].decode("latin-1"))
                TRACE.write(f"{len(counts.connections)} {len(data)} {text}\n")
        stats["client_bytes"] += len(data)

    def from_server(data):
        state["server_spoke"] = True
        state["server_spoke_since_burst"] = True
        stats["server_bytes"] += len(data)

    try:
        await asyncio.gather(
            pump(client_reader, server_writer, delay, from_client),
            pump(server_reader, client_writer, delay, from_server))
    except asyncio.CancelledError:
        pass  # the proxy is stopping with this connection still open: end it quietly
    finally:
        for w in (client_writer, server_writer):
            w.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("listen_port", type=int)
    parser.add_argument("target")
    parser.add_argument("--delay-ms", type=float, default=5.0)
    parser.add_argument("--lifetime", type=float, default=600.0)
    parser.add_argument("--report")
    parser.add_argument("--trace")
    args = parser.parse_args()
    global TRACE
    if args.trace:
        TRACE = open(args.trace, "w", buffering=1)
    if args.target.startswith("/"):
        target = args.target
    else:
        host, _, port = args.target.rpartition(":")
        if host not in ("127.0.0.1", "localhost"):
            sys.exit("delay-proxy: the target must be on loopback (127.0.0.1:PORT) or a Unix socket")
        target = (host, int(port))
    counts = Counts()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    server = await asyncio.start_server(
        lambda r, w: handle(r, w, target, args.delay_ms / 1000, counts),
        "127.0.0.1", args.listen_port)
    print("ready", flush=True)
    try:
        await asyncio.wait_for(stop.wait(), timeout=args.lifetime)
    except asyncio.TimeoutError:
        pass
    server.close()
    report = json.dumps(counts.total())
    if args.report:
        with open(args.report, "w") as f:
            f.write(report + "\n")
    else:
        print(report, flush=True)


asyncio.run(main())
