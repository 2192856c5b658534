#!/usr/bin/python3
"""Throughput of the channels/, math/ and level/ operators beside numpy/scipy doing the same work, in one run.

Runs `isochron-bench operator-families` (each operator alone under df, the input replayed from memory in
4096-sample blocks) and then the same operation in numpy/scipy on the same samples in 4096-sample blocks
(what a user streaming the file through numpy would write), and prints a Markdown table of samples per
CPU second per channel. Where numpy has no vectorised equivalent of a recursive detector with separate
attack and release, the closest library call (scipy.signal.lfilter's one-pole with one time constant)
is timed and marked so.

    scripts/bench_operator_families.py build/release/bin/isochron-bench ../shared/data/counting-44k1.wav [--seconds 2] [--json out.jsonl]
"""
import argparse
import json
import subprocess
import time

import numpy as np
import scipy.io.wavfile
import scipy.signal

BLOCK = 4096


def load_first_channel(path):
    rate, data = scipy.io.wavfile.read(path)
    if data.ndim > 1:
        data = data[:, 0]
    if data.dtype == np.int16:
        data = data.astype(np.float32) / 32768.0
    return rate, data.astype(np.float32)


def one_pole(seconds, rate):
    a = 1.0 - np.exp(-1.0 / (seconds * rate))
    return np.array([a], dtype=np.float32), np.array([1.0, a - 1.0], dtype=np.float32)


def numpy_cases(rate):
    """label -> (how, function(block, state) -> result); state is a dict the function may keep between blocks."""
    ms_b, ms_a = one_pole(0.3, rate)
    env_b, env_a = one_pole(0.05, rate)
    agc_b, agc_a = one_pole(0.02, rate)
    mix = np.array([[0.5, 0.5, 0, 0], [0, 0, 0.5, 0.5]], dtype=np.float32)

    def lfilter_carry(b, a, x, state, key):
        y, state[key] = scipy.signal.lfilter(b, a, x, zi=state.get(key, np.zeros(1, dtype=np.float32)))
        return y

    def rms_meter(x, state):
        m = lfilter_carry(ms_b, ms_a, x * x, state, "m")
        return 10 * np.log10(np.maximum(m[1023::1024], 1e-12))

    def agc(x, state):
        m = lfilter_carry(agc_b, agc_a, x * x, state, "m")
        return x * np.minimum(0.1 / np.sqrt(np.maximum(m, 1e-30)), 31.6)

    def merge(x, state):
        out = np.empty(2 * len(x), dtype=np.float32)
        out[0::2] = x
        out[1::2] = x
        return out

    return {
        "gain -6 dB": ("x * g", lambda x, s: x * np.float32(0.501187)),
        "mix 4 -> 2": ("W @ vstack([x]*4)", lambda x, s: mix @ np.vstack([x, x, x, x])),
        "merge 2 (interleave)": ("out[0::2] = x; out[1::2] = x", merge),
        "add": ("x + x", lambda x, s: x + x),
        "multiply": ("x * x", lambda x, s: x * x),
        "scale": ("0.5 * x + 0.1", lambda x, s: np.float32(0.5) * x + np.float32(0.1)),
        "decibels": ("20 log10(max(|x|, 1e-6))", lambda x, s: 20 * np.log10(np.maximum(np.abs(x), np.float32(1e-6)))),
        "expression a*0.5 + b": ("x * 0.5 + x", lambda x, s: x * np.float32(0.5) + x),
        "expression sqrt(a^2 + b^2)": ("sqrt(x**2 + x**2)", lambda x, s: np.sqrt(x ** 2 + x ** 2)),
        "rms meter": ("lfilter one-pole on x^2, log10 per 1024", rms_meter),
        "envelope follower": ("closest: lfilter one-pole on |x| (one time constant, no attack/release)",
                              lambda x, s: lfilter_carry(env_b, env_a, np.abs(x), s, "e")),
        "agc": ("closest: lfilter mean square, gain without ballistics", agc),
    }


def time_numpy(function, signal, seconds):
    blocks = [signal[i:i + BLOCK] for i in range(0, len(signal) - BLOCK + 1, BLOCK)]
    state = {}
    samples = 0
    start = time.process_time()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for block in blocks:
            function(block, state)
        samples += BLOCK * len(blocks)
    return samples / (time.process_time() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench")
    parser.add_argument("input")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", help="also write every point as a JSON line here")
    args = parser.parse_args()

    run = subprocess.run([args.bench, "operator-families", "--json", "--input", args.input, "--seconds", str(args.seconds)],
                         check=True, capture_output=True, text=True)
    points = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    rate, signal = load_first_channel(args.input)
    cases = numpy_cases(rate)
    print("| operator | case | Isochron samples/s | numpy/scipy: what | numpy/scipy samples/s | Isochron / numpy |")
    print("| --- | --- | --- | --- | --- | --- |")
    for point in points:
        how, function = cases.get(point["case"], ("no vectorised equivalent", None))
        reference = time_numpy(function, signal, args.seconds) if function else None
        point["numpy"] = how
        point["numpy_samples_per_s"] = reference
        ours = point["samples_per_s"]
        ratio = f"{ours / reference:.2f}x" if reference else "-"
        numbers = f"{reference / 1e6:.1f} M" if reference else "-"
        print(f"| {point['operator']} | {point['case']} | {ours / 1e6:.1f} M | {how} | {numbers} | {ratio} |")
    if args.json:
        with open(args.json, "w") as out:
            for point in points:
                out.write(json.dumps(point) + "\n")


if __name__ == "__main__":
    main()
