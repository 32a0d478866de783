#!/usr/bin/env python3
"""How long a sleeping process on core 0 takes to run once woken from core 1: a child
pinned to core 0 blocks on a pipe; the parent, pinned to core 1, writes its clock into
it every 200 µs; the child records the delay (docs/BENCHMARKS.md, "20 quizzes").
Run it alone, then beside idle-class work on core 0, to see whether that work slows the
wakeups of the API's threads:

    python3 scripts/wake_latency.py [wakeups]
    taskset -c 0 chrt --idle 0 sh -c 'while :; do :; done' &
    python3 scripts/wake_latency.py [wakeups]; kill %1
"""
import os
import sys
import time


def main():
    wakeups = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    from_parent, to_child = os.pipe()
    from_child, to_parent = os.pipe()
    if os.fork() == 0:
        os.sched_setaffinity(0, {0})
        delays = []
        for _ in range(wakeups):
            sent = int(os.read(from_parent, 32))
            delays.append(time.perf_counter_ns() - sent)
            os.write(to_parent, b"k")
        delays.sort()

        def at(q):
            return delays[int(q * len(delays))] / 1000

        print(f"wake latency µs: p50 {at(.5):.1f} p90 {at(.9):.1f} "
              f"p99 {at(.99):.1f} p99.9 {at(.999):.1f}")
        os._exit(0)
    os.sched_setaffinity(0, {1})
    for _ in range(wakeups):
        time.sleep(0.0002)
        os.write(to_child, str(time.perf_counter_ns()).encode().ljust(32))
        os.read(from_child, 1)
    os.wait()


if __name__ == "__main__":
    main()
