"""Arrays, rooms, noise fields and the two room simulators of the evaluation scenes.

Both simulators answer the same question: the multichannel impulse response from a source to the mics,
and the sample at which its direct sound reaches the array's centre (the truth's time reference).
- pyroomacoustics: image sources in a shoebox with the wall absorption pyroomacoustics' inverse Sabine
  formula gives for the RT60, to half the reflection order it asks for (complete to about -30 dB).
- isochron: the project's own `isochron-simulate-array` (image sources with exact fractional delays, at
  most 4 reflections) for the direct sound and early reflections, plus a statistical late tail added here:
  spherically isotropic noise (the diffuse field's coherence between the mics) decaying at the RT60, from
  the time the first 5th-order reflection would arrive, at the level Sabine's diffuse-field theory gives.
Directions: azimuth counter-clockwise from +x, elevation above the x-y plane, in the array's frame (which
is the room's: a rotated array is a geometry whose mics are rotated).
"""
import json
import os
import subprocess
import tempfile

import numpy as np
import soundfile

from conditions import ARRAYS
from signals import RATE_HZ

SPEED_OF_SOUND = 343.0   # m/s, the value both simulators use
WALL_MARGIN_M = 0.25     # sources and arrays keep this far from every wall


def array_mics(name, rotation_deg):
    """Mic positions (M x 3, metres) of a named array rotated about z; mic k counter-clockwise from mic 0."""
    count, radius = ARRAYS[name]
    angles = np.radians(rotation_deg + 360.0 * np.arange(count) / count)
    return np.stack([radius * np.cos(angles), radius * np.sin(angles), np.zeros(count)], axis=1)


def direction(azimuth_deg, elevation_deg):
    a, e = np.radians(azimuth_deg), np.radians(elevation_deg)
    return np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])


def distance_to_walls(room_size, origin, unit):
    """How far from `origin` along `unit` a point stays WALL_MARGIN_M inside the room (inf: free field)."""
    if room_size is None:
        return np.inf
    reach = np.inf
    for axis in range(3):
        if unit[axis] > 1e-9:
            reach = min(reach, (room_size[axis] - WALL_MARGIN_M - origin[axis]) / unit[axis])
        elif unit[axis] < -1e-9:
            reach = min(reach, (WALL_MARGIN_M - origin[axis]) / unit[axis])
    return reach


def random_room(rng):
    """A plausible shoebox (4-10 x 3.5-8 x 2.5-4 m) and an array position 0.5 m from the walls, 0.7-1.8 m high."""
    length = rng.uniform(4.0, 10.0)
    size = np.array([length, rng.uniform(3.5, min(length, 8.0)), rng.uniform(2.5, 4.0)])
    position = np.array([rng.uniform(0.5, size[0] - 0.5), rng.uniform(0.5, size[1] - 0.5),
                         rng.uniform(0.7, min(1.8, size[2] - 0.5))])
    return size, position


def white_noise(rng, mic_count, length):
    """Independent unit-variance Gaussian noise per mic."""
    return rng.standard_normal((mic_count, length))


def diffuse_noise(rng, mics, length, tilt_db_per_octave=0.0):
    """Spherically isotropic noise (unit variance per mic): independent noises mixed per frequency so that
    the coherence between mics i and j is sinc(2 f d_ij / c) (Habets & Gannot's method), with a spectral
    tilt in dB per octave relative to 1 kHz (0 = white, -3 = pink)."""
    size = int(2 ** np.ceil(np.log2(max(length, 64))))
    spectra = np.fft.rfft(rng.standard_normal((len(mics), size)), axis=1)
    frequencies = np.fft.rfftfreq(size, 1.0 / RATE_HZ)
    distances = np.linalg.norm(mics[:, None, :] - mics[None, :, :], axis=2)
    # The coherence changes over kHz, so a 4097-point grid of mixing matrices is exact to well within a bin
    # of the 8 kHz-wide structure; bins take the matrix of their grid point.
    grid = np.linspace(0.0, RATE_HZ / 2, 4097)
    cell = np.minimum(np.round(frequencies / grid[1]).astype(int), len(grid) - 1)
    boundaries = np.searchsorted(cell, np.arange(len(grid) + 1))
    for g, frequency in enumerate(grid):
        low, high = boundaries[g], boundaries[g + 1]
        if low == high:
            continue
        coherence = np.sinc(2.0 * frequency * distances / SPEED_OF_SOUND)
        values, vectors = np.linalg.eigh(coherence)
        mixing = vectors * np.sqrt(np.clip(values, 0.0, None))
        spectra[:, low:high] = mixing @ spectra[:, low:high]
    if tilt_db_per_octave:
        gain = 10 ** (tilt_db_per_octave / 20 * np.log2(np.maximum(frequencies, 50.0) / 1000.0))
        spectra *= gain
    noise = np.fft.irfft(spectra, n=size, axis=1)[:, :length]
    return noise / np.sqrt(np.mean(noise ** 2))


def eyring_absorption(rt60_s, size):
    """Energy absorption per reflection that gives `rt60_s` in a shoebox by Eyring's formula."""
    volume = np.prod(size)
    surface = 2 * (size[0] * size[1] + size[0] * size[2] + size[1] * size[2])
    return float(1.0 - np.exp(-0.161 * volume / (surface * rt60_s)))


class PyroomacousticsSimulator:
    """Image-source responses from pyroomacoustics (one ShoeBox per scene, every source in it)."""

    name = "pyroomacoustics"

    def __init__(self, room_size, array_position, mics, rt60_s):
        import pyroomacoustics as pra
        self._pra = pra
        self.room_size, self.array_position, self.mics, self.rt60_s = room_size, array_position, mics, rt60_s
        if rt60_s > 0:
            absorption, order = pra.inverse_sabine(rt60_s, room_size)
            self.absorption, self.order = float(absorption), int(np.ceil(order / 2))
        else:
            self.absorption, self.order = 1.0, 0
        self._delay = pra.constants.get("frac_delay_length") // 2

    def describe(self):
        return {"simulator": self.name, "absorption": round(self.absorption, 4), "max_order": self.order,
                "version": self._pra.__version__}

    def responses(self, sources):
        """[(M x L response, sample of the direct sound at the array centre)] for (azimuth, elevation,
        distance) triples."""
        pra = self._pra
        if self.rt60_s > 0:
            room = pra.ShoeBox(self.room_size, fs=RATE_HZ, materials=pra.Material(self.absorption),
                               max_order=self.order)
            origin = self.array_position
        else:
            origin = np.zeros(3)
            room = pra.AnechoicRoom(dim=3, fs=RATE_HZ)
        for azimuth, elevation, distance in sources:
            room.add_source(origin + distance * direction(azimuth, elevation))
        room.add_microphone_array((origin + self.mics).T)
        room.compute_rir()
        result = []
        for s, (_, _, distance) in enumerate(sources):
            length = max(len(room.rir[m][s]) for m in range(len(self.mics)))
            response = np.zeros((len(self.mics), length))
            for m in range(len(self.mics)):
                response[m, :len(room.rir[m][s])] = room.rir[m][s]
            result.append((response, distance / SPEED_OF_SOUND * RATE_HZ + self._delay))
        return result


class IsochronSimulator:
    """Responses from the project's isochron-simulate-array plus a statistical late tail (see module doc).

    The tool draws each source's direction from its seed; `probe` asks it which direction a seed gives
    (free field, a few samples), so the scene picks seeds whose directions fit the room and the layout."""

    name = "isochron"
    ORDER = 4   # the tool's maximum reflection order
    LEAD = 256  # samples kept before the direct sound reaches the array centre

    def __init__(self, binary, room_size, array_position, mics, rt60_s, rng):
        self.binary, self.room_size, self.array_position, self.mics, self.rt60_s = (
            binary, room_size, array_position, mics, rt60_s)
        self.rng = rng
        self.absorption = eyring_absorption(rt60_s, room_size) if rt60_s > 0 else 1.0
        self._folder = tempfile.TemporaryDirectory(prefix="loc-eval-isochron-")
        self._geometry = os.path.join(self._folder.name, "geometry.json")
        with open(self._geometry, "w") as file:
            json.dump({"mics": mics.tolist()}, file)

    def describe(self):
        return {"simulator": self.name, "absorption": round(self.absorption, 4), "max_order": self.ORDER,
                "late_tail": "diffuse, Sabine level" if self.rt60_s > 0 else None}

    def _run(self, seed, elevation_max, distance, duration, room):
        out = os.path.join(self._folder.name, "response.wav")
        truth = os.path.join(self._folder.name, "truth.json")
        command = [self.binary, "--geometry", self._geometry, "--out", out, "--truth", truth,
                   "--rate", str(RATE_HZ), "--duration", repr(duration), "--events", "1",
                   "--signal", "click", "--event-duration", repr(1.0 / RATE_HZ), "--low-hz", "0",
                   "--high-hz", str(RATE_HZ // 2), "--snr-db", "300", "--distance", repr(distance),
                   "--elevation-max", repr(elevation_max), "--seed", str(seed)]
        if room:
            command += ["--room", ",".join(repr(float(v)) for v in self.room_size),
                        "--room-array", ",".join(repr(float(v)) for v in self.array_position),
                        "--absorption", repr(self.absorption), "--order", str(self.ORDER)]
        completed = subprocess.run(command, capture_output=True, text=True)
        if completed.returncode != 0:
            raise RuntimeError(f"{self.binary} failed: {completed.stderr.strip()}")
        with open(truth) as file:
            event = json.load(file)["events"][0]
        return out, event

    def probe(self, seed, elevation_max):
        """(azimuth, elevation) the tool draws for `seed`."""
        _, event = self._run(seed, elevation_max, 1.0, 0.002, room=False)
        return event["azimuth_deg"], event["elevation_deg"]

    def responses(self, sources):
        """Like PyroomacousticsSimulator.responses, for (seed, elevation_max, distance) triples; the
        directions are the ones `probe` reported."""
        result = []
        for seed, elevation_max, distance in sources:
            duration = 1.0
            path, event = self._run(seed, elevation_max, distance, duration, room=self.rt60_s > 0)
            channels, _ = soundfile.read(path, dtype="float64", always_2d=True)
            onset = int(0.5 * duration * RATE_HZ)
            early = channels[onset - self.LEAD:].T
            # The tool adds white noise 300 dB down; cut the response where it ends.
            audible = np.nonzero(np.max(np.abs(early), axis=0) > 1e-9 * np.max(np.abs(early)))[0]
            early = early[:, :audible[-1] + 1]
            if self.rt60_s > 0:
                source = self.array_position + distance * direction(event["azimuth_deg"], event["elevation_deg"])
                early = self._with_late_tail(early, source, distance)
            result.append((early, float(self.LEAD)))
        return result

    def _first_unmodelled_delay(self, source, distance):
        """Seconds after the direct sound when a reflection of order ORDER + 1 first reaches the array
        centre (the image-source construction of tests/support/acoustic_simulator.cpp, one order up)."""
        order = self.ORDER + 1
        steps = np.arange(-order, order + 1)
        n = np.stack(np.meshgrid(steps, steps, steps, indexing="ij"), axis=-1).reshape(-1, 1, 3)
        q = ((np.arange(8)[:, None] >> np.arange(3)[None, :]) & 1).reshape(1, 8, 3)
        images = (1 - 2 * q) * source + 2 * n * self.room_size
        reflections = (np.abs(n - q) + np.abs(n)).sum(axis=2)
        lengths = np.linalg.norm(images - self.array_position, axis=2)[reflections == order]
        return max(lengths.min() - distance, 0.0) / SPEED_OF_SOUND

    def _with_late_tail(self, early, source, distance):
        size = self.room_size
        surface = 2 * (size[0] * size[1] + size[0] * size[2] + size[1] * size[2])
        sabine_absorption = 0.161 * np.prod(size) / (surface * self.rt60_s)
        room_constant = surface * sabine_absorption / max(1.0 - sabine_absorption, 1e-3)
        # Reverberant over direct energy 16 pi r^2 / R; the direct path has unit gain at the array centre.
        reverberant_energy = 16 * np.pi * distance ** 2 / room_constant
        decay = 13.8 / self.rt60_s          # energy decay rate, 1/s (60 dB per RT60)
        start = self._first_unmodelled_delay(source, distance)
        length = int((start + 0.8 * self.rt60_s) * RATE_HZ)
        t = np.arange(length) / RATE_HZ
        level = np.sqrt(reverberant_energy * decay / RATE_HZ) * np.exp(-0.5 * decay * t)
        ramp = np.clip((t - start) / 0.005, 0.0, 1.0)
        tail = diffuse_noise(self.rng, self.mics, length) * level * ramp
        response = np.zeros((early.shape[0], max(early.shape[1], self.LEAD + length)))
        response[:, :early.shape[1]] += early
        response[:, self.LEAD:self.LEAD + length] += tail
        return response
