#!/usr/bin/env python3
"""Whether a busy machine changes what a verification finds (docs/BENCHMARKS.md): the same
quiz verified on a quiet server and while `profile/get` keeps its core busy for longer
than the 20 s an image may take, measured from outside against the real binary.

    IDV_TEST_FACES=~/.cache/idv-faces cargo run -p fixtures --example write_documents -- /tmp/docs
    python3 scripts/verification_under_load.py [path/to/idv] [documents dir] [seconds]

The server is pinned to core 0, wrk to core 1 (`scripts/load.sh get` over 1 000 seeded
profiles, 32 connections, `seconds` long: 40 unless told). A quiz with a licence front and
back, a passport page and a selfie is verified on the quiet server first; then a second
one is submitted and the load starts at once. Once the load has ended and the second
verification has completed, each check's status and reasons are printed for both, and the
script exits non-zero if any differs but `duplicate_identity` (the second client shows the
first one's documents, so that check must fail for it) and the status that follows from it.
"""
import sys
import time

from get_while_verifying import load, seeded_on_core_0
from verification_time import documents, ready_quiz


def verified(server, url):
    """The quiz's completed verification: each check's name, status and reasons."""
    while True:
        verification = server.api.call("verification/get", {"url": url})["verification"]
        if verification["status"] != "pending":
            return verification["status"], {
                c["name"]: (c["status"], tuple(c["reasons"])) for c in verification["checks"]}
        time.sleep(0.2)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
    files = documents(sys.argv[2] if len(sys.argv) > 2 else "/tmp/docs")
    seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    with seeded_on_core_0(binary) as (server, credentials):
        quiet_url, quiet_token = ready_quiz(server, 0, files)
        busy_url, busy_token = ready_quiz(server, 1, files)
        server.api.submit(quiet_token)
        quiet = verified(server, quiet_url)
        server.api.submit(busy_token)
        submitted = time.monotonic()
        figures = load(server, credentials, seconds)
        pending = server.api.verification_status(busy_url) == "pending"
        busy = verified(server, busy_url)
        took = time.monotonic() - submitted
    print(f"load: {figures}")
    print(f"busy verification {'still pending' if pending else 'done'} when the load ended; "
          f"completed {took:.1f} s after submission")
    print(f"{'check':<22} {'quiet':<40} busy")
    print(f"{'(status)':<22} {quiet[0]:<40} {busy[0]}")
    differ = False
    for name in sorted(set(quiet[1]) | set(busy[1])):
        a, b = quiet[1].get(name), busy[1].get(name)
        counted = a != b and name != "duplicate_identity"
        differ |= counted
        mark = "   <- differs" if counted else ""
        print(f"{name:<22} {str(a):<40} {b}{mark}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
