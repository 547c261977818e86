#!/usr/bin/env python3
"""Slow clients at the open-file limit (issue 14, BENCHMARKS.md "Slow clients").

Opens --slow connections that send a request head one header line every
--interval seconds and never finish it (slowloris), spread over --processes
worker processes (each holds at most a share, so each fits a 20,000 open-file
limit) and over 127.0.0.2-9 as source addresses (so loopback has the
ephemeral ports). A slow client that gets cut off reconnects after
--reconnect seconds, for the whole run. Meanwhile, once every slow client
has opened, a trickle of normal requests (--rate a second, each on a new
connection, for --duration seconds) records each status and latency (from
connect to the end of the answer).

First, for --baseline seconds, the same trickle runs alone: its latencies
are the baseline of the run. Prints a JSON summary: the normal requests (count, statuses, p50, p99, max
latency) and the slow clients (connections opened, peak open at once, cut
off by the server, the longest-lived, any answer they got), and exits 1
unless every normal request got a 200 within --bound seconds and no slow
connection lived longer than --cutoff seconds.

    python3 scripts/benchmarks/slowclients.py --port 8000 --path /api/events/democon/talks/
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sys
import time


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def slow_client(host, port, source, interval, reconnect, stop_at, stats, opened_once):
    """One slow client: a connection sending a header line every `interval`,
    reconnected after `reconnect` seconds whenever the server closes it."""
    while time.monotonic() < stop_at:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError as err:
            stats["connect_errors"][type(err).__name__] = stats["connect_errors"].get(type(err).__name__, 0) + 1
            await asyncio.sleep(reconnect)
            continue
        opened = time.monotonic()
        stats["opened"] += 1
        stats["open"] += 1
        stats["peak_open"] = max(stats["peak_open"], stats["open"])
        if not opened_once.done():
            opened_once.set_result(None)
        line = 0
        cut = False
        try:
            while time.monotonic() < stop_at:
                writer.write(b"GET /api/events/ HTTP/1.1\r\n" if line == 0 else b"X-Slow-%d: y\r\n" % line)
                line += 1
                try:
                    data = await asyncio.wait_for(reader.read(4096), interval)
                except asyncio.TimeoutError:
                    continue
                if data:
                    status = data.split(b" ", 2)[1].decode(errors="replace") if data.startswith(b"HTTP/") else "?"
                    stats["answered"][status] = stats["answered"].get(status, 0) + 1
                    await reader.read()  # until the server closes
                cut = True
                break
        except (ConnectionError, OSError):
            cut = True
        lived = time.monotonic() - opened
        stats["open"] -= 1
        if cut:
            stats["cut"] += 1
            stats["longest_cut"] = max(stats["longest_cut"], lived)
        else:
            stats["longest_open_at_end"] = max(stats["longest_open_at_end"], lived)
        writer.close()
        if cut:
            await asyncio.sleep(reconnect)


async def slow_worker_main(args, count, first, ready, results):
    stats = {
        "opened": 0, "open": 0, "peak_open": 0, "cut": 0, "longest_cut": 0.0,
        "longest_open_at_end": 0.0, "answered": {}, "connect_errors": {},
    }
    stop_at = time.monotonic() + args.ramp + args.duration + 5
    tasks, opened = [], []
    for i in range(count):
        source = "127.0.0.%d" % (2 + (first + i) % 8)
        opened_once = asyncio.get_running_loop().create_future()
        opened.append(opened_once)
        tasks.append(asyncio.create_task(slow_client(
            args.host, args.port, source, args.interval, args.reconnect, stop_at, stats, opened_once)))
        # A burst of connects at a time, so that the listen backlog keeps up.
        if i % 500 == 499:
            await asyncio.sleep(0.05)
    await asyncio.wait(opened, timeout=args.ramp)
    ready.put(stats["open"])
    await asyncio.gather(*tasks, return_exceptions=True)
    results.put(stats)


def slow_worker(args, count, first, ready, results):
    asyncio.run(slow_worker_main(args, count, first, ready, results))


async def normal_requests(args, duration):
    records = []

    async def one():
        started = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(args.host, args.port), 10)
            writer.write(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % (args.path, args.host)).encode())
            data = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "no answer"
        except (asyncio.TimeoutError, OSError) as err:
            status = type(err).__name__
        records.append((status, time.monotonic() - started, started))

    tasks = []
    start = time.monotonic()
    n = int(duration * args.rate)
    for i in range(n):
        await asyncio.sleep(max(0.0, start + i / args.rate - time.monotonic()))
        tasks.append(asyncio.create_task(one()))
    await asyncio.gather(*tasks)
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="/api/events/")
    parser.add_argument("--slow", type=int, default=21000)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--reconnect", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=60.0, help="longest wait for the slow clients to open")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=4.0)
    parser.add_argument("--baseline", type=float, default=10.0,
                        help="seconds of normal requests before any slow client, as the baseline")
    parser.add_argument("--bound", type=float, default=0.1, help="a normal request must take less (seconds)")
    parser.add_argument("--cutoff", type=float, default=30.0, help="a slow client must be cut within (seconds)")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    share = -(-args.slow // args.processes)
    if share + 100 > hard:
        sys.exit("each of the %d processes needs %d open files; the limit is %d: use more --processes"
                 % (args.processes, share + 100, hard))

    baseline = asyncio.run(normal_requests(args, args.baseline)) if args.baseline > 0 else []

    ctx = multiprocessing.get_context("fork")
    ready, results = ctx.Queue(), ctx.Queue()
    workers = []
    for p in range(args.processes):
        count = min(share, args.slow - p * share)
        worker = ctx.Process(target=slow_worker, args=(args, count, p * share, ready, results))
        worker.start()
        workers.append(worker)
    ramp_started = time.monotonic()
    opened = sum(ready.get() for _ in workers)
    ramp = time.monotonic() - ramp_started
    print("slow clients open: %d in %.1f s; normal requests for %.0f s" % (opened, ramp, args.duration),
          file=sys.stderr, flush=True)

    records = asyncio.run(normal_requests(args, args.duration))
    slow = [results.get() for _ in workers]
    for worker in workers:
        worker.join()

    def requests(records):
        statuses = {}
        for status, _, _ in records:
            statuses[status] = statuses.get(status, 0) + 1
        latencies = [t for _, t, _ in records] or [0.0]
        first = min((at for _, _, at in records), default=0)
        return {
            "requests": len(records),
            "statuses": statuses,
            "p50_ms": round(percentile(latencies, 50) * 1000, 1),
            "p99_ms": round(percentile(latencies, 99) * 1000, 1),
            "max_ms": round(max(latencies) * 1000, 1),
            "within_bound": sum(1 for s, t, _ in records if s == "200" and t < args.bound),
            # The others: [seconds into the trickle, milliseconds, status].
            "over_bound": [[round(at - first, 1), round(t * 1000, 1), s]
                           for s, t, at in records if not (s == "200" and t < args.bound)],
        }

    answered = {}
    connect_errors = {}
    for s in slow:
        for k, v in s["answered"].items():
            answered[k] = answered.get(k, 0) + v
        for k, v in s["connect_errors"].items():
            connect_errors[k] = connect_errors.get(k, 0) + v
    summary = {
        "baseline_without_slow_clients": requests(baseline),
        "normal": requests(records),
        "slow": {
            "clients": args.slow,
            "open_before_normal_requests": opened,
            "connections_opened": sum(s["opened"] for s in slow),
            "peak_open_sum_of_processes": sum(s["peak_open"] for s in slow),
            "cut_by_server": sum(s["cut"] for s in slow),
            "longest_before_cut_s": round(max(s["longest_cut"] for s in slow), 1),
            "longest_open_at_end_s": round(max(s["longest_open_at_end"] for s in slow), 1),
            "answers": answered,
            "connect_errors": connect_errors,
        },
    }
    print(json.dumps(summary, indent=1))
    ok = (summary["normal"]["within_bound"] == len(records)
          and summary["slow"]["longest_before_cut_s"] <= args.cutoff
          and summary["slow"]["longest_open_at_end_s"] <= args.cutoff)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
