"""Dry source signals for the evaluation scenes: the five sound types and the two steady interferers.

Every function takes a numpy Generator and returns (samples at RATE_HZ, description dict). Speech comes
from espeak-ng (Debian package), synthesised on the fly with varied voices, pitch and speed and cached.
"""
import hashlib
import os
import subprocess
import tempfile

import numpy as np
import soundfile
from scipy import signal as sps

RATE_HZ = 48000
FADE_S = 0.005

WORDS = ("window garden yellow morning answer people number water seven river paper silver open "
         "market doctor thunder basket monkey orange pocket travel candle wonder button kitchen "
         "pencil hello money sister listen forest rabbit summer winter quiet purple dinner picture "
         "mountain letter camera island engine coffee jacket ladder mirror planet rocket shadow "
         "tiger valley wagon yes no stop go left right up down now here there what why when "
         "beautiful elephant tomorrow yesterday computer telephone "
         "wonderful important").split()
SENTENCES = [
    "The meeting has been moved to the large room on the second floor, so please bring your notes.",
    "I think the weather will change this afternoon, and we should finish the work outside before then.",
    "Could you tell me where the nearest station is, and how long it takes to walk there from here?",
    "Last summer we drove along the coast for three weeks and stopped in every small town we found.",
    "The results look promising, but we need more measurements before anyone can draw a conclusion.",
    "She opened the window, listened to the rain for a while, and then went back to her book.",
    "If the machine stops again, switch it off at the wall and call the service number on the label.",
    "Numbers one, two, three, four and five were drawn first, then the rest followed in order.",
]
VOICES = ["en", "en-us", "en-gb-scotland", "en-gb-x-rp", "de", "fr", "es", "it", "nl", "pl"]
VARIANTS = ["m1", "m2", "m3", "m4", "m5", "m7", "f1", "f2", "f3", "f4", "f5", "klatt", "klatt2"]


def fade(samples, seconds=FADE_S):
    """Raised-cosine fades at both ends (in place, returned)."""
    n = min(int(seconds * RATE_HZ), len(samples) // 2)
    if n > 0:
        ramp = 0.5 - 0.5 * np.cos(np.pi * (np.arange(n) + 0.5) / n)
        samples[:n] *= ramp
        samples[len(samples) - n:] *= ramp[::-1]
    return samples


def bandpass(samples, low_hz, high_hz, order=4):
    nyquist = RATE_HZ / 2
    high_hz = min(high_hz, 0.95 * nyquist)
    sos = sps.butter(order, [low_hz / nyquist, high_hz / nyquist], btype="bandpass", output="sos")
    return sps.sosfiltfilt(sos, samples)


def click_train(rng, duration_s):
    """1 ms clicks (Hann-windowed broadband noise) every 40-120 ms; at least 3 clicks."""
    click_n = int(0.001 * RATE_HZ)
    interval = rng.uniform(0.040, min(0.120, (duration_s - 0.001) / 2))
    high = rng.uniform(6000, 20000)
    count = int((duration_s - 0.001) / interval) + 1
    # Each click within +/- 3 % of an interval of its regular time, the first at 0.
    starts = [0] + [int(round((k + rng.uniform(-0.03, 0.03)) * interval * RATE_HZ)) for k in range(1, count)]
    out = np.zeros(max(starts) + click_n)
    window = np.hanning(click_n + 2)[1:-1]
    for start in starts:
        out[start:start + click_n] += rng.standard_normal(click_n) * window
    out = bandpass(out, 300.0, high)
    return out, {"interval_ms": round(interval * 1000, 1), "clicks": count, "high_hz": round(high)}


def chirp(rng, duration_s):
    """A linear or logarithmic sweep, low (150-3000 Hz) or high (1500-16000 Hz), up or down."""
    method = rng.choice(["linear", "logarithmic"])
    band = rng.choice(["low", "high"])
    if band == "low":
        f_a, f_b = rng.uniform(150, 400), rng.uniform(1000, 3000)
    else:
        f_a, f_b = rng.uniform(1500, 4000), rng.uniform(6000, 16000)
    if rng.random() < 0.5:
        f_a, f_b = f_b, f_a
    t = np.arange(int(duration_s * RATE_HZ)) / RATE_HZ
    out = sps.chirp(t, f0=f_a, t1=duration_s, f1=f_b, method=method)
    return fade(out), {"subtype": f"{method} {band}", "from_hz": round(f_a), "to_hz": round(f_b)}


def bird(rng, duration_s):
    """A song of FM syllables (20-120 ms, carrier 2-8 kHz, sinusoidal FM or sweeps, a weaker harmonic)."""
    out = np.zeros(int(duration_s * RATE_HZ))
    position, syllables = 0, 0
    while True:
        length = int(rng.uniform(0.020, 0.120) * RATE_HZ)
        if position + length > len(out):
            break
        t = np.arange(length) / RATE_HZ
        carrier = rng.uniform(2000, 8000)
        if rng.random() < 0.5:
            frequency = carrier + rng.uniform(200, 1500) * np.sin(2 * np.pi * rng.uniform(20, 80) * t)
        else:
            frequency = carrier + rng.uniform(-3000, 3000) * t / t[-1]
        frequency = np.clip(frequency, 800, 11000)
        phase = 2 * np.pi * np.cumsum(frequency) / RATE_HZ
        syllable = np.sin(phase) + 10 ** (-rng.uniform(10, 20) / 20) * np.sin(2 * phase)
        syllable *= np.hanning(length) ** 0.5
        out[position:position + length] += syllable
        syllables += 1
        position += length + int(rng.uniform(0.010, 0.060) * RATE_HZ)
    if syllables == 0:  # a very short song: one syllable filling it
        t = np.arange(len(out)) / RATE_HZ
        out = np.sin(2 * np.pi * (rng.uniform(2000, 8000) * t)) * np.hanning(len(out)) ** 0.5
        syllables = 1
    last = np.nonzero(np.abs(out) > 1e-6)[0][-1] + 1
    return fade(out[:last]), {"syllables": syllables}


def noise_burst(rng, duration_s):
    """Gaussian noise band-limited to 1-4 octaves from a low edge of 100-4000 Hz."""
    low = float(np.exp(rng.uniform(np.log(100), np.log(4000))))
    high = min(low * 2 ** rng.uniform(1, 4), 20000.0)
    out = bandpass(rng.standard_normal(int(duration_s * RATE_HZ)), low, high)
    return fade(out), {"low_hz": round(low), "high_hz": round(high)}


def espeak(text, voice, pitch, speed, cache_dir):
    """espeak-ng's rendering of `text` at RATE_HZ (cached by its arguments)."""
    key = hashlib.sha1(f"{text}|{voice}|{pitch}|{speed}".encode()).hexdigest()[:16]
    path = os.path.join(cache_dir, f"{key}.npy")
    if os.path.exists(path):
        return np.load(path)
    os.makedirs(cache_dir, exist_ok=True)
    with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
        subprocess.run(["espeak-ng", "-v", voice, "-p", str(pitch), "-s", str(speed), "-w", wav.name, text],
                       check=True, capture_output=True)
        samples, rate = soundfile.read(wav.name, dtype="float64")
    samples = sps.resample_poly(samples, RATE_HZ, rate)
    np.save(path, samples)
    return samples


def trim_silence(samples, threshold_db=-40.0):
    envelope = np.abs(samples)
    active = np.nonzero(envelope > envelope.max() * 10 ** (threshold_db / 20))[0]
    return samples[active[0]:active[-1] + 1] if len(active) else samples


def random_voice(rng):
    return f"{rng.choice(VOICES)}+{rng.choice(VARIANTS)}", int(rng.integers(20, 81)), int(rng.integers(130, 221))


def speech_word(rng, duration_s, cache_dir):
    """One spoken word (espeak-ng) of 0.1-1 s. A `duration_s` of at most 0.3 s asks for a short word; one
    of at most 0.2 s (a short weak sound) for that length exactly: the word's start, cut and faded."""
    for _ in range(20):
        word = str(rng.choice(WORDS))
        voice, pitch, speed = random_voice(rng)
        samples = trim_silence(espeak(word, voice, pitch, speed, cache_dir))
        length = len(samples) / RATE_HZ
        if 0.1 <= length <= 1.0 and (duration_s > 0.3 or length <= 0.3):
            break
    limit = duration_s if duration_s <= 0.2 else 1.0
    samples = samples[: int(min(length, limit) * RATE_HZ)].copy()
    return fade(samples), {"word": word, "voice": voice, "pitch": pitch, "speed": speed}


def make_sound(kind, rng, duration_s, cache_dir):
    if kind == "click_train":
        return click_train(rng, duration_s)
    if kind == "chirp":
        return chirp(rng, duration_s)
    if kind == "bird":
        return bird(rng, duration_s)
    if kind == "speech":
        return speech_word(rng, duration_s, cache_dir)
    if kind == "noise_burst":
        return noise_burst(rng, duration_s)
    raise ValueError(f"unknown sound type '{kind}'")


def fan(rng, length):
    """A fan: low-pass broadband noise plus a harmonic hum (blade rate 40-120 Hz, 4-8 harmonics), both
    slowly modulated (0.05-0.5 Hz, +/- 1-3 dB)."""
    t = np.arange(length) / RATE_HZ
    cutoff = rng.uniform(800, 4000)
    sos = sps.butter(2, cutoff / (RATE_HZ / 2), output="sos")
    broadband = sps.sosfilt(sos, rng.standard_normal(length)) + 0.05 * rng.standard_normal(length)
    broadband /= np.sqrt(np.mean(broadband ** 2))
    fundamental = rng.uniform(40, 120)
    hum = np.zeros(length)
    for harmonic in range(1, int(rng.integers(4, 9)) + 1):
        drift = 1 + 0.002 * np.sin(2 * np.pi * rng.uniform(0.02, 0.1) * t + rng.uniform(0, 2 * np.pi))
        hum += np.sin(2 * np.pi * fundamental * harmonic * np.cumsum(drift) / RATE_HZ + rng.uniform(0, 2 * np.pi)) / harmonic
    hum /= np.sqrt(np.mean(hum ** 2))
    hum_db = rng.uniform(-10, 0)
    depth_db = rng.uniform(1, 3)
    modulation = 10 ** (depth_db / 20 * np.sin(2 * np.pi * rng.uniform(0.05, 0.5) * t + rng.uniform(0, 2 * np.pi)))
    out = (broadband + 10 ** (hum_db / 20) * hum) * modulation
    return out, {"blade_hz": round(fundamental, 1), "lowpass_hz": round(cutoff), "hum_db": round(hum_db, 1),
                 "modulation_db": round(depth_db, 1)}


def talker(rng, length, cache_dir):
    """A talker who never stops: sentences of one voice, 0.2-0.6 s apart, repeated to the scene's length."""
    voice, pitch, speed = random_voice(rng)
    pieces, total = [], 0
    order = rng.permutation(len(SENTENCES))
    index = 0
    while total < length:
        sentence = trim_silence(espeak(SENTENCES[order[index % len(order)]], voice, pitch, speed, cache_dir))
        pause = np.zeros(int(rng.uniform(0.2, 0.6) * RATE_HZ))
        pieces += [sentence, pause]
        total += len(sentence) + len(pause)
        index += 1
    return np.concatenate(pieces)[:length], {"voice": voice, "pitch": pitch, "speed": speed}
