#!/usr/bin/env python3
"""Time from a quiz's submission to its completed verification (contract section 13: within
10 s, p95, for a licence front and back, a passport page and a selfie), measured from
outside against the real binary (docs/BENCHMARKS.md).

    IDV_TEST_FACES=~/.cache/idv-faces cargo run -p fixtures --example write_documents -- /tmp/docs
    python3 scripts/verification_time.py [path/to/idv] [quizzes] [documents dir]

Starts `idv serve` on a fresh data directory, makes a merchant, then for each quiz: creates
it, uploads the four documents and submits; the clock runs from the submission's answer
until `verification/get` says it is no longer pending (polled every 50 ms). Quizzes are
submitted one after another, each once the previous one completed.
"""
import hashlib, hmac, json, os, subprocess, sys, tempfile, time, urllib.request, uuid

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
QUIZZES = int(sys.argv[2]) if len(sys.argv) > 2 else 10
DOCS = sys.argv[3] if len(sys.argv) > 3 else "/tmp/docs"
UPLOADS = [("driver_licence_upload", "front", "licence_front.jpg"),
           ("driver_licence_upload", "back", "licence_back.png"),
           ("passport_upload", None, "passport.png"),
           ("selfie_upload", None, "selfie.jpg")]


def call(base, key, secret, op, body):
    path, data = f"/api/v1/{op}", json.dumps(body).encode()
    t = str(int(time.time()))
    sig = hmac.new(secret.encode(), f"{t}.{path}.".encode() + data, hashlib.sha256).hexdigest()
    req = urllib.request.Request(base + path, data=data, headers={
        "Api-Key": key, "Signature": f"t={t},v1={sig}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())


def post(url, body, content_type):
    req = urllib.request.Request(url, data=body, headers={
        "Content-Type": content_type, "Accept": "application/json"})
    with urllib.request.urlopen(req) as answer:
        return json.loads(answer.read())


def upload(base, token, step, side, name):
    boundary = uuid.uuid4().hex
    parts = [("step", step)] + ([("side", side)] if side else [])
    body = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
                    .encode() for k, v in parts)
    with open(os.path.join(DOCS, name), "rb") as f:
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                 f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                 ).encode() + f.read() + f"\r\n--{boundary}--\r\n".encode()
    return post(f"{base}/quiz/{token}/documents", body, f"multipart/form-data; boundary={boundary}")


def main():
    data = tempfile.mkdtemp()
    env = dict(os.environ, IDV_DATA_DIR=data, IDV_MASTER_KEY="ab" * 32, IDV_LOG="warn",
               IDV_CLIENT_RATE_LIMIT="0", IDV_API_RATE_LIMIT="0")
    made = subprocess.run([BINARY, "merchant", "create", "--name", "Bench", "--json"], env=env,
                          capture_output=True, text=True, check=True)
    merchant = json.loads(made.stdout)
    server = subprocess.Popen([BINARY, "serve", "--bind", "127.0.0.1:0"], env=env,
                              stdout=subprocess.PIPE, text=True)
    base = server.stdout.readline().strip().removeprefix("listening on ")
    key, secret = merchant["api_key"], merchant["api_secret"]
    steps = {"driver_licence_upload": 1, "passport_upload": 1, "selfie_upload": 1}
    times = []
    try:
        for n in range(QUIZZES):
            quiz = call(base, key, secret, "quiz/create", {
                "email_address": f"c{n}@example.com", "mobile_number": f"416555{n:04d}",
                "first_name": "Alexandra", "last_name": "Sample", "driver_licence_id": "D1234567",
                "template": {"list": steps}})
            url = quiz["long_url"]
            token = url.rsplit("/", 1)[1]
            for step, side, name in UPLOADS:
                upload(base, token, step, side, name)
            post(f"{base}/quiz/{token}/submit", b"{}", "application/json")
            started = time.monotonic()
            while True:
                got = call(base, key, secret, "verification/get", {"url": url})["verification"]
                if got["status"] != "pending":
                    break
                time.sleep(0.05)
            times.append(time.monotonic() - started)
            print(f"quiz {n}: {times[-1]:.2f} s, {got['status']}", flush=True)
    finally:
        server.terminate()
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]
    print(f"{len(times)} quizzes: median {times[len(times) // 2]:.2f} s, p95 {p95:.2f} s, "
          f"max {times[-1]:.2f} s")


if __name__ == "__main__":
    main()
