#!/usr/bin/env python3
"""Generate localization evaluation scenes (issue 12, point 7): simulated rooms, arrays, sounds, noise.

Usage:
  generate.py --split {dev,test,holdout} --out DIR [--scenes N] [--seed S]
              [--simulator pyroomacoustics|isochron] [--jobs J] [--simulate-binary PATH]

Writes DIR/<scene>/{audio.wav, geometry.json, truth.json} and DIR/manifest.json. Scenes already in DIR
from the same generator version are kept (generation is cached). Every scene is a pure function of
(split, seed, index): a split's first N scenes are the same whatever N is, and the splits never share a
seed, a room or an array draw. `holdout` is for final, for-the-record runs only: never tune on it.
Needs the packages of requirements.txt and Debian's espeak-ng; see docs/design/localization-evaluation.md.
"""
import argparse
import json
import multiprocessing
import os
import shutil
import sys
import time

try:
    import numpy as np
    import pyroomacoustics
    import soundfile
    from scipy import signal as sps
except ImportError as error:
    sys.exit(f"generate.py: {error}: install scripts/localization_eval/requirements.txt into a venv "
             "(see docs/design/localization-evaluation.md)")

import acoustics
import signals
from conditions import SCENE_FACTORS, SOUND_TYPES
from scoring import wrapped_error

GENERATOR_VERSION = 1
SPLIT_KEYS = {"dev": 12001, "test": 12002, "holdout": 12003}
DEFAULT_SCENES = {"dev": 80, "test": 120, "holdout": 120}
QUICK_SCENES = 40           # the first 40 scenes of a split cover every condition value several times
NOISE_DBFS = -50.0          # background noise power per mic before the final peak normalisation
NOISE_POWER = 10 ** (NOISE_DBFS / 10)
PEAK = 0.5                  # the mixture is scaled so that its largest sample is this
SOUND_ELEVATION_MAX = 30.0
SOUND_DISTANCE_M = (1.0, 4.0)
INTERFERER_PLACEMENT = {"fan": (45.0, (1.5, 5.0)), "talker": (20.0, (3.0, 6.0))}
INR_DB = (-5.0, 5.0)        # interferer power at the mics over the background noise power
PAIR_SEPARATION_DEG = (60.0, 180.0)
WEAK_BELOW_DB = (3.0, 6.0)


def design(split, seed, count):
    """Scene-level conditions of scenes 0..count-1: each factor cycles through its values in randomly
    permuted blocks (so every prefix is balanced), independently per factor."""
    scenes = [dict() for _ in range(count)]
    for f, (factor, values) in enumerate(SCENE_FACTORS.items()):
        for block in range((count + len(values) - 1) // len(values)):
            order = np.random.default_rng([SPLIT_KEYS[split], seed, 7, f, block]).permutation(len(values))
            for k, v in enumerate(order):
                index = block * len(values) + k
                if index < count:
                    scenes[index][factor] = values[v]
    return scenes


class Placer:
    """Draws source directions and distances that fit the room, for either simulator. The isochron tool
    draws directions from seeds, so for it a candidate is a seed and its probed direction."""

    def __init__(self, simulator, rng, room_size, array_position):
        self.simulator, self.rng, self.room_size = simulator, rng, room_size
        self.origin = array_position if room_size is not None else np.zeros(3)

    def place(self, elevation_max, distances, partner_azimuth=None):
        """(simulator source spec, (azimuth, elevation, distance)) or None if nothing fits in 300 tries."""
        for _ in range(300):
            if isinstance(self.simulator, acoustics.IsochronSimulator):
                seed = int(self.rng.integers(1, 2 ** 53))
                azimuth, elevation = self.simulator.probe(seed, elevation_max)
            else:
                if partner_azimuth is None:
                    azimuth = self.rng.uniform(0.0, 360.0)
                else:
                    azimuth = (partner_azimuth + self.rng.choice([-1, 1]) * self.rng.uniform(*PAIR_SEPARATION_DEG)) % 360
                elevation = self.rng.uniform(0.0, elevation_max)
            if partner_azimuth is not None and not (
                    PAIR_SEPARATION_DEG[0] <= wrapped_error(azimuth, partner_azimuth) <= PAIR_SEPARATION_DEG[1]):
                continue
            reach = acoustics.distance_to_walls(self.room_size, self.origin, acoustics.direction(azimuth, elevation))
            high = min(distances[1], reach)
            if high < distances[0]:
                continue
            distance = self.rng.uniform(distances[0], high)
            spec = (seed, elevation_max, distance) if isinstance(self.simulator, acoustics.IsochronSimulator) \
                else (azimuth, elevation, distance)
            return spec, (azimuth, elevation, distance)
        return None


def plan_sounds(rng, conditions):
    """The scene's sounds in time order: slots of one sound or an overlapping pair."""
    count = int(rng.integers(8, 16))
    pairs = 2 if conditions["overlaps"] else 0
    weak = int(rng.integers(2, 4)) if conditions["short_weak"] else 0
    slots = count - pairs
    offset = int(rng.integers(len(SOUND_TYPES)))
    types = [SOUND_TYPES[(offset + k) % len(SOUND_TYPES)] for k in range(count)]
    rng.shuffle(types)
    kinds = ["pair"] * pairs + ["weak"] * weak + ["normal"] * (slots - pairs - weak)
    rng.shuffle(kinds)
    plan, next_type = [], iter(types)
    for kind in kinds:
        members = 2 if kind == "pair" else 1
        plan.append([{"type": next(next_type), "short_weak": kind == "weak", "overlap": kind == "pair",
                      "duration_hint": rng.uniform(0.1, 0.2) if kind == "weak" else rng.uniform(0.1, 1.0)}
                     for _ in range(members)])
    return plan


def place_all(placer, plan, interferer):
    """Placements of every sound (the second of a pair 60-180 degrees from the first) and of the
    interferer; (None, None) if the room cannot hold them."""
    placements = []
    for slot in plan:
        partner = None
        for _ in slot:
            placed = placer.place(SOUND_ELEVATION_MAX, SOUND_DISTANCE_M, partner)
            if placed is None:
                return None, None
            placements.append(placed)
            partner = placed[1][0]
    interferer_placed = None
    if interferer != "none":
        elevation_max, distances = INTERFERER_PLACEMENT[interferer]
        interferer_placed = placer.place(elevation_max, distances)
        if interferer_placed is None:
            return None, None
    return placements, interferer_placed


def lay_out(rng, plan, rt60):
    """Start times (s) of the slots and the scene's length (samples): gaps long enough for the room to
    decay 30 dB, 1-2 s before the first sound and after the last one's reverberation, 20-40 s in all."""
    rate = signals.RATE_HZ
    target = rng.uniform(20.0, 40.0)
    lead, trail = rng.uniform(1.0, 2.0), rng.uniform(1.0, 2.0) + rt60
    minimum_gap = 0.6 + 0.5 * rt60
    spans = []
    for slot in plan:
        first = len(slot[0]["dry"]) / rate
        if len(slot) == 2:
            slot[1]["offset_s"] = rng.uniform(0.0, 0.5) * first
            spans.append(max(first, slot[1]["offset_s"] + len(slot[1]["dry"]) / rate))
        else:
            spans.append(first)
    free = max(target - lead - trail - sum(spans) - minimum_gap * (len(plan) - 1), 0.0)
    gaps = minimum_gap + free * rng.dirichlet(np.ones(max(len(plan) - 1, 1)))
    starts, clock = [], lead
    for k, span in enumerate(spans):
        starts.append(clock)
        clock += span + (gaps[k] if k < len(plan) - 1 else 0.0)
    return starts, int((clock + trail) * rate)


def add_sounds(rng, mixture, plan, starts, placements, responses, snr_db):
    """Adds every sound's image to `mixture` at its SNR (weak ones 3-6 dB lower); their truth records."""
    rate = signals.RATE_HZ
    length = mixture.shape[1]
    records, k = [], 0
    for slot, start in zip(plan, starts):
        for member, sound in enumerate(slot):
            response, arrival = responses[k]
            azimuth, elevation, distance = placements[k][1]
            begin = start + (sound.get("offset_s", 0.0) if member else 0.0)
            first_sample = int(round(begin * rate - arrival))
            image = sps.fftconvolve(sound["dry"][None, :], response, axes=1)
            t_start = (first_sample + arrival) / rate
            t_end = t_start + len(sound["dry"]) / rate
            # The SNR's signal power: the image over the sound's active span, mean over mics.
            span = slice(int(round(arrival)), int(round(arrival)) + len(sound["dry"]))
            power = float(np.mean(image[:, span] ** 2))
            snr = snr_db - (rng.uniform(*WEAK_BELOW_DB) if sound["short_weak"] else 0.0)
            gain = np.sqrt(NOISE_POWER * 10 ** (snr / 10) / power)
            end = min(first_sample + image.shape[1], length)
            mixture[:, first_sample:end] += gain * image[:, :end - first_sample]
            records.append({
                "id": k, "t_start": round(t_start, 6), "t_end": round(t_end, 6),
                "azimuth_deg": round(float(azimuth), 4), "elevation_deg": round(float(elevation), 4),
                "distance_m": round(float(distance), 4), "type": sound["type"], "details": sound["details"],
                "snr_db": round(float(snr), 2), "level_dbfs": None, "overlap": sound["overlap"],
                "short_weak": sound["short_weak"], "pair_of": (k - 1 if member else k + 1) if sound["overlap"] else None})
            k += 1
    return records


def add_interferer(rng, mixture, kind, placed, response, snr_db, cache_dir):
    """Adds a fan or talker, steady over the whole scene, at a random INR; its truth record."""
    length = mixture.shape[1]
    azimuth, elevation, distance = placed[1]
    pad = response.shape[1]  # start it before the scene so its reverberation is steady from sample 0
    if kind == "fan":
        dry, details = signals.fan(rng, length + pad)
    else:
        dry, details = signals.talker(rng, length + pad, cache_dir)
    image = sps.fftconvolve(dry[None, :], response, axes=1)[:, pad:pad + length]
    inr = float(rng.uniform(*INR_DB))
    image *= np.sqrt(NOISE_POWER * 10 ** (inr / 10) / np.mean(image ** 2))
    mixture += image
    return {"type": kind, "not_a_sound": True, "azimuth_deg": round(float(azimuth), 4),
            "elevation_deg": round(float(elevation), 4), "distance_m": round(float(distance), 4),
            "inr_db": round(inr, 2), "sir_db": round(snr_db - inr, 2), "details": details}


def build_scene(job):
    """Writes one scene (unless the folder already holds it); its manifest entry."""
    split, seed, index, conditions, out_dir, binary, cache_dir = job
    name = f"{split}-{index:04d}"
    folder = os.path.join(out_dir, name)
    truth_path = os.path.join(folder, "truth.json")
    if os.path.exists(truth_path):
        with open(truth_path) as file:
            truth = json.load(file)
        if truth.get("generator_version") == GENERATOR_VERSION and truth["conditions"] == conditions:
            return manifest_entry(truth)
    started = time.time()
    rng = np.random.default_rng([SPLIT_KEYS[split], seed, index])
    rate = signals.RATE_HZ
    rt60 = conditions["rt60_s"]
    rotation = float(rng.uniform(0.0, 360.0))
    mics = acoustics.array_mics(conditions["array"], rotation)

    plan = plan_sounds(rng, conditions)
    for slot in plan:
        for sound in slot:
            sound["dry"], sound["details"] = signals.make_sound(sound["type"], rng, sound["duration_hint"], cache_dir)

    # Place everything; a room that cannot hold the layout is drawn again.
    for _ in range(50):
        room_size, array_position = acoustics.random_room(rng) if rt60 > 0 else (None, np.zeros(3))
        if conditions["simulator"] == "isochron":
            simulator = acoustics.IsochronSimulator(binary, room_size, array_position, mics, rt60, rng)
        else:
            simulator = acoustics.PyroomacousticsSimulator(room_size, array_position, mics, rt60)
        placements, interferer_placed = place_all(Placer(simulator, rng, room_size, array_position), plan,
                                                  conditions["interferer"])
        if placements is not None:
            break
    else:
        raise RuntimeError(f"{name}: no room of 50 held the layout")

    starts, length = lay_out(rng, plan, rt60)

    specs = [p[0] for p in placements]
    if interferer_placed is not None:
        specs.append(interferer_placed[0])
    responses = simulator.responses(specs)

    tilt = 0.0
    if conditions["noise"] == "white":
        background = acoustics.white_noise(rng, len(mics), length)
    else:
        tilt = float(rng.uniform(-3.0, 0.0))
        background = acoustics.diffuse_noise(rng, mics, length, tilt)
    mixture = background * np.sqrt(NOISE_POWER)

    truth_sounds = add_sounds(rng, mixture, plan, starts, placements, responses, conditions["snr_db"])
    interferers = []
    if interferer_placed is not None:
        interferers.append(add_interferer(rng, mixture, conditions["interferer"], interferer_placed, responses[-1][0],
                                          conditions["snr_db"], cache_dir))

    scale = PEAK / np.max(np.abs(mixture))
    mixture *= scale
    for sound in truth_sounds:
        sound["level_dbfs"] = round(NOISE_DBFS + sound["snr_db"] + 20 * np.log10(scale), 2)
    rt60_measured = None
    if rt60 > 0:
        rt60_measured = round(float(pyroomacoustics.experimental.measure_rt60(
            responses[0][0][0], fs=rate, decay_db=20)), 3)

    os.makedirs(folder, exist_ok=True)
    soundfile.write(os.path.join(folder, "audio.wav"), mixture.T.astype(np.float32), rate, subtype="FLOAT")
    with open(os.path.join(folder, "geometry.json"), "w") as file:
        json.dump({"mics": [[round(float(v), 6) for v in mic] for mic in mics]}, file, indent=2)
    truth = {
        "format": "isochron-localization-scene/1", "generator_version": GENERATOR_VERSION,
        "scene": name, "split": split, "seed": seed, "index": index, "rate_hz": rate,
        "duration_s": round(length / rate, 6), "conditions": conditions,
        "array": {"name": conditions["array"], "rotation_deg": round(rotation, 3),
                  "position_m": None if room_size is None else [round(float(v), 3) for v in array_position]},
        "room": None if room_size is None else {
            "size_m": [round(float(v), 3) for v in room_size], "rt60_target_s": rt60,
            "rt60_measured_s": rt60_measured},
        "simulator": simulator.describe(),
        "noise": {"type": conditions["noise"], "tilt_db_per_octave": round(tilt, 2),
                  "dbfs": round(NOISE_DBFS + 20 * np.log10(scale), 2)},
        "sounds": truth_sounds,
        "interferers": interferers,
        "generation_s": round(time.time() - started, 2),
    }
    with open(truth_path + ".part", "w") as file:
        json.dump(truth, file, indent=1)
    os.replace(truth_path + ".part", truth_path)
    return manifest_entry(truth)


def manifest_entry(truth):
    types = {}
    for sound in truth["sounds"]:
        types[sound["type"]] = types.get(sound["type"], 0) + 1
    return {"scene": truth["scene"], "index": truth["index"], "quick": truth["index"] < QUICK_SCENES,
            "conditions": truth["conditions"], "duration_s": truth["duration_s"],
            "sounds": len(truth["sounds"]), "sound_types": types}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", required=True, choices=list(SPLIT_KEYS))
    parser.add_argument("--out", required=True, help="folder of the split's scenes")
    parser.add_argument("--scenes", type=int, help="number of scenes (dev 80, test 120, holdout 120)")
    parser.add_argument("--seed", type=int, default=0, help="varies every draw within the split (default 0)")
    parser.add_argument("--simulator", choices=["pyroomacoustics", "isochron"],
                        help="every scene from this simulator (default: a third from isochron)")
    parser.add_argument("--jobs", type=int, default=1)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--simulate-binary",
                        default=os.path.join(here, "..", "..", "build", "release", "bin", "isochron-simulate-array"))
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/isochron-localization-eval"),
                        help="espeak-ng renderings are kept here")
    args = parser.parse_args()
    count = DEFAULT_SCENES[args.split] if args.scenes is None else args.scenes
    if count < 1:
        parser.error("--scenes must be at least 1")
    scenes = design(args.split, args.seed, count)
    if args.simulator:
        for conditions in scenes:
            conditions["simulator"] = args.simulator
    if not shutil.which("espeak-ng"):
        sys.exit("generate.py: espeak-ng is not installed (apt-get install espeak-ng): it speaks the words and talkers")
    if any(c["simulator"] == "isochron" for c in scenes) and not os.access(args.simulate_binary, os.X_OK):
        sys.exit(f"generate.py: {args.simulate_binary} is not an executable (build isochron-simulate-array, "
                 "or pass --simulate-binary)")
    os.makedirs(args.out, exist_ok=True)
    jobs = [(args.split, args.seed, i, c, args.out, os.path.abspath(args.simulate_binary), args.cache)
            for i, c in enumerate(scenes)]
    entries = []
    with multiprocessing.Pool(args.jobs) as pool:
        for entry in pool.imap(build_scene, jobs):
            entries.append(entry)
            print(f"{entry['scene']}: {entry['sounds']} sounds, {entry['duration_s']:.1f} s, "
                  f"{json.dumps(entry['conditions'])}", flush=True)
    manifest = {"format": "isochron-localization-scenes/1", "generator_version": GENERATOR_VERSION,
                "split": args.split, "seed": args.seed, "quick_scenes": QUICK_SCENES,
                "holdout_rule": "holdout scenes are for final runs only; never tune on them",
                "scenes": entries}
    with open(os.path.join(args.out, "manifest.json"), "w") as file:
        json.dump(manifest, file, indent=1)


if __name__ == "__main__":
    main()
