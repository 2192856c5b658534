"""Scoring of a localizer's output lines against a scene's truth (issue 12, point 7). Standard library only.

- An output line matches a true sound if [t_start, t_end] overlaps [sound start - 0.1 s, sound end + 0.3 s].
- Sounds whose windows overlap (an overlapping pair) form a group; the lines matching any of them are
  assigned one to one: each sound gets at most one line, each line serves at most one sound, as many
  sounds as possible get a line, and among those assignments the total wrapped azimuth error is least.
  A lone sound therefore takes its best line (least error). A sound with a line is detected.
- A line that matches no sound is a false alarm (a steady interferer is not a sound).
- Lines that match a sound but were not assigned are neither: they count as duplicates.
"""
import itertools
import json
import math

from conditions import GROUPS, ROW_FACTORS, SCORING_WINDOW_AFTER_S, SCORING_WINDOW_BEFORE_S, WITHIN_DEG


class EventFileError(ValueError):
    """An output file that cannot be read as JSON lines of events; the message names file and line."""


def read_events(path):
    """The output lines of a run: dicts with t_start, t_end (s) and azimuth_deg (None if absent).

    Tolerant of extra fields (track_id, confidence, ...) and blank lines; strict about the rest."""
    events = []
    with open(path) as file:
        for number, text in enumerate(file, 1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as error:
                raise EventFileError(f"{path}:{number}: not JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise EventFileError(f"{path}:{number}: expected a JSON object")
            event = {}
            for field in ("t_start", "t_end"):
                value = record.get(field)
                if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                    raise EventFileError(f"{path}:{number}: field '{field}' must be a finite number")
                event[field] = float(value)
            if event["t_end"] < event["t_start"]:
                raise EventFileError(f"{path}:{number}: t_end is before t_start")
            azimuth = record.get("azimuth_deg")
            if isinstance(azimuth, (int, float)) and not isinstance(azimuth, bool) and math.isfinite(azimuth):
                event["azimuth_deg"] = float(azimuth)
            else:
                event["azimuth_deg"] = None
            events.append(event)
    return events


def wrapped_error(estimate_deg, truth_deg):
    """Smallest angle between two azimuths, degrees in [0, 180]."""
    difference = abs(estimate_deg - truth_deg) % 360.0
    return min(difference, 360.0 - difference)


def window(sound):
    return sound["t_start"] - SCORING_WINDOW_BEFORE_S, sound["t_end"] + SCORING_WINDOW_AFTER_S


def line_matches(line, sound):
    low, high = window(sound)
    return line["t_start"] <= high and line["t_end"] >= low


def overlap_groups(sounds):
    """Indices of sounds grouped by overlapping scoring windows (connected components in time)."""
    order = sorted(range(len(sounds)), key=lambda i: window(sounds[i])[0])
    groups, current, current_end = [], [], -math.inf
    for i in order:
        low, high = window(sounds[i])
        if current and low > current_end:
            groups.append(current)
            current, current_end = [], -math.inf
        current.append(i)
        current_end = max(current_end, high)
    if current:
        groups.append(current)
    return groups


def best_assignment(sounds, lines, candidates):
    """For one group: {sound index: line index}, most sounds assigned, then least total error.

    candidates[s] lists the lines matching sound s. Exhaustive: groups are pairs in practice."""
    sound_ids = list(candidates)

    def cost(s, l):
        azimuth = lines[l]["azimuth_deg"]
        return 180.0 if azimuth is None else wrapped_error(azimuth, sounds[s]["azimuth_deg"])

    best_key, best = (0, 0.0), {}
    options = [[None] + candidates[s] for s in sound_ids]
    for choice in itertools.product(*options):
        chosen = [l for l in choice if l is not None]
        if len(chosen) != len(set(chosen)):
            continue
        total = sum(cost(s, l) for s, l in zip(sound_ids, choice) if l is not None)
        key = (len(chosen), -total)
        if key > best_key:
            best_key, best = key, {s: l for s, l in zip(sound_ids, choice) if l is not None}
    return best


def score_scene(truth, lines):
    """Per-sound results and false alarms of one scene's output lines against its truth.json dict."""
    sounds = truth["sounds"]
    matches = [[l for l, line in enumerate(lines) if line_matches(line, sound)] for sound in sounds]
    assigned = {}
    for group in overlap_groups(sounds):
        candidates = {s: matches[s] for s in group}
        if len(group) > 1:
            # Keep the search small: each sound's 6 best lines by azimuth suffice for an optimal pair.
            for s in group:
                candidates[s] = sorted(candidates[s], key=lambda l: 180.0 if lines[l]["azimuth_deg"] is None
                                       else wrapped_error(lines[l]["azimuth_deg"], sounds[s]["azimuth_deg"]))[:6]
        assigned.update(best_assignment(sounds, lines, candidates))
    results = []
    for s, sound in enumerate(sounds):
        line = lines[assigned[s]] if s in assigned else None
        error = None
        if line is not None and line["azimuth_deg"] is not None:
            error = wrapped_error(line["azimuth_deg"], sound["azimuth_deg"])
        results.append({
            "id": sound["id"],
            "type": sound["type"],
            "overlap": sound["overlap"],
            "short_weak": sound["short_weak"],
            "detected": line is not None,
            "azimuth_error_deg": error,
            "onset_error_s": None if line is None else line["t_start"] - sound["t_start"],
            "lines": len(matches[s]),
        })
    matched_any = set(l for m in matches for l in m)
    false_alarms = [l for l in range(len(lines)) if l not in matched_any]
    return {"sounds": results, "false_alarms": len(false_alarms),
            "false_alarm_times": [round(lines[l]["t_start"], 3) for l in false_alarms],
            "duplicates": len(matched_any) - len(assigned)}


def percentile(values, fraction):
    """Linear-interpolation percentile (numpy's default) of a non-empty list."""
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(scenes, scene_filter, sound_filter, scene_level=True):
    """One report row from scored scenes (evaluate.py's per-scene records)."""
    sounds, minutes, false_alarms, process_s, engine_s, audio_s, engine_audio_s = [], 0.0, 0, 0.0, 0.0, 0.0, 0.0
    duplicates, scene_detections = 0, 0
    for scene in scenes:
        conditions = scene["conditions"]
        if scene_level and scene_filter(conditions):
            minutes += scene["duration_s"] / 60.0
            false_alarms += scene["false_alarms"]
            duplicates += scene["duplicates"]
            scene_detections += sum(s["detected"] for s in scene["sounds"])
            process_s += scene["cpu_s"]
            audio_s += scene["duration_s"]
            if scene.get("engine_wall_s") is not None:
                engine_s += scene["engine_wall_s"]
                engine_audio_s += scene["duration_s"]
        sounds += [s for s in scene["sounds"] if sound_filter(conditions, s)]
    errors = [s["azimuth_error_deg"] for s in sounds if s["detected"] and s["azimuth_error_deg"] is not None]
    detected = sum(s["detected"] for s in sounds)
    row = {
        "sounds": len(sounds),
        "recall": detected / len(sounds) if sounds else None,
        "median_error_deg": percentile(errors, 0.5) if errors else None,
        "p90_error_deg": percentile(errors, 0.9) if errors else None,
        "within_20": sum(e <= WITHIN_DEG for e in errors) / len(sounds) if sounds else None,
        "false_alarms_per_min": false_alarms / minutes if scene_level and minutes else None,
        "duplicates_per_detection": duplicates / scene_detections if scene_level and scene_detections else None,
        "rtf_cpu": process_s / audio_s if scene_level and audio_s else None,
        "rtf_engine": engine_s / engine_audio_s if scene_level and engine_audio_s else None,
    }
    return row


def sound_conditions(conditions, sound):
    """Every factor's value for one sound: its scene's conditions plus its own."""
    merged = dict(conditions)
    merged.update({"type": sound["type"], "overlap": sound["overlap"], "short_weak": sound["short_weak"]})
    return merged


def report_rows(scenes):
    """[(title, label, row)] for the acceptance groups and every value of every factor present."""
    rows = []
    for name, description, scene_filter, sound_filter in GROUPS:
        rows.append(("group", f"{name}: {description}", summarize(scenes, scene_filter, sound_filter)))
    for key, title, values, label, scene_level in ROW_FACTORS:
        present = {sound_conditions(scene["conditions"], sound)[key] for scene in scenes for sound in scene["sounds"]}
        for value in [v for v in dict.fromkeys(values) if v in present]:
            rows.append((title, label(value), summarize(
                scenes,
                lambda conditions, key=key, value=value: conditions.get(key) == value,
                lambda conditions, sound, key=key, value=value: sound_conditions(conditions, sound)[key] == value,
                scene_level)))
    return rows
