"""What the measuring scripts of this folder share (docs/BENCHMARKS.md): an `idv serve` of
their own on 127.0.0.1, with a throw-away data directory and one merchant, and its memory
as the kernel counts it; signed API calls, and the client's link, uploads and submission.
Only ever point them at your own server (127.0.0.1).
"""
import hashlib
import hmac
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
import uuid


class Server:
    """`idv serve` on a fresh data directory (SQLite and local files), with one merchant.

    `env` adds variables. Rate limits are off: the scripts measure the work, not the
    budgets.
    """

    def __init__(self, binary, env=None):
        self.binary = binary
        self.data = tempfile.mkdtemp()
        self.env = dict(os.environ, IDV_DATA_DIR=self.data, IDV_MASTER_KEY="ab" * 32,
                        IDV_LOG="warn", IDV_CLIENT_RATE_LIMIT="0", IDV_API_RATE_LIMIT="0",
                        **(env or {}))
        self.credentials = json.loads(self.idv("merchant", "create", "--name", "Bench",
                                               "--json"))
        self.merchant = self.credentials["merchant_id"]
        self.key = self.credentials["api_key"]
        self.secret = self.credentials["api_secret"]
        self.process = None
        self.base = None
        self.api = None

    def idv(self, *args, stdin=None):
        """Runs an `idv` command on this data directory; what it printed."""
        return subprocess.run([self.binary, *args], env=self.env, input=stdin,
                              capture_output=True, text=True, check=True).stdout

    def start(self, cpus=None, wrapper=()):
        """Starts serving, pinned to `cpus` (`taskset -c`) when given, through `wrapper`
        (a program that runs the command after it, as `prlimit ... --` does)."""
        pin = ["taskset", "-c", cpus] if cpus else []
        self.process = subprocess.Popen([*pin, *wrapper, self.binary, "serve", "--bind",
                                         "127.0.0.1:0"],
                                        env=self.env, stdout=subprocess.PIPE, text=True)
        self.base = self.process.stdout.readline().strip().removeprefix("listening on ")
        self.api = Api(self.base, self.credentials)
        return self

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)

    def status_kib(self, field):
        """A `/proc/<pid>/status` figure of the server (`VmRSS`, `VmHWM`, `RssAnon`...)."""
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        return 0


class Api:
    """The merchant's signed API and the client's pages of the server at `base`."""

    def __init__(self, base, credentials):
        self.base = base
        self.key = credentials["api_key"]
        self.secret = credentials["api_secret"]

    def call(self, op, body):
        """A signed merchant API call (scheme v1); the answer's JSON."""
        path, data = f"/api/v1/{op}", json.dumps(body).encode()
        t = str(int(time.time()))
        sig = hmac.new(self.secret.encode(), f"{t}.{path}.".encode() + data,
                       hashlib.sha256).hexdigest()
        req = urllib.request.Request(self.base + path, data=data, headers={
            "Api-Key": self.key, "Signature": f"t={t},v1={sig}",
            "Content-Type": "application/json"})
        with urllib.request.urlopen(req) as answer:
            return json.loads(answer.read())

    def quiz(self, n, steps):
        """A new quiz of the `steps` for a client numbered `n`: its long URL and token."""
        quiz = self.call("quiz/create", {
            "email_address": f"c{n}@example.com", "mobile_number": f"416555{n:04d}",
            "first_name": "Alexandra", "last_name": "Sample", "driver_licence_id": "D1234567",
            "template": {"list": steps}})
        url = quiz["long_url"]
        return url, url.rsplit("/", 1)[1]

    def post(self, path, body, content_type):
        req = urllib.request.Request(self.base + path, data=body, headers={
            "Content-Type": content_type, "Accept": "application/json"})
        with urllib.request.urlopen(req) as answer:
            return json.loads(answer.read())

    def upload(self, token, step, side, name, content):
        """The client's upload of one file to the quiz's `step` (and `side`)."""
        boundary = uuid.uuid4().hex
        parts = [("step", step)] + ([("side", side)] if side else [])
        body = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n"
                        f"\r\n{v}\r\n".encode() for k, v in parts)
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                 f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                 ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
        return self.post(f"/quiz/{token}/documents", body,
                         f"multipart/form-data; boundary={boundary}")

    def submit(self, token):
        return self.post(f"/quiz/{token}/submit", b"{}", "application/json")

    def verification_status(self, url):
        return self.call("verification/get", {"url": url})["verification"]["status"]


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * len(ordered))) - 1)]
