#!/usr/bin/python3
"""scipy.signal beside isochron-bench's filter benchmarks: prints the samples per CPU second of one operation.

Run with Debian's Python (python3-scipy). Called by `isochron-bench fir` and `isochron-bench biquad` (app/bench/filter_benchmarks.cpp) so that both
sides are measured in one run on the same machine; usable alone:
  bench_scipy_filters.py lfilter TAPS SECONDS       FIR lowpass of TAPS taps by scipy.signal.lfilter (float32)
  bench_scipy_filters.py oaconvolve TAPS SECONDS    the same by scipy.signal.oaconvolve (FFT overlap-add, float32)
  bench_scipy_filters.py sosfilt SECTIONS SECONDS   Butterworth lowpass of 2 x SECTIONS poles by scipy.signal.sosfilt
                                                    (the faster of float32 and float64)
  bench_scipy_filters.py sosfilt8 SECTIONS SECONDS  the same on 8 channels at once (an 8 x N array, axis -1)
"""
import sys
import time

import numpy as np
import scipy.signal

RATE = 48000.0
LENGTH = 1 << 20


def samples_per_second(operation, seconds):
    """Run `operation` (on LENGTH samples) repeatedly for at least `seconds` of CPU time."""
    operation()  # warm up
    runs = 0
    start = time.process_time()
    while True:
        operation()
        runs += 1
        used = time.process_time() - start
        if used >= seconds:
            return runs * LENGTH / used


def main():
    kind, size, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    x = np.random.default_rng(1).standard_normal(LENGTH).astype(np.float32)
    if kind in ("lfilter", "oaconvolve"):
        h = scipy.signal.firwin(size, 4000.0, fs=RATE).astype(np.float32)
        if kind == "lfilter":
            one = np.ones(1, dtype=np.float32)
            rate = samples_per_second(lambda: scipy.signal.lfilter(h, one, x), seconds)
        else:
            rate = samples_per_second(lambda: scipy.signal.oaconvolve(x, h, mode="full"), seconds)
    elif kind == "sosfilt":
        sos = scipy.signal.butter(2 * size, 4000.0, output="sos", fs=RATE)
        rate = max(samples_per_second(lambda: scipy.signal.sosfilt(sos.astype(dtype), x.astype(dtype)), seconds / 2)
                   for dtype in (np.float32, np.float64))
    elif kind == "sosfilt8":
        sos = scipy.signal.butter(2 * size, 4000.0, output="sos", fs=RATE)
        channels = x.reshape(8, LENGTH // 8)
        rate = max(samples_per_second(lambda: scipy.signal.sosfilt(sos.astype(dtype), channels.astype(dtype), axis=-1), seconds / 2)
                   for dtype in (np.float32, np.float64))
    else:
        raise SystemExit("unknown operation " + kind)
    print(f"{rate:.6g}")


if __name__ == "__main__":
    main()
