#!/usr/bin/env python3
"""The localization evaluation's scoring rules (scripts/localization_eval/scoring.py) on hand-made truth and
output lines whose answers are worked out by hand. Standard library only (ctest: localization_eval_scoring)."""
import itertools
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "localization_eval"))

from conditions import is_easy_sound  # noqa: E402
from scoring import (EventFileError, min_cost_assignment, percentile, read_events, score_scene,  # noqa: E402
                     summarize, wrapped_error)


def sound(identifier, start, end, azimuth, overlap=False, short_weak=False, kind="chirp"):
    return {"id": identifier, "t_start": start, "t_end": end, "azimuth_deg": azimuth, "type": kind,
            "overlap": overlap, "short_weak": short_weak}


def line(start, end, azimuth):
    return {"t_start": start, "t_end": end, "azimuth_deg": azimuth}


class WindowTest(unittest.TestCase):
    truth = {"sounds": [sound(0, 10.0, 11.0, 45.0)]}

    def test_a_line_touching_either_end_of_the_window_matches(self):
        before = score_scene(self.truth, [line(9.5, 9.9, 45.0)])       # ends at start - 0.1
        after = score_scene(self.truth, [line(11.3, 11.5, 45.0)])      # starts at end + 0.3
        self.assertTrue(before["sounds"][0]["detected"])
        self.assertTrue(after["sounds"][0]["detected"])
        self.assertEqual(before["false_alarms"] + after["false_alarms"], 0)

    def test_a_line_just_outside_the_window_is_a_false_alarm(self):
        result = score_scene(self.truth, [line(9.5, 9.89, 45.0), line(11.31, 11.6, 45.0)])
        self.assertFalse(result["sounds"][0]["detected"])
        self.assertEqual(result["false_alarms"], 2)
        self.assertEqual(result["false_alarm_times"], [9.5, 11.31])

    def test_a_lone_sound_takes_its_best_line_and_the_rest_are_duplicates(self):
        result = score_scene(self.truth, [line(10.0, 10.5, 100.0), line(10.2, 10.8, 47.5), line(10.9, 11.2, 0.0)])
        self.assertAlmostEqual(result["sounds"][0]["azimuth_error_deg"], 2.5)
        self.assertAlmostEqual(result["sounds"][0]["onset_error_s"], 0.2)
        self.assertEqual(result["sounds"][0]["lines"], 3)
        self.assertEqual((result["duplicates"], result["false_alarms"]), (2, 0))


    def test_one_line_over_two_separate_sounds_detects_one(self):
        truth = {"sounds": [sound(0, 10.0, 11.0, 45.0), sound(1, 14.0, 15.0, 200.0)]}
        result = score_scene(truth, [line(9.0, 16.0, 190.0)])
        self.assertEqual([s["detected"] for s in result["sounds"]], [False, True])
        self.assertAlmostEqual(result["sounds"][1]["azimuth_error_deg"], 10.0)
        self.assertEqual((result["duplicates"], result["false_alarms"]), (0, 0))

    def test_a_long_line_and_a_short_one_cover_two_sounds(self):
        # The long line is the better direction for sound 0, but only it can serve sound 1.
        truth = {"sounds": [sound(0, 10.0, 11.0, 45.0), sound(1, 14.0, 15.0, 200.0)]}
        result = score_scene(truth, [line(9.0, 16.0, 44.0), line(10.0, 10.5, 60.0)])
        self.assertEqual([s["detected"] for s in result["sounds"]], [True, True])
        self.assertAlmostEqual(result["sounds"][0]["azimuth_error_deg"], 15.0)
        self.assertAlmostEqual(result["sounds"][1]["azimuth_error_deg"], 156.0)


class AssignmentTest(unittest.TestCase):
    def test_the_hungarian_algorithm_finds_the_brute_force_optimum(self):
        generator = random.Random(12)
        for _ in range(200):
            rows, columns = generator.randint(1, 4), generator.randint(4, 6)
            cost = [[generator.choice([generator.uniform(0, 100), 1e6]) for _ in range(columns)] for _ in range(rows)]
            chosen = min_cost_assignment(cost)
            self.assertEqual(len(set(chosen)), rows)
            best = min(sum(cost[r][c] for r, c in enumerate(p)) for p in itertools.permutations(range(columns), rows))
            self.assertAlmostEqual(sum(cost[r][c] for r, c in enumerate(chosen)), best)


class AzimuthTest(unittest.TestCase):
    def test_errors_wrap_around_north(self):
        self.assertAlmostEqual(wrapped_error(359.0, 1.0), 2.0)
        self.assertAlmostEqual(wrapped_error(-90.0, 270.0), 0.0)
        self.assertAlmostEqual(wrapped_error(10.0, 190.0), 180.0)

    def test_a_line_without_azimuth_detects_but_has_no_error(self):
        result = score_scene({"sounds": [sound(0, 1.0, 2.0, 30.0)]}, [line(1.0, 2.0, None)])
        self.assertTrue(result["sounds"][0]["detected"])
        self.assertIsNone(result["sounds"][0]["azimuth_error_deg"])


class OverlappingPairTest(unittest.TestCase):
    truth = {"sounds": [sound(0, 5.0, 6.0, 0.0, overlap=True), sound(1, 5.3, 6.2, 120.0, overlap=True)]}

    def test_one_line_over_both_detects_only_the_nearer_one(self):
        result = score_scene(self.truth, [line(5.0, 6.2, 100.0)])
        self.assertEqual([s["detected"] for s in result["sounds"]], [False, True])
        self.assertAlmostEqual(result["sounds"][1]["azimuth_error_deg"], 20.0)

    def test_assignment_detects_both_before_it_minimises_error(self):
        # Both lines are nearer sound 0; one to one, sound 1 still gets one. {0: 2 deg, 1: 10 deg} costs
        # 2 + 110 = 112, {0: 10, 1: 2} costs 10 + 118 = 128: the first is the answer.
        result = score_scene(self.truth, [line(5.0, 5.5, 2.0), line(5.4, 6.0, 10.0)])
        self.assertEqual([s["detected"] for s in result["sounds"]], [True, True])
        self.assertAlmostEqual(result["sounds"][0]["azimuth_error_deg"], 2.0)
        self.assertAlmostEqual(result["sounds"][1]["azimuth_error_deg"], 110.0)

    def test_each_sound_gets_its_own_direction(self):
        result = score_scene(self.truth, [line(5.0, 6.0, 119.0), line(5.2, 6.1, 358.0), line(5.1, 5.9, 60.0)])
        self.assertAlmostEqual(result["sounds"][0]["azimuth_error_deg"], 2.0)
        self.assertAlmostEqual(result["sounds"][1]["azimuth_error_deg"], 1.0)
        self.assertEqual((result["duplicates"], result["false_alarms"]), (1, 0))


class EventFileTest(unittest.TestCase):
    def write(self, text):
        handle, path = tempfile.mkstemp(suffix=".jsonl")
        with os.fdopen(handle, "w") as file:
            file.write(text)
        self.addCleanup(os.remove, path)
        return path

    def test_extra_fields_and_blank_lines_are_accepted(self):
        path = self.write('{"t_start": 1, "t_end": 1.5, "azimuth_deg": 30, "track_id": 7, "confidence": 0.9}\n\n'
                          '{"t_start": 2, "t_end": 2.5, "azimuth_deg": null, "elevation_deg": 3}\n')
        self.assertEqual(read_events(path), [line(1.0, 1.5, 30.0), line(2.0, 2.5, None)])

    def test_bad_lines_name_the_file_line_and_field(self):
        for text, message in (('{"t_start": 1, "t_end": 2}\n{"t_start": 1,\n', ":2: not JSON"),
                              ('{"t_start": "1", "t_end": 2}\n', ":1: field 't_start'"),
                              ('{"t_start": 3, "t_end": 2}\n', ":1: t_end is before t_start"),
                              ('[1, 2]\n', ":1: expected a JSON object")):
            path = self.write(text)
            with self.assertRaises(EventFileError) as raised:
                read_events(path)
            self.assertIn(path + message, str(raised.exception))


class SummaryTest(unittest.TestCase):
    def test_percentiles_interpolate_like_numpy(self):
        self.assertAlmostEqual(percentile([4, 1, 3, 2], 0.5), 2.5)
        self.assertAlmostEqual(percentile(list(range(1, 11)), 0.9), 9.1)
        self.assertAlmostEqual(percentile([7.0], 0.9), 7.0)

    def test_rates_and_fractions_of_a_group(self):
        easy = {"snr_db": 20.0, "rt60_s": 0.3, "interferer": "none"}
        hard = {"snr_db": -5.0, "rt60_s": 0.8, "interferer": "fan"}

        def result(error, overlap=False, onset=0.0):
            return {"detected": error is not None, "azimuth_error_deg": error, "overlap": overlap, "short_weak": False,
                    "onset_error_s": onset if error is not None else None}

        scenes = [
            {"conditions": easy, "duration_s": 30.0, "false_alarms": 1, "duplicates": 3, "cpu_s": 0.3,
             "engine_wall_s": 0.2,
             "sounds": [result(1.0, onset=-0.01), result(30.0, onset=0.02), result(None), result(5.0, overlap=True)]},
            {"conditions": hard, "duration_s": 90.0, "false_alarms": 5, "duplicates": 0, "cpu_s": 1.5,
             "engine_wall_s": None,
             "sounds": [result(2.0)]},
        ]
        row = summarize(scenes, lambda c: c["snr_db"] > 0, is_easy_sound)
        self.assertEqual(row["sounds"], 3)                      # the overlapping one is not an easy sound
        self.assertAlmostEqual(row["recall"], 2 / 3)
        self.assertAlmostEqual(row["within_20"], 1 / 3)         # of all sounds, missed ones included
        self.assertAlmostEqual(row["median_error_deg"], 15.5)
        self.assertAlmostEqual(row["median_onset_error_s"], 0.015)  # |-0.01| and |0.02| of the two detected
        self.assertAlmostEqual(row["false_alarms_per_min"], 2.0)
        self.assertAlmostEqual(row["rtf_cpu"], 0.01)
        self.assertAlmostEqual(row["duplicates_per_detection"], 1.0)  # 3 over the scene's 3 detections
        every = summarize(scenes, lambda c: True, lambda c, s: True)
        self.assertAlmostEqual(every["false_alarms_per_min"], 3.0)
        self.assertAlmostEqual(every["rtf_engine"], 0.2 / 30.0)  # only scenes with an engine time


if __name__ == "__main__":
    unittest.main()
