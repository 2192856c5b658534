#!/usr/bin/python3
"""Writes spectral_reference.json: reference values for the short-time spectral operators' tests.

Run from this folder with Debian's Python (python3-scipy): /usr/bin/python3 make_spectral_reference.py
The values come from scipy.signal (stft, istft, spectrogram) and from numpy code written here from the
published definitions (librosa's mel filterbank, Dixon's spectral flux), never from Isochron's output.
"""
import json

import numpy as np
import scipy.signal

RATE = 8000.0
LENGTH = 800


def test_signal():
    """Two tones, a chirp and a click: the input every reference is computed from (float32, as the tests feed it)."""
    n = np.arange(LENGTH)
    t = n / RATE
    x = 0.5 * np.sin(2 * np.pi * 440.0 * t) + 0.25 * np.sin(2 * np.pi * 2500.0 * t + 0.3)
    x += 0.2 * scipy.signal.chirp(t, f0=200.0, t1=t[-1], f1=3500.0)
    x[400] += 1.0
    return x.astype(np.float32)


def hz_to_mel(hz, htk):
    hz = np.asarray(hz, dtype=np.float64)
    if htk:
        return 2595.0 * np.log10(1.0 + hz / 700.0)
    linear = hz / (200.0 / 3.0)
    logarithmic = 15.0 + np.log(np.maximum(hz, 1e-12) / 1000.0) / (np.log(6.4) / 27.0)
    return np.where(hz >= 1000.0, logarithmic, linear)


def mel_to_hz(mel, htk):
    mel = np.asarray(mel, dtype=np.float64)
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    linear = mel * (200.0 / 3.0)
    logarithmic = 1000.0 * np.exp(np.log(6.4) / 27.0 * (mel - 15.0))
    return np.where(mel >= 15.0, logarithmic, linear)


def mel_filterbank(rate, n_fft, n_mels, fmin, fmax, htk, normalize):
    """librosa.filters.mel's construction, restated from its documentation and paper sources."""
    fft_freqs = np.arange(n_fft // 2 + 1) * rate / n_fft
    points = mel_to_hz(np.linspace(hz_to_mel(fmin, htk), hz_to_mel(fmax, htk), n_mels + 2), htk)
    weights = np.zeros((n_mels, fft_freqs.size))
    for i in range(n_mels):
        rising = (fft_freqs - points[i]) / (points[i + 1] - points[i])
        falling = (points[i + 2] - fft_freqs) / (points[i + 2] - points[i + 1])
        weights[i] = np.maximum(0.0, np.minimum(rising, falling))
        if normalize:
            weights[i] *= 2.0 / (points[i + 2] - points[i])
    return weights


def rounded(array):
    return [float(f"{v:.9g}") for v in np.ravel(array)]


def main():
    x = test_signal()
    reference = {"rate": RATE, "signal": rounded(x)}

    # STFT, hop = N/2: scipy's zero boundary of N/2 samples is spectral.stft's edge padding of N - hop.
    size, hop = 64, 32
    window = scipy.signal.get_window("hann", size)
    _, _, zxx = scipy.signal.stft(x.astype(np.float64), fs=RATE, window=window, nperseg=size, noverlap=size - hop,
                                  boundary="zeros", padded=True, detrend=False, return_onesided=True)
    frames = (zxx * window.sum()).T  # [frame][bin], unnormalized like FFTW
    reference["stft"] = {"size": size, "hop": hop, "window": "hann", "first_start": -(size - hop),
                         "real": rounded(frames.real), "imag": rounded(frames.imag), "frames": frames.shape[0]}

    # ISTFT of modified spectra: bins above 1 kHz removed.
    cut = frames.copy()
    cut[:, int(1000.0 * size / RATE) + 1:] = 0.0
    _, rebuilt = scipy.signal.istft((cut / window.sum()).T, fs=RATE, window=window, nperseg=size, noverlap=size - hop,
                                    boundary=True, input_onesided=True)
    reference["istft_lowpass"] = {"cut_bin": int(1000.0 * size / RATE) + 1, "signal": rounded(rebuilt[:LENGTH])}

    # Spectrogram frames (no detrending, no padding), both scalings.
    spectrogram = {}
    for scaling in ("density", "spectrum"):
        _, _, sxx = scipy.signal.spectrogram(x.astype(np.float64), fs=RATE, window="hann", nperseg=128, noverlap=96,
                                             detrend=False, scaling=scaling, mode="psd")
        spectrogram[scaling] = rounded(sxx.T)
        spectrogram["frames"] = sxx.shape[1]
    spectrogram.update({"size": 128, "hop": 32})
    reference["spectrogram"] = spectrogram

    # Mel bands and flux of the |X|^2 spectra of the STFT above.
    power = np.abs(frames) ** 2
    mel = {}
    for name, htk, normalize, n_mels, fmin, fmax in (("slaney", False, True, 12, 0.0, RATE / 2),
                                                      ("htk", True, False, 8, 100.0, 3000.0)):
        weights = mel_filterbank(RATE, size, n_mels, fmin, fmax, htk, normalize)
        mel[name] = {"bands": n_mels, "low_hz": fmin, "high_hz": fmax, "normalize": normalize,
                     "values": rounded(power @ weights.T)}
    reference["mel"] = mel

    magnitude = np.abs(frames)
    change = np.diff(magnitude, axis=0)
    rectified = np.maximum(change, 0.0)
    reference["flux"] = {"l1_rectified": [0.0] + rounded(rectified.sum(axis=1)),
                         "l2_rectified": [0.0] + rounded(np.sqrt((rectified ** 2).sum(axis=1))),
                         "l1": [0.0] + rounded(np.abs(change).sum(axis=1))}

    with open("spectral_reference.json", "w") as out:
        json.dump(reference, out, separators=(",", ":"))
        out.write("\n")


if __name__ == "__main__":
    main()
