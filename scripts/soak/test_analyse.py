#!/usr/bin/env python3
"""The soak's criteria (scripts/soak/analyse.py) on made-up samples whose
verdict is known by construction: flat or noisy runs pass; a steady leak, a
descriptor or thread more at the end, a refused valid command, an accepted
invalid one, a run cut short and a run too short to judge each fail with
their sentence. scripts/soak.sh runs this before every soak."""
import csv
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ["seconds", "kind", "rss_kib", "fds", "threads", "xruns", "dsp_load_percent", "commands", "valid",
          "invalid", "valid_failed", "invalid_accepted"]


def samples(minutes=60, interval=10, warmup=600, rss=lambda t: 170_000, fds=(24, 24), threads=(16, 16),
            valid_failed=0, invalid_accepted=0, end=True, noise_kib=0, seed=1):
    """Rows as the driver writes them: samples every `interval` s, a checkpoint
    at `warmup` and one at the end; `rss(t)` in KiB; (start, end) descriptors and threads."""
    rng = random.Random(seed)
    rows, t = [], 0.0
    total = minutes * 60

    def row(kind, t, fd, thread):
        commands = int(t * 20)
        return {"seconds": t, "kind": kind, "rss_kib": int(rss(t) + rng.uniform(-noise_kib, noise_kib)),
                "fds": fd + (rng.randint(0, 3) if kind == "sample" else 0),
                "threads": thread + (rng.randint(0, 4) if kind == "sample" else 0),
                "xruns": int(t / 100), "dsp_load_percent": 20 + rng.uniform(-5, 5), "commands": commands,
                "valid": commands * 7 // 10, "invalid": commands - commands * 7 // 10,
                "valid_failed": valid_failed if t > total / 2 else 0,
                "invalid_accepted": invalid_accepted if t > total / 2 else 0}

    while t < warmup:
        rows.append(row("sample", t, fds[0], threads[0]))
        t += interval
    rows.append(row("checkpoint-start", t, fds[0], threads[0]))
    t += interval
    while t < total:
        rows.append(row("sample", t, fds[0], threads[0]))
        t += interval
    if end:
        rows.append(row("checkpoint-end", t, fds[1], threads[1]))
    return rows


class CriteriaTests(unittest.TestCase):
    def judge(self, rows):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "samples.csv")
            with open(path, "w", newline="") as file:
                writer = csv.DictWriter(file, fieldnames=FIELDS)
                writer.writeheader()
                writer.writerows(rows)
            run = subprocess.run([sys.executable, os.path.join(HERE, "analyse.py"), "--check-only", path],
                                 capture_output=True, text=True)
        verdict = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr
        return run.returncode, verdict

    def assertPasses(self, rows):
        status, verdict = self.judge(rows)
        self.assertEqual((status, verdict), (0, "soak: passed"))

    def assertFails(self, rows, words):
        status, verdict = self.judge(rows)
        self.assertEqual(status, 1, verdict)
        self.assertTrue(verdict.startswith("soak: FAILED: " + words), verdict)

    def test_a_flat_hour_passes(self):
        self.assertPasses(samples())

    def test_noise_and_a_sawtooth_pass(self):
        # An allocator that grows and gives back 6 MiB every five minutes, plus 2 MiB of noise.
        self.assertPasses(samples(rss=lambda t: 170_000 + 6 * 1024 * ((t % 300) / 300), noise_kib=2048))

    def test_growth_during_the_warmup_passes(self):
        self.assertPasses(samples(rss=lambda t: 120_000 + min(t, 600) * 80))

    def test_one_step_after_the_warmup_passes(self):
        # 6 MiB once (a buffer grown once), then flat for fifty minutes: no leak.
        self.assertPasses(samples(rss=lambda t: 170_000 + (6 * 1024 if t > 900 else 0)))

    def test_a_steady_leak_fails(self):
        # 512 KiB a minute: 25 MiB over the fifty minutes after the warm-up.
        self.assertFails(samples(rss=lambda t: 170_000 + t / 60 * 512), "memory grew after the warm-up")

    def test_a_fast_leak_in_two_minutes_fails(self):
        # The make-test run: 120 s, a sample every 5 s, warm-up 30 s; 10 MiB a minute.
        self.assertFails(samples(minutes=2, interval=5, warmup=30, rss=lambda t: 170_000 + t / 60 * 10 * 1024),
                         "memory grew after the warm-up")

    def test_a_flat_two_minutes_pass(self):
        self.assertPasses(samples(minutes=2, interval=5, warmup=30, noise_kib=1024))

    def test_one_descriptor_more_at_the_end_fails(self):
        self.assertFails(samples(fds=(24, 25)), "file descriptors leaked: 24 open at the first checkpoint, 25")

    def test_fewer_descriptors_at_the_end_pass(self):
        self.assertPasses(samples(fds=(24, 23), threads=(16, 15)))

    def test_one_thread_more_at_the_end_fails(self):
        self.assertFails(samples(threads=(16, 17)), "threads leaked: 16 at the first checkpoint, 17")

    def test_a_refused_valid_command_fails(self):
        self.assertFails(samples(valid_failed=1), "1 valid command(s) failed")

    def test_an_accepted_invalid_command_fails(self):
        self.assertFails(samples(invalid_accepted=2), "2 invalid command(s) were accepted")

    def test_a_run_without_its_end_checkpoint_fails(self):
        self.assertFails(samples(end=False), "the soak ended before its end checkpoint")

    def test_too_few_samples_after_the_warmup_fail(self):
        self.assertFails(samples(minutes=1, interval=10, warmup=30), "only 2 samples after the warm-up")  # at 40 s and 50 s


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0], "-q"], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
