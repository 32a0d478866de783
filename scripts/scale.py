#!/usr/bin/env python3
"""Times what a reviewer and an integration meet at scale, against a running server filled
by `idv seed --prefix load` (docs/BENCHMARKS.md, "A million clients"): the dashboard's
search by name, e-mail and mobile, its list page and the page of a client with 200 events
(which it makes first, as notes), signed in as a dashboard user, and `profile/read` at the
first and the last offset. Each case is asked REPEAT times in a row (20 by default) after
one unmeasured request; prints the median and the 95th percentile in milliseconds, and
fails on any answer that is not 2xx.

usage: scale.py URL CREDENTIALS_JSON USER_EMAIL USER_PASSWORD PROFILES [REPEAT]
Only ever point it at your own server (127.0.0.1).
"""
import http.cookiejar
import json
import re
import sys
import time
import urllib.parse
import urllib.request

from benchkit import Api


def mobile(i):
    # The numbering of `idv seed` (and scripts/load/requests.py).
    return f"2{i // 10_000_000 % 100:02}{2 + i // 1_000_000 % 8}{i % 1_000_000:06}"


class Dashboard:
    def __init__(self, url, email, password):
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = self.opener.open(f"{url}/dashboard/login").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode(
            {"email": email, "password": password, "csrf_token": token}).encode()
        self.opener.open(f"{url}/dashboard/login", form).read()

    def page(self, path):
        with self.opener.open(f"{self.url}{path}") as answer:
            return answer.read().decode()


def timed(name, ask, repeat):
    """`ask` (which raises on an answer that is not 2xx) once unmeasured, then `repeat`
    times measured."""
    ask()
    took = []
    for _ in range(repeat):
        start = time.perf_counter()
        ask()
        took.append((time.perf_counter() - start) * 1000)
    took.sort()
    p50 = took[len(took) // 2]
    p95 = took[max(0, -(-len(took) * 95 // 100) - 1)]
    print(f"| {name} | {p50:.1f} | {p95:.1f} |")


def with_events(api, dashboard, i, events):
    """The dashboard address of seeded profile `i`, given `events` events by as many notes."""
    email, number = f"load-{i}@example.com", mobile(i)
    for n in range(events):
        api.call("note/create", {"email_address": email, "mobile_number": number,
                                 "note": f"Called the client, attempt {n}."})
    found = dashboard.page("/dashboard/profiles?" + urllib.parse.urlencode({"q": email}))
    return re.search(r'href="(/dashboard/profiles/[^"/?]+)"', found).group(1)


def main():
    url, creds_path, email, password, profiles = sys.argv[1:6]
    repeat = int(sys.argv[6]) if len(sys.argv) > 6 else 20
    profiles = int(profiles)
    creds = json.load(open(creds_path))
    dashboard, api = Dashboard(url, email, password), Api(url, creds)
    busy = with_events(api, dashboard, profiles // 2 + 1, 200)
    middle = profiles // 2
    q = lambda text: "/dashboard/profiles?" + urllib.parse.urlencode({"q": text})
    print("| Case | p50 ms | p95 ms |\n|---|---|---|")
    timed("dashboard list, first page", lambda: dashboard.page("/dashboard/profiles"), repeat)
    timed("dashboard search, full name", lambda: dashboard.page(q("Katherine Zhang")), repeat)
    timed("dashboard search, last name", lambda: dashboard.page(q("lovelace")), repeat)
    timed("dashboard search, e-mail", lambda: dashboard.page(q(f"load-{middle}@example.com")),
          repeat)
    timed("dashboard search, part of an e-mail", lambda: dashboard.page(q(f"-{middle}@")),
          repeat)
    timed("dashboard search, mobile", lambda: dashboard.page(q(mobile(middle))), repeat)
    timed("dashboard search, no match", lambda: dashboard.page(q("nobody-here")), repeat)
    timed("dashboard profile page, 200 events", lambda: dashboard.page(busy), repeat)
    timed("profile/read, offset 0", lambda: api.call("profile/read", {"offset": 0, "limit": 50}),
          repeat)
    last = max(0, profiles - 50)
    timed(f"profile/read, offset {last}",
          lambda: api.call("profile/read", {"offset": last, "limit": 50}), repeat)


if __name__ == "__main__":
    main()
