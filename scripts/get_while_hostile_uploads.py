#!/usr/bin/env python3
"""`profile/get` under load, alone and while clients upload images made to cost their
analysis all it may spend (issue 47: the API's p99 within 10 %, the analysis processes
bounded), measured from outside against the real binary (docs/BENCHMARKS.md).

    python3 scripts/get_while_hostile_uploads.py [path/to/idv] [rounds] [uploads]

The server is pinned to core 0, so its image analysis has one room, and wrk to core 1
(`scripts/load.sh get` over 1 000 seeded profiles, 15 s, 32 connections), as in
`get_while_verifying.py`. Rounds alternate: a quiet one, then one where `uploads` uploads
(100 unless told) of hostile images, each to a quiz link of its own, are sent by 8
clients at once from just before the load starts until all are answered. The images are
PNGs just under the 50-megapixel and 10 MiB budgets whose pixels are a fine random
texture: the analysis decodes all 49 megapixels and searches them for a barcode, a zone
and a face. Meanwhile the server's descendant processes are counted every 50 ms. A
hostile round counts only if uploads were still being sent or analysed when its load
ended, so the whole window was shared with them.
"""
import os
import random
import struct
import sys
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from get_while_verifying import load, print_medians, seeded_on_core_0

SIDE, TILE, CLIENTS = 7000, 97, 8


def hostile_png(seed):
    """A 7000 x 7000 grey PNG of a random 97-pixel texture (a prime, so no detector's
    stride lines up with it), each row the texture shifted: 49 megapixels that compress
    to a few MiB."""
    rng = random.Random(seed)
    texture = bytes(rng.randrange(256) for _ in range(TILE * 2))
    rows = bytearray()
    for y in range(SIDE):
        start = (y * 31) % TILE
        row = (texture[start:start + TILE] * (SIDE // TILE + 1))[:SIDE]
        rows += b"\x00" + row

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", SIDE, SIDE, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def descendants(pid):
    """The processes below `pid` (its analysis processes and their tesseracts)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def hostile_round(server, credentials, image, uploads, first):
    """wrk's figures while `uploads` hostile uploads are sent; the uploads' answers, the
    most descendants seen at once, and when the last analysis process ended."""
    links = [server.api.quiz(first + n, {"driver_licence_upload": 1})[1]
             for n in range(uploads)]
    answers, done, most = Counter(), threading.Event(), [0]

    def watch():
        while not done.is_set() or descendants(server.process.pid):
            most[0] = max(most[0], len(descendants(server.process.pid)))
            time.sleep(0.05)

    def send(token):
        try:
            quality = server.api.upload(token, "driver_licence_upload", "front",
                                        "licence.png", image).get("quality")
            key = "no quality" if quality is None else \
                f"{quality['status']} {','.join(quality['reasons'])}"
        except OSError as e:
            key = type(e).__name__
        answers[key] += 1

    watcher = threading.Thread(target=watch)
    watcher.start()
    started = time.monotonic()
    with ThreadPoolExecutor(CLIENTS) as pool:
        sending = [pool.submit(send, token) for token in links]
        figures = load(server, credentials)
        shared = any(not s.done() for s in sending) or bool(descendants(server.process.pid))
    done.set()
    watcher.join()
    return figures, shared, dict(answers), most[0], time.monotonic() - started


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    uploads = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    image = hostile_png(47)
    print(f"hostile image: {SIDE} x {SIDE} PNG, {len(image) / 2**20:.1f} MiB", flush=True)
    with seeded_on_core_0(binary) as (server, credentials):
        load(server, credentials, 5)  # warm-up, not counted
        quiet, shared = [], []
        for r in range(rounds):
            figures = load(server, credentials)
            quiet.append(figures["p99_ms"])
            print(f"round {r} quiet:   {figures}", flush=True)
            figures, overlapped, answers, most, took = hostile_round(
                server, credentials, image, uploads, r * uploads)
            print(f"round {r} hostile: {figures}; uploads answered {answers}; "
                  f"at most {most} analysis processes at once; the last ended "
                  f"{took:.1f} s after the first upload", flush=True)
            if overlapped:
                shared.append(figures["p99_ms"])
    print_medians(quiet, shared, "hostile images are analysed", "the uploads")


if __name__ == "__main__":
    main()
