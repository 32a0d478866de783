#!/usr/bin/env python3
"""Load script: signed profile/create and profile/get against a running idv server.

Usage: scripts/load.py BASE_URL CREDENTIALS_JSON [--clients 32] [--requests 4000]

CREDENTIALS_JSON is what `idv merchant create --json` printed. Each client thread keeps
one HTTP connection and sends requests back to back; the script prints throughput and
latency percentiles per operation. It only ever talks to BASE_URL (use 127.0.0.1).
"""
import argparse
import hashlib
import hmac
import http.client
import json
import statistics
import threading
import time
import urllib.parse


def sign(secret, path, body):
    t = str(int(time.time()))
    mac = hmac.new(secret.encode(), f"{t}.{path}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def worker(base, creds, op, bodies, latencies, errors):
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    path = f"/api/v1/{op}"
    for body in bodies:
        raw = json.dumps(body).encode()
        headers = {"Api-Key": creds["api_key"], "Signature": sign(creds["api_secret"], path, raw),
                   "Content-Type": "application/json"}
        start = time.perf_counter()
        conn.request("POST", path, raw, headers)
        response = conn.getresponse()
        response.read()
        latencies.append(time.perf_counter() - start)
        if response.status >= 300:
            errors.append(response.status)
    conn.close()


def run(base, creds, op, bodies_per_client):
    latencies, errors, threads = [], [], []
    start = time.perf_counter()
    for bodies in bodies_per_client:
        t = threading.Thread(target=worker, args=(base, creds, op, bodies, latencies, errors))
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"{op:16} {len(latencies):6} requests  {len(latencies) / elapsed:8.0f} req/s  "
          f"p50 {pick(0.50):6.1f} ms  p95 {pick(0.95):6.1f} ms  p99 {pick(0.99):6.1f} ms  "
          f"max {latencies[-1] * 1000:6.1f} ms  errors {len(errors)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base_url")
    parser.add_argument("credentials")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=4000)
    args = parser.parse_args()
    creds = json.load(open(args.credentials))
    per_client = args.requests // args.clients
    # Use a fresh data directory per run: mobile numbers repeat between runs.
    run_id = int(time.time()) % 1000
    people = [[(c, i) for i in range(per_client)] for c in range(args.clients)]
    def profile(c, i):
        n = c * per_client + i
        return {"email_address": f"load{run_id}-{n}@example.com", "mobile_number": f"416{5000000 + n:07d}",
                "first_name": "Load", "last_name": f"Test{n}"}
    creates = [[profile(c, i) for c, i in client] for client in people]
    run(args.base_url, creds, "profile/create", creates)
    gets = [[{"email_address": b["email_address"], "mobile_number": b["mobile_number"]} for b in client] for client in creates]
    run(args.base_url, creds, "profile/get", gets)


if __name__ == "__main__":
    main()
