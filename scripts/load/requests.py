#!/usr/bin/env python3
"""Pre-signed requests for wrk (scripts/load.sh): one `path<TAB>signature<TAB>body` line each,
signed with scheme v1 now (valid 300 s), so the load tool spends nothing on signing.

usage: requests.py KIND COUNT SECRET [PREFIX]
  KIND create: new profiles PREFIX-0..COUNT-1
  KIND get:    gets of profiles PREFIX-0..COUNT-1 (made by `create` or by `idv seed`)
Clients are named as `idv seed` names them: e-mail `{PREFIX}-{i}@example.com` and a mobile
number derived from i, so a get list can target a seeded database.
"""
import hashlib
import hmac
import json
import random
import sys
import time


def mobile(i):
    # The same numbering as `idv seed`: unique for every i, NANP-valid.
    return f"2{i // 10_000_000 % 100:02}{2 + i // 1_000_000 % 8}{i % 1_000_000:06}"


def main():
    kind, count, secret = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
    prefix = sys.argv[4] if len(sys.argv) > 4 else "load"
    path = {"create": "/api/v1/profile/create", "get": "/api/v1/profile/get"}[kind]
    order = list(range(count))
    random.Random(prefix).shuffle(order)
    t = int(time.time())
    out = sys.stdout
    for i in order:
        body = {"email_address": f"{prefix}-{i}@example.com", "mobile_number": mobile(i)}
        if kind == "create":
            body.update(first_name="Ada", last_name="Lovelace")
        raw = json.dumps(body, separators=(",", ":")).encode()
        mac = hmac.new(secret, f"{t}.{path}.".encode() + raw, hashlib.sha256).hexdigest()
        out.write(f"{path}\tt={t},v1={mac}\t{raw.decode()}\n")


if __name__ == "__main__":
    main()
