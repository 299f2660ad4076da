"""The limit of bench/python-bots.bench.ts: the Python package's own coordinator, as its
examples/run_env.py runs a decision (discover the bots' cards, then run_consensus over the
agenda), deciding again and again. Arguments: the bots' URLs. Its first line is the agenda (JSON);
then each line on stdin is a round length in milliseconds, and the answer one line:
"decisions elapsed_ms status transcript_hash" (at least one decision a round).
Needs the package on PYTHONPATH (PARLEY_PYTHON_PACKAGE); nothing of it is kept here.
"""
import json
import sys
import time

from parley.consensus import run_consensus
from parley.net.client import discover
from parley.net.profiles import OPTIONS


def decide(urls):
    return run_consensus(discover(urls), OPTIONS)


def main():
    urls = sys.argv[1:]
    print(json.dumps(OPTIONS), flush=True)
    for line in sys.stdin:
        budget = float(line) / 1000
        start = time.perf_counter()
        count, last = 0, None
        while True:
            last = decide(urls)
            count += 1
            if time.perf_counter() - start >= budget:
                break
        elapsed = (time.perf_counter() - start) * 1000
        print(f"{count} {elapsed:.3f} {last.status} {last.transcript.hash()}", flush=True)


if __name__ == "__main__":
    main()
