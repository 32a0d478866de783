#!/usr/bin/env python3
"""Slow connections from many addresses under the usual open-file limit (issue 47;
figures in docs/BENCHMARKS.md).

The server is started under `prlimit --nofile=1024:8192` (a soft limit of 1024, as a
service manager leaves it, under a higher hard one). 1100 connections are opened from
18 loopback addresses (127.2.0.1-18, under the 64 per address), each sending the start
of a request head and then one byte every 2 s; while they are held, `/healthz` and a
signed `profile/create` are timed 20 times each from 127.0.0.1. Prints the server's
open-file limit, the descriptors it holds, and the answers' times.

    python3 scripts/slow_connections.py [path/to/idv]      (default: target/release/idv)
"""
import http.client, os, resource, socket, sys, threading, time

from benchkit import Server

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
CONNECTIONS, ADDRESSES = 1100, 18


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with Server(BINARY).start(wrapper=["prlimit", "--nofile=1024:8192", "--"]) as server:
        host, port = server.base.rsplit("/", 1)[-1].split(":")
        port = int(port)
        pid = server.process.pid
        limit = [l for l in open(f"/proc/{pid}/limits") if l.startswith("Max open files")]
        print("server:", " ".join(limit[0].split()[3:5]), "open files (soft, hard)")
        held = []
        for n in range(CONNECTIONS):
            s = socket.socket()
            s.bind((f"127.2.0.{n % ADDRESSES + 1}", 0))
            s.connect((host, port))
            s.sendall(b"POST /api/v1/profile/get HTTP/1.1\r\nHost: idv\r\n")
            held.append(s)
        stop = threading.Event()

        def trickle():
            while not stop.wait(2):
                for s in held:
                    try:
                        s.sendall(b"X")
                    except OSError:
                        pass

        threading.Thread(target=trickle, daemon=True).start()
        # Accepted by the server, not waiting in the kernel's queue: up to 5 s.
        held_by_server = lambda: len(os.listdir(f"/proc/{pid}/fd"))
        deadline = time.monotonic() + 5
        while held_by_server() < CONNECTIONS and time.monotonic() < deadline:
            time.sleep(0.05)
        print("server descriptors while held:", held_by_server())
        health, calls = [], []
        for i in range(20):
            t = time.monotonic()
            c = http.client.HTTPConnection(host, port, timeout=30)
            c.request("GET", "/healthz")
            status = c.getresponse().status
            c.close()
            health.append((time.monotonic() - t, status))
            t = time.monotonic()
            server.api.call("profile/create", {
                "email_address": f"slow{i}@example.com", "mobile_number": f"41655{i:05d}",
                "first_name": "Ada", "last_name": "Lovelace"})
            calls.append(time.monotonic() - t)
        stop.set()
        print("healthz: statuses", sorted({s for _, s in health}),
              f"max {max(d for d, _ in health) * 1000:.0f} ms")
        print(f"profile/create: max {max(calls) * 1000:.0f} ms")
        for s in held:
            s.close()


if __name__ == "__main__":
    main()
