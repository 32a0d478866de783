#!/usr/bin/env python3
"""Sealed upload throughput and the server's memory (issue 29): 10 MiB photos uploaded to
quiz links, streamed, hashed, sealed and stored by the real binary (docs/BENCHMARKS.md).

    IDV_TEST_FACES=~/.cache/idv-faces cargo run -p fixtures --example write_documents -- /tmp/docs
    python3 scripts/upload_throughput.py [path/to/idv] [documents dir]

The photo is the fixtures' selfie, a real JPEG, grown to just under 10 MiB with comment
segments of random bytes (which no compression shrinks); it still decodes as the selfie.
The server (SQLite, local files) is pinned to core 0 and this script to core 1. First 10
uploads one after another, then 20 at once, each to a quiz of its own; the figures are MB/s
of file bytes over the wall time, and the server's resident memory (`VmRSS`, and
`RssAnon` sampled every 10 ms) before and at its peak.
"""
import os
import sys
import threading
import time

from benchkit import Server

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
DOCS = sys.argv[2] if len(sys.argv) > 2 else "/tmp/docs"
SIZE = 10 * 2**20 - 4096
ONE_BY_ONE, AT_ONCE = 10, 20
STEPS = {"selfie_upload": 1}


def photo(selfie):
    """`selfie` (a JPEG) with comment segments (FF FE) of random bytes just before its scan
    (FF DA), after its frame header (which the server reads from the first 256 KiB), to
    `SIZE` bytes."""
    at = 2
    while selfie[at + 1] != 0xDA:  # each segment: FF, marker, two bytes of length
        at += 2 + int.from_bytes(selfie[at + 2:at + 4], "big")
    grown, room = bytearray(selfie[:at]), SIZE - len(selfie)
    while room > 4:
        length = min(65535, room - 2)
        grown += b"\xff\xfe" + length.to_bytes(2, "big") + os.urandom(length - 2)
        room -= length + 2
    return bytes(grown + selfie[at:])


def upload_all(server, tokens, content, answers):
    for token in tokens:
        answers.append(server.api.upload(token, "selfie_upload", None, "selfie.jpg", content))


def main():
    os.sched_setaffinity(0, {1})
    content = photo(open(f"{DOCS}/selfie.jpg", "rb").read())
    megabytes = len(content) / 1e6
    with Server(BINARY).start(cpus="0") as server:
        tokens = [server.api.quiz(n, STEPS)[1] for n in range(ONE_BY_ONE + AT_ONCE)]
        answers = []
        started = time.monotonic()
        upload_all(server, tokens[:ONE_BY_ONE], content, answers)
        took = time.monotonic() - started
        print(f"{ONE_BY_ONE} x {len(content) / 2**20:.2f} MiB one after another: "
              f"{ONE_BY_ONE * megabytes / took:.0f} MB/s ({took / ONE_BY_ONE * 1000:.0f} ms each)")

        before_rss, before_anon = server.status_kib("VmRSS"), server.status_kib("RssAnon")
        peak_anon = before_anon
        threads = [threading.Thread(target=upload_all, args=(server, [t], content, answers))
                   for t in tokens[ONE_BY_ONE:]]
        started = time.monotonic()
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            peak_anon = max(peak_anon, server.status_kib("RssAnon"))
            time.sleep(0.01)
        took = time.monotonic() - started
        peak_rss = server.status_kib("VmHWM")
        stored = sum("document_id" in a for a in answers)
        print(f"{AT_ONCE} x {len(content) / 2**20:.2f} MiB at once: "
              f"{AT_ONCE * megabytes / took:.0f} MB/s ({took:.2f} s in all); "
              f"VmRSS {before_rss // 1024} MB before, peak {peak_rss // 1024} MB; "
              f"RssAnon {before_anon // 1024} MB before, peak {peak_anon // 1024} MB")
        print(f"{stored} of {len(tokens)} uploads stored")
        if stored != len(tokens):
            sys.exit(f"answers: {answers}")


if __name__ == "__main__":
    main()
