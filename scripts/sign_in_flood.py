#!/usr/bin/env python3
"""Sign-in floods from 1000 loopback addresses, and the memory they leave behind
(issue 47; figures in docs/BENCHMARKS.md).

Three floods of 30 s each: 48 threads post sign-ins to the dashboard as fast as they are
answered, each from the next of 1000 source addresses (127.1.0.0/16, bound on the client
side: the server sees 1000 peers), each with its own fresh form; half name a stranger,
half the real user with a wrong password. Meanwhile the real user signs in from
127.0.0.1 every 5 s with the right password, trying again after a second when answered
503 (as the page asks), five tries at most: once from the browser they signed in from
before the floods (it holds its device mark, `idv_device`), and from a new browser on
127.0.0.2 (another address: each has its own budget of 10 tries a minute).
After each flood, once every answer is in, the server's anonymous resident memory
(RssAnon) is read, then again 5 s later.

    python3 scripts/sign_in_flood.py [path/to/idv]      (default: target/release/idv)

It starts its own server on 127.0.0.1 with a throw-away data directory.
"""
import http.client, itertools, re, sys, threading, time, urllib.parse
from collections import Counter

from benchkit import Server

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
ADDRESSES = [f"127.1.{n // 250}.{n % 250 + 1}" for n in range(1000)]
THREADS, FLOOD_SECONDS, FLOODS = 48, 30, 3
EMAIL, PASSWORD = "rev@example.com", "a long enough passphrase for the test"


def sign_in(host, port, email, password, source="127.0.0.1", device=None):
    """One sign-in with a fresh form, from `source`, the browser holding the device
    mark `device` (a `name=value` cookie) if any; the answer's status and the device mark
    it set, if any."""
    c = http.client.HTTPConnection(host, port, timeout=60, source_address=(source, 0))
    c.request("GET", "/dashboard/login")
    r = c.getresponse()
    page = r.read().decode()
    cookie = r.getheader("Set-Cookie").split(";")[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"email": email, "password": password,
                                   "csrf_token": token})
    cookies = f"{cookie}; {device}" if device else cookie
    c.request("POST", "/dashboard/login", body, {
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookies})
    answer = c.getresponse()
    marks = [v.split(";")[0] for k, v in answer.getheaders()
             if k.lower() == "set-cookie" and v.startswith("idv_device=")]
    c.close()
    return answer.status, (marks[0] if marks else None)


def flood(host, port, device):
    """One flood; the statuses of the flood's posts and of the real user's sign-ins,
    from the known browser (holding `device`, a one-item list kept up to date) and from
    new ones."""
    ends = time.monotonic() + FLOOD_SECONDS
    addresses = itertools.cycle(ADDRESSES)
    lock, statuses, real = threading.Lock(), Counter(), {"known": [], "new": []}

    def poster(n):
        for i in itertools.count():
            if time.monotonic() > ends:
                return
            with lock:
                source = next(addresses)
            email = f"stranger{n}x{i}@example.com" if i % 2 else EMAIL
            try:
                status, _ = sign_in(host, port, email, "not the passphrase", source)
            except OSError as e:
                status = type(e).__name__
            with lock:
                statuses[status] += 1

    def person(browser):
        while time.monotonic() < ends - 5:
            tries = []
            for _ in range(5):
                known = browser == "known"
                status, mark = sign_in(host, port, EMAIL, PASSWORD,
                                       "127.0.0.1" if known else "127.0.0.2",
                                       device[0] if known else None)
                tries.append(status)
                if known and mark:
                    device[0] = mark
                if status != 503:
                    break
                time.sleep(1)
            real[browser].append(tries)
            time.sleep(5)

    threads = [threading.Thread(target=poster, args=(n,)) for n in range(THREADS)]
    threads += [threading.Thread(target=person, args=(b,)) for b in real]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses, real


def main():
    env = {"IDV_SIGN_IN_LIMIT": "10"}
    with Server(BINARY, env=env).start() as server:
        host, port = server.base.rsplit("/", 1)[-1].split(":")
        server.idv("merchant", "user", "create", "--merchant", server.merchant, "--email",
                   EMAIL, "--password-stdin", stdin=PASSWORD + "\n")
        print(f"fresh: RssAnon {server.status_kib('RssAnon') / 1024:.1f} MB")
        status, mark = sign_in(host, port, EMAIL, PASSWORD)
        assert status == 303 and mark, "the quiet sign-in that leaves the device mark"
        device = [mark]
        for n in range(1, FLOODS + 1):
            statuses, real = flood(host, port, device)
            idle = server.status_kib("RssAnon") / 1024
            time.sleep(5)
            later = server.status_kib("RssAnon") / 1024
            people = "; ".join(
                f"{browser} browser {sum(1 for t in tries if t[-1] == 303)}/{len(tries)}"
                f" at first try {sum(1 for t in tries if t == [303])} ({tries})"
                for browser, tries in real.items())
            print(f"flood {n}: posts {dict(sorted(Counter({str(k): v for k, v in statuses.items()}).items()))}; "
                  f"real sign-ins: {people}; "
                  f"RssAnon idle {idle:.1f} MB, 5 s later {later:.1f} MB, "
                  f"peak RSS {server.status_kib('VmHWM') / 1024:.0f} MB")


if __name__ == "__main__":
    main()
