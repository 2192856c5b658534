#!/usr/bin/env python3
"""The reference localizer of the evaluation: an energy detector and pyroomacoustics' DOA per event.

It speaks isochron-run's command-line contract so that evaluate.py runs and scores it like a graph:
  reference.py [--method music|srp] --set source.path=REC.wav --set array.geometry=ARRAY.json \\
               --set events.path=OUT.jsonl [--report REPORT.json] [--quiet]
or, to save the interpreter's start per scene, runs a whole split for evaluate.py --events-from:
  reference.py [--method music|srp] --batch SCENES_DIR EVENTS_DIR [--quick]

Detection: the mean power over all mics in 20 ms frames (10 ms hop), against a running noise floor (the
minimum of the last 1.5 s of frame powers, each smoothed over 3 frames); a frame above the floor by
`--threshold-db` is active; active runs closer than 150 ms merge; runs shorter than 40 ms are dropped.
Direction: pyroomacoustics.doa MUSIC or SRP-PHAT over the event's STFT frames (512-point FFT, 300-3500 Hz,
one source, 1 degree azimuth grid, the array's x-y plane). One JSON line per event, like the graphs.
"""
import argparse
import json
import os
import sys
import time

try:
    import numpy as np
    import pyroomacoustics as pra
    import soundfile
    from scipy import signal as sps
except ImportError as error:
    sys.exit(f"reference.py: {error}: install scripts/localization_eval/requirements.txt into a venv")

FRAME_S, HOP_S = 0.020, 0.010
FLOOR_WINDOW_S = 1.5
MERGE_GAP_S, MIN_EVENT_S, MAX_EVENT_S = 0.150, 0.040, 3.0
NFFT = 512
BAND_HZ = (300.0, 3500.0)
METHODS = {"music": "MUSIC", "srp": "SRP"}


def detect(audio, rate, threshold_db):
    """[(start s, end s)] of the frames whose power stands threshold_db above the running floor."""
    frame, hop = int(FRAME_S * rate), int(HOP_S * rate)
    count = 1 + (audio.shape[0] - frame) // hop
    squares = np.cumsum(np.concatenate([[0.0], np.mean(audio ** 2, axis=1)]))
    power = (squares[np.arange(count) * hop + frame] - squares[np.arange(count) * hop]) / frame
    smoothed = np.convolve(power, np.ones(3) / 3, mode="same")
    window = int(FLOOR_WINDOW_S / HOP_S)
    floor = np.array([smoothed[max(0, i - window):i + 1].min() for i in range(count)])
    active = 10 * np.log10(power + 1e-30) > 10 * np.log10(floor + 1e-30) + threshold_db
    events, start = [], None
    for i, on in enumerate(np.append(active, False)):
        if on and start is None:
            start = i
        elif not on and start is not None:
            events.append([start * HOP_S, (i - 1) * HOP_S + FRAME_S])
            start = None
    merged = []
    for event in events:
        if merged and event[0] - merged[-1][1] < MERGE_GAP_S:
            merged[-1][1] = event[1]
        else:
            merged.append(event)
    result = []
    for begin, end in merged:
        if end - begin < MIN_EVENT_S:
            continue
        result.append((begin, min(end, begin + MAX_EVENT_S)))
    return result


def locate(audio, rate, mics, begin, end, method):
    """(azimuth degrees, confidence) of one event by pyroomacoustics' DOA."""
    segment = audio[int(begin * rate):int(end * rate)].T
    if segment.shape[1] < NFFT:
        segment = np.pad(segment, ((0, 0), (0, NFFT - segment.shape[1])))
    _, _, spectra = sps.stft(segment, nperseg=NFFT, noverlap=NFFT // 2, window="hann", boundary=None)
    doa = pra.doa.algorithms[METHODS[method]](mics[:, :2].T, rate, NFFT, c=343.0, num_src=1,
                                              azimuth=np.radians(np.arange(360.0)))
    doa.locate_sources(spectra, freq_range=list(BAND_HZ))
    grid = np.asarray(doa.grid.values, dtype=float)
    confidence = float((grid.max() - grid.mean()) / (grid.max() + 1e-30)) if grid.size else 0.0
    return float(np.degrees(doa.azimuth_recon[0]) % 360.0), confidence


def localize_file(audio_path, geometry_path, events_path, method, threshold_db):
    """Detect and localize every event of one recording into a JSON-lines file."""
    audio, rate = soundfile.read(audio_path, dtype="float64", always_2d=True)
    with open(geometry_path) as file:
        mics = np.array(json.load(file)["mics"], dtype=float)
    if mics.shape != (audio.shape[1], 3):
        raise ValueError(f"{geometry_path} has {len(mics)} mics, {audio_path} {audio.shape[1]} channels")
    with open(events_path, "w") as out:
        for begin, end in detect(audio, rate, threshold_db):
            azimuth, confidence = locate(audio, rate, mics, begin, end, method)
            out.write(json.dumps({"t_start": round(begin, 4), "t_end": round(end, 4), "azimuth_deg": azimuth,
                                  "elevation_deg": 0.0, "confidence": confidence}) + "\n")


def run_batch(scenes_dir, out_dir, method, threshold_db, quick):
    """Every scene of a generate.py folder in this one process (saving the interpreter's start per
    scene): <scene>.events.jsonl and <scene>.report.json (wall_s, cpu_s) for evaluate.py --events-from."""
    with open(os.path.join(scenes_dir, "manifest.json")) as file:
        manifest = json.load(file)
    os.makedirs(out_dir, exist_ok=True)
    for entry in manifest["scenes"]:
        if quick and not entry["quick"]:
            continue
        name = entry["scene"]
        wall, cpu = time.monotonic(), time.process_time()
        localize_file(os.path.join(scenes_dir, name, "audio.wav"), os.path.join(scenes_dir, name, "geometry.json"),
                      os.path.join(out_dir, f"{name}.events.jsonl"), method, threshold_db)
        with open(os.path.join(out_dir, f"{name}.report.json"), "w") as file:
            json.dump({"wall_s": time.monotonic() - wall, "cpu_s": time.process_time() - cpu}, file)
        print(name, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--method", choices=list(METHODS), default="music")
    parser.add_argument("--threshold-db", type=float, default=5.0, help="frame power over the floor, dB")
    parser.add_argument("--set", action="append", default=[], help="source.path=, array.geometry=, events.path=")
    parser.add_argument("--report", help="a JSON file with the run's wall time (wall_s)")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--batch", nargs=2, metavar=("SCENES", "OUT"),
                        help="every scene of a generate.py folder, events into OUT (for evaluate.py --events-from)")
    parser.add_argument("--quick", action="store_true", help="with --batch: only the quick set")
    args = parser.parse_args()
    if args.batch:
        run_batch(args.batch[0], args.batch[1], args.method, args.threshold_db, args.quick)
        return
    settings = dict(item.split("=", 1) for item in args.set)
    missing = {"source.path", "array.geometry", "events.path"} - set(settings)
    if missing:
        sys.exit(f"reference.py: missing --set {', '.join(sorted(missing))}")
    started = time.monotonic()
    try:
        localize_file(settings["source.path"], settings["array.geometry"], settings["events.path"], args.method,
                      args.threshold_db)
    except ValueError as error:
        sys.exit(f"reference.py: {error}")
    if args.report:
        with open(args.report, "w") as file:
            json.dump({"wall_s": time.monotonic() - started}, file)


if __name__ == "__main__":
    main()
