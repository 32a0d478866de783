#!/usr/bin/env python3
"""What issue 29 measures at a million profiles, on one backend, against the real binary
(docs/BENCHMARKS.md): `profile/get` spread over every profile of a 1 M database against
the same over a 1 k one, with the server's `RssAnon`, then the dashboard and deep pages
of the 1 M server (`scale.py`).

    python3 scripts/million.py BINARY [ROUNDS] [DATABASE_URL_1K DATABASE_URL_1M]

Without the URLs both servers run on SQLite in throw-away data directories; with them
(two empty PostgreSQL databases) on PostgreSQL. Both are seeded by `idv seed --prefix
load` and started on core 0. Before the first round it waits until neither server has
used processor time for two seconds: after a seed, SQLite's search indexer catches up
and merges its segments, and a round taken meanwhile measures that. Each round loads the
1 k server, then the 1 M one: 5 s of warm-up, then `load.sh get COUNT 12 32` from core
1, reads spread at random over every profile, and the server's `RssAnon` after it.
Only ever point it at your own server (127.0.0.1).
"""
import contextlib
import os
import statistics
import subprocess
import sys
import time

from get_while_verifying import load, seeded_on_core_0

HERE = os.path.dirname(os.path.abspath(__file__))
SMALL, LARGE = 1_000, 1_000_000
USER, PASSWORD = "bench@example.com", "a long bench password"


def cpu_ticks(pid):
    """Processor time the process has used so far (user and system, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wait_until_idle(servers):
    started = time.monotonic()
    while True:
        before = [cpu_ticks(s.process.pid) for s in servers]
        time.sleep(2)
        if before == [cpu_ticks(s.process.pid) for s in servers]:
            return time.monotonic() - started


@contextlib.contextmanager
def seeded(binary, profiles, database):
    """`seeded_on_core_0` on `database` (SQLite when `None`), saying how long seeding took."""
    env = {"IDV_DATABASE_URL": database} if database else {}
    started = time.monotonic()
    with seeded_on_core_0(binary, profiles, env) as seeded_server:
        print(f"seeded {profiles} and started in {time.monotonic() - started:.0f} s",
              flush=True)
        yield seeded_server


def main():
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    small_db, large_db = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else (None, None)
    with seeded(binary, SMALL, small_db) as (small, small_creds), \
            seeded(binary, LARGE, large_db) as (large, large_creds):
        print(f"both idle after {wait_until_idle([small, large]):.0f} s", flush=True)
        ratios = []
        for r in range(rounds):
            figures = {}
            for name, server, creds, count in (("1k", small, small_creds, SMALL),
                                               ("1M", large, large_creds, LARGE)):
                load(server, creds, 5, count)
                figures[name] = load(server, creds, 12, count)
                figures[name]["rss_anon_kib"] = server.status_kib("RssAnon")
            ratio = figures["1M"]["rps"] / figures["1k"]["rps"]
            ratios.append(ratio)
            print(f"round {r}: 1k {figures['1k']}, 1M {figures['1M']}, 1M/1k {ratio:.2f}",
                  flush=True)
        print(f"1M/1k median {statistics.median(ratios):.2f} "
              f"({min(ratios):.2f}-{max(ratios):.2f})", flush=True)
        large.idv("merchant", "user", "create", "--merchant", large.merchant, "--email", USER,
                  "--password-stdin", stdin=PASSWORD)
        subprocess.run(["taskset", "-c", "1", sys.executable, os.path.join(HERE, "scale.py"),
                        large.base, large_creds, USER, PASSWORD, str(LARGE)], check=True)


if __name__ == "__main__":
    main()
