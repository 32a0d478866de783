#!/usr/bin/env python3
"""Screening's speed (contract §19, docs/BENCHMARKS.md "Screening"), on a server of its own
on 127.0.0.1 (SQLite, or PostgreSQL with IDV_DATABASE_URL):

1. an import of a big list in each format (`idv screening import`), timed;
2. PROFILES profiles (`idv seed`) screened by the re-screening loop once screening is
   turned on: the time until every one has a screening;
3. `screening/get` of screened profiles, each call timed (the API's round trip, the
   screening itself made again only when a list changed);
4. the same after an import that changes the list: every profile owes a screening again.

    python3 -m venv /tmp/faker-venv && /tmp/faker-venv/bin/pip install faker
    /tmp/faker-venv/bin/python scripts/make_lists.py /tmp/lists --seed 7
    python3 scripts/screening_speed.py target/release/idv /tmp/lists [--profiles 100000]

The lists come from `scripts/make_lists.py` (20 000 entries with 60 000 aliases by default).
"""
import argparse
import os
import sqlite3
import subprocess
import time

from benchkit import Server, p95


def timed(step, work):
    began = time.monotonic()
    out = work()
    took = time.monotonic() - began
    print(f"{step}: {took:.1f} s")
    return out, took


def until_all(server, profiles, since):
    """Seconds from `since` until every profile was screened after it."""
    while True:
        if screened_after(server, since) >= profiles:
            return time.monotonic() - since[1]
        time.sleep(1)


def screened_after(server, since):
    """How many profiles were screened at or after `since` (read from the database)."""
    at = since[0]
    url = os.environ.get("IDV_DATABASE_URL")
    query = f"SELECT count(*) FROM screenings WHERE screened_at >= {at}"
    if url:
        out = subprocess.run(["psql", url, "-tAc", query], capture_output=True, text=True,
                             check=True).stdout
        return int(out.strip())
    with sqlite3.connect(os.path.join(server.data, "idv.sqlite3")) as db:
        return db.execute(query).fetchone()[0]


def mobile(i):
    """The mobile number `idv seed` gives client `i` (adapter-db's `seeded_mobile`)."""
    return f"2{i // 10_000_000 % 100:02}{2 + i // 1_000_000 % 8}{i % 1_000_000:06}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("lists", help="a folder written by scripts/make_lists.py")
    parser.add_argument("--profiles", type=int, default=100_000)
    args = parser.parse_args()
    files = lambda *names: [os.path.join(args.lists, n) for n in names]

    with Server(args.binary) as server:
        for fmt, names in [("ofac-csv", ("sdn.csv", "alt.csv", "add.csv")),
                           ("un-xml", ("un.xml",)), ("eu-xml", ("eu.xml",)),
                           ("csv", ("list.csv",))]:
            timed(f"import {fmt}", lambda: server.idv(
                "screening", "import", "--list", fmt, "--kind", "sanctions",
                "--format", fmt, *files(*names)))
        timed(f"seed {args.profiles} profiles", lambda: server.idv(
            "seed", "--merchant", server.merchant, "--profiles", str(args.profiles)))
        server.start()
        api = server.api
        # Only the OFAC list: one list of 20 000 entries, as the contract's figure says.
        since = (int(time.time()), time.monotonic())
        api.call("merchant/settings/update",
                 {"screening": 1, "screening_lists": ["ofac-csv"]})
        took = until_all(server, args.profiles, since)
        print(f"first screening of {args.profiles} profiles: {took:.0f} s "
              f"({args.profiles / took:.0f} a second)")

        times = []
        for n in range(1000):
            body = {"email_address": f"load-{n}@example.com", "mobile_number": mobile(n)}
            began = time.monotonic()
            api.call("screening/get", body)
            times.append(time.monotonic() - began)
        print(f"screening/get: p50 {sorted(times)[len(times) // 2] * 1000:.1f} ms, "
              f"p95 {p95(times) * 1000:.1f} ms")

        # A new version of the list: every profile owes a screening again.
        changed = os.path.join(args.lists, "list-changed.csv")
        with open(files("list.csv")[0]) as original, open(changed, "w") as out:
            out.write(original.read() + "X-1,Added Person,,1970,US\n")
        since = (int(time.time()), time.monotonic())
        timed("import a changed csv as ofac-csv's replacement", lambda: server.idv(
            "screening", "import", "--list", "ofac-csv", "--kind", "sanctions",
            "--format", "csv", changed))
        took = until_all(server, args.profiles, since)
        print(f"re-screening after an import: {took:.0f} s "
              f"({args.profiles / took:.0f} a second)")


if __name__ == "__main__":
    main()
