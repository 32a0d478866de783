#!/usr/bin/env python3
"""Resident memory of `idv serve` while 20 clients each try to upload 40 MiB to an unknown
quiz link at once (docs/SECURITY.md, docs/BENCHMARKS.md).

The link is checked before the body is read, so the server answers 404 after the headers
and buffers nothing: its memory should stay where it started. Prints the peak RSS seen.

    python3 scripts/upload_memory.py [path/to/idv]      (default: target/release/idv)
"""
import socket, sys, threading, time

from benchkit import Server

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
CLIENTS, SIZE = 20, 40 * 1024 * 1024


def upload(address, answers):
    host, port = address.split(":")
    s = socket.create_connection((host, int(port)))
    s.sendall((f"POST /quiz/{'x' * 43}/documents HTTP/1.1\r\nHost: {address}\r\n"
               "Content-Type: multipart/form-data; boundary=b\r\n"
               f"Content-Length: {SIZE}\r\n\r\n").encode())
    chunk, sent = b"a" * 65536, 0
    try:
        while sent < SIZE:
            s.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass  # the server answered and closed: the rest is never read
    s.settimeout(10)
    try:
        answers.append((s.recv(64).split(b"\r\n")[0].decode(), sent))
    except OSError as e:
        answers.append((f"no answer: {e}", sent))
    s.close()


def main():
    with Server(BINARY).start() as server:
        address = server.base.removeprefix("http://")
        time.sleep(0.5)
        before = server.status_kib("VmRSS")
        answers, peak, threads = [], before, []
        for _ in range(CLIENTS):
            t = threading.Thread(target=upload, args=(address, answers))
            t.start()
            threads.append(t)
        while any(t.is_alive() for t in threads):
            peak = max(peak, server.status_kib("VmRSS"))
            time.sleep(0.01)
    statuses = sorted({a for a, _ in answers})
    most = max(s for _, s in answers) / 2**20
    print(f"{CLIENTS} x {SIZE // 2**20} MiB to an unknown link: answers {statuses}, "
          f"at most {most:.1f} MiB sent by one client before the answer; "
          f"server RSS {before / 1024:.1f} MB before, peak {peak / 1024:.1f} MB")


if __name__ == "__main__":
    main()
