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
import sys
import time

from benchkit import Server, p95

STEPS = {"driver_licence_upload": 1, "passport_upload": 1, "selfie_upload": 1}
UPLOADS = [("driver_licence_upload", "front", "licence_front.jpg"),
           ("driver_licence_upload", "back", "licence_back.png"),
           ("passport_upload", None, "passport.png"),
           ("selfie_upload", None, "selfie.jpg")]


def documents(docs):
    """The four uploads of a quiz, read from `docs` (fixtures' write_documents)."""
    return [(step, side, name, open(f"{docs}/{name}", "rb").read())
            for step, side, name in UPLOADS]


def ready_quiz(server, n, files):
    """A quiz with its four documents uploaded, not yet submitted: its URL and token."""
    url, token = server.api.quiz(n, STEPS)
    for step, side, name, content in files:
        server.api.upload(token, step, side, name, content)
    return url, token


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/idv"
    quizzes = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    files = documents(sys.argv[3] if len(sys.argv) > 3 else "/tmp/docs")
    times = []
    with Server(binary).start() as server:
        for n in range(quizzes):
            url, token = ready_quiz(server, n, files)
            server.api.submit(token)
            started = time.monotonic()
            while (status := server.api.verification_status(url)) == "pending":
                time.sleep(0.05)
            times.append(time.monotonic() - started)
            print(f"quiz {n}: {times[-1]:.2f} s, {status}", flush=True)
    times.sort()
    print(f"{len(times)} quizzes: median {times[len(times) // 2]:.2f} s, "
          f"p95 {p95(times):.2f} s, max {times[-1]:.2f} s")


if __name__ == "__main__":
    main()
