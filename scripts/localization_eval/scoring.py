"""Scoring of a localizer's output lines against a scene's truth (issue 12, point 7). Standard library only.

- An output line matches a true sound if [t_start, t_end] overlaps [sound start - 0.1 s, sound end + 0.3 s].
- Lines are assigned to sounds one to one (each sound gets at most one line, each line serves at most
  one sound): as many sounds as possible get a line, and among those assignments the total wrapped
  azimuth error is least (Hungarian algorithm, per group of sounds linked by overlapping windows or a
  shared line). A lone sound therefore takes its best line; one line over an overlapping pair, or over
  two separate sounds, detects one of them. A sound with a line is detected.
- A line that matches no sound is a false alarm (a steady interferer is not a sound).
- Lines that match a sound but were not assigned are neither: they count as duplicates.
"""
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


def linked_groups(sounds, matches):
    """Indices of sounds linked by overlapping scoring windows or by a line matching both (connected
    components): the assignment is solved per group."""
    parent = list(range(len(sounds)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = sorted(range(len(sounds)), key=lambda i: window(sounds[i])[0])
    for previous, current in zip(order, order[1:]):
        if window(sounds[current])[0] <= window(sounds[previous])[1]:
            parent[root(current)] = root(previous)
    first_sound_of_line = {}
    for s, lines in enumerate(matches):
        for l in lines:
            if l in first_sound_of_line:
                parent[root(s)] = root(first_sound_of_line[l])
            else:
                first_sound_of_line[l] = s
    groups = {}
    for s in range(len(sounds)):
        groups.setdefault(root(s), []).append(s)
    return list(groups.values())


def min_cost_assignment(cost):
    """Hungarian algorithm on a rows x columns cost matrix (rows <= columns): the column of each row, one to
    one, with the least total cost."""
    rows, columns = len(cost), len(cost[0])
    u, v = [0.0] * (rows + 1), [0.0] * (columns + 1)
    owner, way = [0] * (columns + 1), [0] * (columns + 1)
    for r in range(1, rows + 1):
        owner[0], column = r, 0
        least, used = [math.inf] * (columns + 1), [False] * (columns + 1)
        while owner[column]:
            used[column] = True
            row, delta, next_column = owner[column], math.inf, 0
            for c in range(1, columns + 1):
                if not used[c]:
                    reduced = cost[row - 1][c - 1] - u[row] - v[c]
                    if reduced < least[c]:
                        least[c], way[c] = reduced, column
                    if least[c] < delta:
                        delta, next_column = least[c], c
            for c in range(columns + 1):
                if used[c]:
                    u[owner[c]] += delta
                    v[c] -= delta
                else:
                    least[c] -= delta
            column = next_column
        while column:
            previous = way[column]
            owner[column] = owner[previous]
            column = previous
    assignment = [0] * rows
    for c in range(1, columns + 1):
        if owner[c]:
            assignment[owner[c] - 1] = c - 1
    return assignment


def best_assignment(sounds, lines, group, matches):
    """For one group: {sound index: line index}, one to one, most sounds assigned, then least total error."""
    candidates = sorted(set(l for s in group for l in matches[s]))
    if not candidates:
        return {}
    # A pairing costs its error minus a bonus larger than any sum of errors, so more pairings always win;
    # each sound also has its own "no line" column of cost 0; a line that does not match costs too much.
    bonus, forbidden = 1.0 + 180.0 * len(group), 1e12
    cost = []
    for row, s in enumerate(group):
        line_costs = []
        for l in candidates:
            if l in matches[s]:
                azimuth = lines[l]["azimuth_deg"]
                line_costs.append((180.0 if azimuth is None else wrapped_error(azimuth, sounds[s]["azimuth_deg"])) - bonus)
            else:
                line_costs.append(forbidden)
        cost.append(line_costs + [0.0 if k == row else forbidden for k in range(len(group))])
    chosen = min_cost_assignment(cost)
    return {s: candidates[c] for s, c in zip(group, chosen) if c < len(candidates)}


def score_scene(truth, lines):
    """Per-sound results and false alarms of one scene's output lines against its truth.json dict."""
    sounds = truth["sounds"]
    matches = [[l for l, line in enumerate(lines) if line_matches(line, sound)] for sound in sounds]
    assigned = {}
    for group in linked_groups(sounds, matches):
        assigned.update(best_assignment(sounds, lines, group, matches))
    results = []
    for s, sound in enumerate(sounds):
        line = lines[assigned[s]] if s in assigned else None
        error = None
        if line is not None and line["azimuth_deg"] is not None:
            error = round(wrapped_error(line["azimuth_deg"], sound["azimuth_deg"]), 3)
        results.append({
            "id": sound["id"],
            "type": sound["type"],
            "overlap": sound["overlap"],
            "short_weak": sound["short_weak"],
            "detected": line is not None,
            "azimuth_error_deg": error,
            "onset_error_s": None if line is None else round(line["t_start"] - sound["t_start"], 4),
            "end_error_s": None if line is None else round(line["t_end"] - sound["t_end"], 4),
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
            if scene.get("cpu_s") is not None:
                process_s += scene["cpu_s"]
                audio_s += scene["duration_s"]
            if scene.get("engine_wall_s") is not None:
                engine_s += scene["engine_wall_s"]
                engine_audio_s += scene["duration_s"]
        sounds += [s for s in scene["sounds"] if sound_filter(conditions, s)]
    errors = [s["azimuth_error_deg"] for s in sounds if s["detected"] and s["azimuth_error_deg"] is not None]
    detected = sum(s["detected"] for s in sounds)
    onsets = [abs(s["onset_error_s"]) for s in sounds if s["detected"]]
    # Signed: a line that goes on while the room rings ends late (older results lack the field).
    ends = [s["end_error_s"] for s in sounds if s["detected"] and s.get("end_error_s") is not None]
    row = {
        "sounds": len(sounds),
        "recall": detected / len(sounds) if sounds else None,
        "median_error_deg": percentile(errors, 0.5) if errors else None,
        "p90_error_deg": percentile(errors, 0.9) if errors else None,
        "within_20": sum(e <= WITHIN_DEG for e in errors) / len(sounds) if sounds else None,
        "median_onset_error_s": percentile(onsets, 0.5) if onsets else None,
        "median_end_error_s": percentile(ends, 0.5) if ends else None,
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
        rows.append(("group", name, summarize(scenes, scene_filter, sound_filter)))
    for key, title, values, label, scene_level in ROW_FACTORS:
        present = {sound_conditions(scene["conditions"], sound)[key] for scene in scenes for sound in scene["sounds"]}
        for value in [v for v in dict.fromkeys(values) if v in present]:
            rows.append((title, label(value), summarize(
                scenes,
                lambda conditions, key=key, value=value: conditions.get(key) == value,
                lambda conditions, sound, key=key, value=value: sound_conditions(conditions, sound)[key] == value,
                scene_level)))
    return rows
