#!/usr/bin/env python3
"""`profile/get` under load, alone and while quizzes are verified beside it (issue 29:
its p99 should grow by less than 10 %), measured from outside against the real binary
(docs/BENCHMARKS.md).

    IDV_TEST_FACES=~/.cache/idv-faces cargo run -p fixtures --example write_documents -- /tmp/docs
    python3 scripts/get_while_verifying.py [path/to/idv] [documents dir] [rounds] [quizzes]

The server is pinned to core 0 (so it runs one verification at a time) and wrk to core 1
(`scripts/load.sh get` over 1 000 seeded profiles, 15 s, 32 connections). Rounds alternate:
a quiet one, then one where `quizzes` quizzes (20 unless told), their four documents
uploaded beforehand, are submitted at once just before the load starts. A loaded round
counts only if verifications were still pending when its load ended, so the whole window
was shared with them; it then waits for every one to complete and says how long that took.
"""
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from benchkit import Server
from verification_time import documents, ready_quiz

PROFILES, SECONDS, CONNECTIONS = 1000, 15, 32
LOAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "load.sh")


@contextlib.contextmanager
def seeded_on_core_0(binary, profiles=PROFILES, env=None):
    """A server (with `env`) of `profiles` seeded profiles, pinned to core 0, and the path
    of its credentials for `load`."""
    with Server(binary, env) as server, \
            tempfile.NamedTemporaryFile("w", suffix=".json") as credentials:
        server.idv("seed", "--merchant", server.merchant, "--prefix", "load",
                   "--profiles", str(profiles))
        json.dump(server.credentials, credentials)
        credentials.flush()
        server.start(cpus="0")
        yield server, credentials.name


def load(server, credentials, seconds=SECONDS, profiles=PROFILES):
    """wrk's figures for `profile/get` over the first `profiles` seeded ones, from core 1."""
    line = subprocess.run(["taskset", "-c", "1", "bash", LOAD, server.base, credentials, "get",
                           str(profiles), str(seconds), str(CONNECTIONS)],
                          capture_output=True, text=True, check=True).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)}


def print_medians(quiet, shared, during, beside):
    """The median p99 of the quiet rounds and of those that shared their whole window
    with the work (`during` says what it was doing, `beside` what the rounds shared it
    with); exits when no round did."""
    quiet, shared = sorted(quiet), sorted(shared)
    if not shared:
        sys.exit(f"no round shared its whole window with {beside}")
    middle_quiet, middle_shared = quiet[len(quiet) // 2], shared[len(shared) // 2]
    print(f"p99 median: quiet {middle_quiet:.2f} ms, while {during} {middle_shared:.2f} ms "
          f"({(middle_shared / middle_quiet - 1) * 100:+.1f} %)")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
    docs = sys.argv[2] if len(sys.argv) > 2 else "/tmp/docs"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    quizzes = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    files = documents(docs)
    with seeded_on_core_0(binary) as (server, credentials):
        ready = [[ready_quiz(server, r * quizzes + n, files) for n in range(quizzes)]
                 for r in range(rounds)]
        load(server, credentials, 5)  # warm-up, not counted
        quiet, shared = [], []
        for r in range(rounds):
            figures = load(server, credentials)
            quiet.append(figures["p99_ms"])
            print(f"round {r} quiet:    {figures}", flush=True)
            for _, token in ready[r]:
                server.api.submit(token)
            submitted = time.monotonic()
            figures = load(server, credentials)
            pending = sum(server.api.verification_status(url) == "pending"
                          for url, _ in ready[r])
            while any(server.api.verification_status(url) == "pending" for url, _ in ready[r]):
                time.sleep(0.2)
            took = time.monotonic() - submitted
            print(f"round {r} verifying: {figures}; {pending} of {quizzes} still pending "
                  f"when the load ended, all completed {took:.1f} s after submission",
                  flush=True)
            if pending:
                shared.append(figures["p99_ms"])
    print_medians(quiet, shared, "verifying", "verifications")


if __name__ == "__main__":
    main()
