#!/usr/bin/python3
"""Writes tests/nodes/filters/data/filter_reference.json: reference designs for the filters family's tests.

Run from the repository root with Debian's Python (python3-scipy): /usr/bin/python3 scripts/make_filter_reference.py
FIR taps come from scipy.signal.firwin and kaiserord, IIR zeros/poles/gain and second-order sections from
scipy.signal.butter and cheby1 (with sosfreqz responses); the cookbook equalizers are written here in numpy
from Robert Bristow-Johnson's Audio EQ Cookbook. None of it comes from Isochron's output.
"""
import json
import os

import numpy as np
import scipy
import scipy.signal

RATE = 48000.0
OUT = os.path.join("tests", "nodes", "filters", "data", "filter_reference.json")
RESPONSE_HZ = [0.0, 50.0, 300.0, 1000.0, 2500.0, 5000.0, 9000.0, 15000.0, 23000.0]

FIR_CASES = [
    # response, cutoff(s) Hz, taps, window (kaiser beta where used)
    ("lowpass", [3000.0], 63, "hamming", None),
    ("lowpass", [1200.0], 64, "hann", None),
    ("highpass", [5000.0], 101, "blackman", None),
    ("bandpass", [2000.0, 6000.0], 80, "kaiser", 6.5),
    ("bandstop", [1000.0, 9000.0], 127, "rectangular", None),
    ("lowpass", [8000.0], 7, "hamming", None),
]

KAISER_CASES = [
    # attenuation dB, transition Hz, response, cutoff(s)
    (60.0, 1000.0, "lowpass", [4000.0]),
    (40.0, 2500.0, "highpass", [10000.0]),
    (80.0, 500.0, "bandpass", [3000.0, 5000.0]),
]

IIR_CASES = [
    # family, response, order, cutoff(s) Hz, ripple dB
    ("butterworth", "lowpass", 4, [1000.0], None),
    ("butterworth", "lowpass", 5, [7000.0], None),
    ("butterworth", "highpass", 3, [200.0], None),
    ("butterworth", "bandpass", 4, [800.0, 3000.0], None),
    ("butterworth", "bandstop", 3, [1500.0, 2500.0], None),
    ("butterworth", "lowpass", 8, [100.0], None),
    ("chebyshev1", "lowpass", 4, [2000.0], 1.0),
    ("chebyshev1", "lowpass", 5, [2000.0], 0.5),
    ("chebyshev1", "highpass", 6, [6000.0], 2.0),
    ("chebyshev1", "bandpass", 3, [1000.0, 4000.0], 1.0),
    ("chebyshev1", "bandstop", 2, [4000.0, 8000.0], 0.1),
    # Long cascades: groups of four sections and a remainder (nodes/filters/biquad_cascade.h).
    ("butterworth", "lowpass", 12, [3000.0], None),
    ("chebyshev1", "bandpass", 5, [500.0, 2000.0], 0.5),
    ("butterworth", "bandstop", 9, [2000.0, 6000.0], None),
    ("butterworth", "lowpass", 16, [10000.0], None),
]

COOKBOOK_CASES = [
    # shape, frequency Hz, gain dB, q or slope
    ("peaking", 1000.0, 6.0, 0.7071),
    ("peaking", 250.0, -12.0, 4.0),
    ("low_shelf", 200.0, 9.0, 1.0),
    ("low_shelf", 3000.0, -6.0, 0.5),
    ("high_shelf", 8000.0, 4.5, 1.0),
    ("high_shelf", 500.0, -15.0, 0.7),
]


def window_argument(name, beta):
    if name == "rectangular":
        return "boxcar"
    if name == "kaiser":
        return ("kaiser", beta)
    return name


def fir_case(response, cutoffs, taps, window, beta):
    h = scipy.signal.firwin(taps, cutoffs, window=window_argument(window, beta), pass_zero=response, fs=RATE)
    return {"response": response, "cutoffs_hz": cutoffs, "taps": taps, "window": window, "kaiser_beta": beta or 0.0,
            "h": h.tolist()}


def kaiser_case(attenuation, transition, response, cutoffs):
    taps, beta = scipy.signal.kaiserord(attenuation, transition / (RATE / 2))
    if response in ("highpass", "bandstop") and taps % 2 == 0:
        taps += 1
    h = scipy.signal.firwin(taps, cutoffs, window=("kaiser", beta), pass_zero=response, fs=RATE)
    return {"attenuation_db": attenuation, "transition_hz": transition, "response": response, "cutoffs_hz": cutoffs,
            "taps": int(taps), "kaiser_beta": float(beta), "h": h.tolist()}


def complex_list(values):
    return [[float(np.real(v)), float(np.imag(v))] for v in values]


def iir_case(family, response, order, cutoffs, ripple):
    wn = cutoffs[0] if len(cutoffs) == 1 else cutoffs
    if family == "butterworth":
        design = lambda output: scipy.signal.butter(order, wn, btype=response, output=output, fs=RATE)
    else:
        design = lambda output: scipy.signal.cheby1(order, ripple, wn, btype=response, output=output, fs=RATE)
    z, p, k = design("zpk")
    sos = design("sos")
    _, h = scipy.signal.sosfreqz(sos, worN=RESPONSE_HZ, fs=RATE)
    return {"family": family, "response": response, "order": order, "cutoffs_hz": cutoffs, "ripple_db": ripple or 0.0,
            "zeros": complex_list(z), "poles": complex_list(p), "gain": float(k), "sos": sos.tolist(),
            "response_hz": RESPONSE_HZ, "frequency_response": complex_list(h)}


def cookbook_case(shape, frequency, gain_db, width):
    """The cookbook's formulas (b0 b1 b2 a0 a1 a2), normalized by a0."""
    a = 10.0 ** (gain_db / 40.0)
    w0 = 2.0 * np.pi * frequency / RATE
    cos_w0, sin_w0 = np.cos(w0), np.sin(w0)
    if shape == "peaking":
        alpha = sin_w0 / (2.0 * width)
        b = [1 + alpha * a, -2 * cos_w0, 1 - alpha * a]
        den = [1 + alpha / a, -2 * cos_w0, 1 - alpha / a]
    else:
        alpha = sin_w0 / 2.0 * np.sqrt((a + 1.0 / a) * (1.0 / width - 1.0) + 2.0)
        root = 2.0 * np.sqrt(a) * alpha
        if shape == "low_shelf":
            b = [a * ((a + 1) - (a - 1) * cos_w0 + root), 2 * a * ((a - 1) - (a + 1) * cos_w0), a * ((a + 1) - (a - 1) * cos_w0 - root)]
            den = [(a + 1) + (a - 1) * cos_w0 + root, -2 * ((a - 1) + (a + 1) * cos_w0), (a + 1) + (a - 1) * cos_w0 - root]
        else:
            b = [a * ((a + 1) + (a - 1) * cos_w0 + root), -2 * a * ((a - 1) + (a + 1) * cos_w0), a * ((a + 1) + (a - 1) * cos_w0 - root)]
            den = [(a + 1) - (a - 1) * cos_w0 + root, 2 * ((a - 1) - (a + 1) * cos_w0), (a + 1) - (a - 1) * cos_w0 - root]
    b = np.array(b) / den[0]
    den = np.array(den) / den[0]
    return {"shape": shape, "frequency_hz": frequency, "gain_db": gain_db, "width": width, "b": b.tolist(), "a": den.tolist()}


def main():
    reference = {
        "generator": "scripts/make_filter_reference.py, scipy " + scipy.__version__,
        "rate": RATE,
        "fir": [fir_case(*case) for case in FIR_CASES],
        "kaiser": [kaiser_case(*case) for case in KAISER_CASES],
        "iir": [iir_case(*case) for case in IIR_CASES],
        "cookbook": [cookbook_case(*case) for case in COOKBOOK_CASES],
    }
    with open(OUT, "w") as out:
        json.dump(reference, out, indent=1)
        out.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
