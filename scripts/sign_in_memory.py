#!/usr/bin/env python3
"""Peak resident memory of `idv serve` under 60 parallel dashboard sign-ins from one
address (contract §16; figures in docs/BENCHMARKS.md).

Each sign-in carries its own fresh form (cookie and CSRF token) and a wrong password, and
all 60 are released at once. Argon2id takes 19 MiB per hash: unbounded, 60 of them at once
take over a gigabyte. The server counts the address's budget before hashing (10 a minute)
and runs at most 2 hashes per core, so the peak should stay near where it started. Runs
twice: with the budget (the default), and with `IDV_SIGN_IN_LIMIT=0`, where only the
hashing bound stands. Prints the answers' statuses and the peak (VmHWM) of each run.

    python3 scripts/sign_in_memory.py [path/to/idv]      (default: target/release/idv)

It starts its own server on 127.0.0.1 with a throw-away data directory.
"""
import http.client, re, sys, threading, urllib.parse
from collections import Counter

from benchkit import Server

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
PARALLEL = 60
EMAIL, PASSWORD = "rev@example.com", "a long enough passphrase for the test"


def login_form(host, port):
    c = http.client.HTTPConnection(host, port, timeout=30)
    c.request("GET", "/dashboard/login")
    r = c.getresponse()
    page = r.read().decode()
    cookie = r.getheader("Set-Cookie").split(";")[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    c.close()
    return cookie, token


def run(limit):
    with Server(BINARY, env={"IDV_SIGN_IN_LIMIT": str(limit)}).start() as server:
        host, port = server.base.rsplit("/", 1)[-1].split(":")
        server.idv("merchant", "user", "create", "--merchant", server.merchant, "--email",
                   EMAIL, "--password-stdin", stdin=PASSWORD + "\n")
        forms = [login_form(host, port) for _ in range(PARALLEL)]
        before = server.status_kib("VmRSS")
        start, statuses = threading.Barrier(PARALLEL), []

        def sign_in(cookie, token):
            body = urllib.parse.urlencode({"email": EMAIL, "password": "wrong " * 4,
                                           "csrf_token": token})
            c = http.client.HTTPConnection(host, port, timeout=120)
            start.wait()
            c.request("POST", "/dashboard/login", body, {
                "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
            statuses.append(c.getresponse().status)
            c.close()

        threads = [threading.Thread(target=sign_in, args=f) for f in forms]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        peak = server.status_kib("VmHWM")
    print(f"IDV_SIGN_IN_LIMIT={limit}: answers {dict(sorted(Counter(statuses).items()))}, "
          f"RSS before {before // 1024} MB, peak {peak // 1024} MB")


if __name__ == "__main__":
    run(10)
    run(0)
