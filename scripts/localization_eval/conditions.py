"""The evaluation's condition matrix (issue 12, point 7) and the rows every report is cut into.

Standard library only: the scorer and the tables use it without the simulation packages.
A scene carries the scene-level conditions (array, RT60, SNR, noise, interferer, simulator); a sound adds
its own (type, overlap, short_weak). Every report row is one factor's value, or one acceptance group.
"""

ARRAYS = {
    # name: (mic count, radius in metres); mic k at angle rotation + 360 k / count, counter-clockwise.
    "square4": (4, 0.0325),
    "circle8": (8, 0.046),
}
RT60_S = [0.0, 0.3, 0.6, 0.8]            # 0 = anechoic (free field)
SNR_DB = [20.0, 5.0, 0.0, -5.0]          # per sound, see docs/design/localization-evaluation.md
NOISE_TYPES = ["white", "diffuse"]
INTERFERERS = ["none", "none", "fan", "talker"]   # half the scenes have none (repeated value = weight)
SOUND_TYPES = ["click_train", "chirp", "bird", "speech", "noise_burst"]
SIMULATORS = ["pyroomacoustics", "pyroomacoustics", "isochron"]  # a third of the scenes from the project's own

# Scene-level factors in the order the design assigns them (see generate.py: balanced blocks per factor).
SCENE_FACTORS = {
    "array": list(ARRAYS),
    "rt60_s": RT60_S,
    "snr_db": SNR_DB,
    "noise": NOISE_TYPES,
    "interferer": INTERFERERS,
    "overlaps": [False, True],      # the scene holds overlapping pairs
    "short_weak": [False, True],    # the scene holds short weak sounds
    "simulator": SIMULATORS,
}

SCORING_WINDOW_BEFORE_S = 0.1   # an output line matches a sound if it overlaps [start - 0.1, end + 0.3]
SCORING_WINDOW_AFTER_S = 0.3
WITHIN_DEG = 20.0


def rt60_label(value):
    return "anechoic" if value == 0 else f"RT60 {value:g} s"


# Report rows: (factor key, title, values in report order, value -> label, scene level). Sound-level
# factors have no false-alarm or real-time figure (a false alarm belongs to no sound); scene-level ones do.
ROW_FACTORS = [
    ("array", "array", list(ARRAYS), str, True),
    ("rt60_s", "room", RT60_S, rt60_label, True),
    ("snr_db", "SNR", SNR_DB, lambda v: f"SNR {v:g} dB", True),
    ("noise", "noise", NOISE_TYPES, lambda v: f"{v} noise", True),
    ("interferer", "interferer", ["none", "fan", "talker"],
     lambda v: "no interferer" if v == "none" else f"{v} interferer", True),
    ("simulator", "simulator", ["pyroomacoustics", "isochron"], str, True),
    ("type", "sound type", SOUND_TYPES, str, False),
    ("overlap", "overlap", [False, True], lambda v: "one of an overlapping pair" if v else "alone", False),
    ("short_weak", "level", [False, True], lambda v: "short weak" if v else "normal", False),
]


def is_easy_scene(conditions):
    """The easy acceptance group's scene conditions: SNR 20 or 5 dB, RT60 <= 0.6 s, no interferer."""
    return conditions["snr_db"] >= 5.0 and conditions["rt60_s"] <= 0.6 and conditions["interferer"] == "none"


def is_easy_sound(conditions, sound):
    """An easy sound: in an easy scene, neither one of an overlapping pair nor a short weak sound."""
    return is_easy_scene(conditions) and not sound["overlap"] and not sound["short_weak"]


def is_hard_scene(conditions):
    """The hard acceptance group: SNR 0 or -5 dB, any room (to RT60 0.8 s), with or without an interferer;
    every sound in it counts, overlapping pairs and short weak sounds included."""
    return conditions["snr_db"] <= 0.0


GROUPS = [
    # name, description, scene predicate (for false alarms and real-time factor), sound predicate
    ("easy", "SNR 20 / 5 dB, RT60 <= 0.6 s, no interferer (no overlaps, no short weak sounds)",
     is_easy_scene, is_easy_sound),
    ("hard", "SNR 0 / -5 dB, RT60 to 0.8 s, with fans, talkers, overlapping pairs, short weak sounds",
     is_hard_scene, lambda conditions, sound: is_hard_scene(conditions)),
    ("all", "every scene and sound", lambda conditions: True, lambda conditions, sound: True),
]
