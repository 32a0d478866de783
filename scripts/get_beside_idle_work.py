#!/usr/bin/env python3
"""`profile/get` under load, alone and beside a command run in Linux's idle scheduling
class on the server's core: what sharing a core with idle-class work costs the API, with
no verification involved (docs/BENCHMARKS.md, beside get_while_verifying.py).

    python3 scripts/get_beside_idle_work.py [path/to/idv] [rounds] -- COMMAND [ARG...]

    # a loop that touches almost no memory, and one that streams through 64 MiB:
    python3 scripts/get_beside_idle_work.py target/release/idv 5 -- sh -c 'while :; do :; done'
    python3 scripts/get_beside_idle_work.py target/release/idv 5 -- python3 -c \\
        'import array; a = array.array("q", bytes(64 << 20))
    while True: sum(a[::8])'

The server is pinned to core 0, wrk to core 1 (`scripts/load.sh get` over 1 000 seeded
profiles, 15 s, 32 connections a round). Rounds alternate: a quiet one, then one with
COMMAND running under `chrt --idle 0 taskset -c 0` for the whole round. Prints each round
and the medians of the p99s and of the rates.
"""
import subprocess
import sys

from get_while_verifying import load, seeded_on_core_0


def main():
    split = sys.argv.index("--")
    args, command = sys.argv[1:split], sys.argv[split + 1:]
    binary = args[0] if args else "target/release/idv"
    rounds = int(args[1]) if len(args) > 1 else 5
    quiet, beside = [], []
    with seeded_on_core_0(binary) as (server, credentials):
        load(server, credentials, 5)  # warm-up, not counted
        for r in range(rounds):
            quiet.append(load(server, credentials))
            print(f"round {r} quiet:  {quiet[-1]}", flush=True)
            work = subprocess.Popen(["chrt", "--idle", "0", "taskset", "-c", "0", *command])
            try:
                beside.append(load(server, credentials))
            finally:
                work.kill()
                work.wait()
            print(f"round {r} beside: {beside[-1]}", flush=True)

    def median(rounds, key):
        values = sorted(r[key] for r in rounds)
        return values[len(values) // 2]

    for key in ("p99_ms", "rps"):
        a, b = median(quiet, key), median(beside, key)
        print(f"{key} median: quiet {a:.2f}, beside the idle work {b:.2f} ({(b / a - 1) * 100:+.1f} %)")


if __name__ == "__main__":
    main()
