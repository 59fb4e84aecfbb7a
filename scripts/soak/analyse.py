#!/usr/bin/env python3
"""Judges a soak's samples (scripts/soak.sh, docs/testing.md) and plots them.

    analyse.py SAMPLES.csv [--summary DRIVER.json] [--png PLOT.png]
    analyse.py --check-only SAMPLES.csv

The CSV is the driver's (scripts/soak/driver.py): rows of `sample` every
interval, and two `checkpoint-start` and `checkpoint-end` rows taken with the
session in the same state, at the end of the warm-up and at the end. The
soak fails, with one sentence, when:

- memory grows after the warm-up: the resident set's least-squares slope over
  the samples from the first checkpoint on is above SLOPE_KIB_PER_MINUTE, and
  the median of the last three of those samples is more than GROWTH_MIB above
  the median of the first three. Both: a slope alone can be a few noisy
  samples, a difference alone a one-off step (an allocator's arena, a plugin
  growing a buffer once) that a longer run shows flat.
- descriptors or threads leak: the end checkpoint has more open descriptors,
  or more threads, than the first.
- a valid command was refused, or an invalid one accepted (the driver counts
  them into every row).
- there are fewer than MINIMUM_SAMPLES samples after the warm-up, too few to
  judge.

Prints the figures either way; exits 0 when the soak passed, 1 when it failed.
`--check-only` judges without plotting (the criteria's own tests use it).
"""
import argparse
import csv
import json
import statistics
import sys

SLOPE_KIB_PER_MINUTE = 128
GROWTH_MIB = 8
MINIMUM_SAMPLES = 6


def read(path):
    with open(path, newline="") as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        for key, value in row.items():
            if key != "kind":
                row[key] = float(value) if value not in ("", None) else None
    return rows


def slope_per_minute(points):
    """Least-squares slope of (seconds, value) points, per minute."""
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if spread == 0:
        return 0.0
    return 60 * sum((t - mean_t) * (v - mean_v) for t, v in points) / spread


def judge(rows):
    """(figures, failure sentence or None) for the driver's rows."""
    start = next((r for r in rows if r["kind"] == "checkpoint-start"), None)
    end = next((r for r in rows if r["kind"] == "checkpoint-end"), None)
    last = rows[-1] if rows else None
    figures = {}
    if last is not None:
        figures.update(commands=int(last["commands"]), valid=int(last["valid"]), invalid=int(last["invalid"]),
                       validFailed=int(last["valid_failed"]), invalidAccepted=int(last["invalid_accepted"]),
                       xruns=int(last["xruns"]), seconds=last["seconds"])
    if start is None or end is None:
        return figures, "the soak ended before its end checkpoint (see the driver's and fxhost's logs)"
    after = [r for r in rows if r["seconds"] >= start["seconds"]]
    samples = [r for r in after if r["kind"] == "sample"]
    rss = [(r["seconds"], r["rss_kib"]) for r in after]
    slope = slope_per_minute(rss)
    first = statistics.median(v for _, v in rss[:3])
    final = statistics.median(v for _, v in rss[-3:])
    growth_mib = (final - first) / 1024
    loads = [r["dsp_load_percent"] for r in after]
    figures.update(
        warmupSeconds=start["seconds"],
        rssStartMiB=round(start["rss_kib"] / 1024, 1), rssEndMiB=round(end["rss_kib"] / 1024, 1),
        rssPeakMiB=round(max(r["rss_kib"] for r in rows) / 1024, 1),
        rssSlopeKiBPerMinute=round(slope, 1), rssGrowthMiB=round(growth_mib, 2),
        fdsStart=int(start["fds"]), fdsEnd=int(end["fds"]), fdsMax=int(max(r["fds"] for r in rows)),
        threadsStart=int(start["threads"]), threadsEnd=int(end["threads"]),
        threadsMax=int(max(r["threads"] for r in rows)),
        xrunsAfterWarmup=int(end["xruns"] - start["xruns"]),
        dspLoadMeanPercent=round(statistics.mean(loads), 1), dspLoadMaxPercent=round(max(loads), 1),
        samplesAfterWarmup=len(samples))
    if figures["validFailed"]:
        return figures, f"{figures['validFailed']} valid command(s) failed (the driver's log names them)"
    if figures["invalidAccepted"]:
        return figures, f"{figures['invalidAccepted']} invalid command(s) were accepted (the driver's log names them)"
    if len(samples) < MINIMUM_SAMPLES:
        return figures, (f"only {len(samples)} samples after the warm-up, fewer than {MINIMUM_SAMPLES} to judge "
                         "by: run longer or sample more often")
    if slope > SLOPE_KIB_PER_MINUTE and growth_mib > GROWTH_MIB:
        return figures, (f"memory grew after the warm-up: {growth_mib:.1f} MiB ({first / 1024:.1f} → "
                         f"{final / 1024:.1f} MiB), {slope:.0f} KiB a minute (limits: {GROWTH_MIB} MiB and "
                         f"{SLOPE_KIB_PER_MINUTE} KiB a minute)")
    if end["fds"] > start["fds"]:
        return figures, (f"file descriptors leaked: {int(start['fds'])} open at the first checkpoint, "
                         f"{int(end['fds'])} at the end, in the same state")
    if end["threads"] > start["threads"]:
        return figures, (f"threads leaked: {int(start['threads'])} at the first checkpoint, "
                         f"{int(end['threads'])} at the end, in the same state")
    return figures, None


def plot(rows, figures, failure, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [r["seconds"] / 60 for r in rows]
    series = [("resident memory (MiB)", [r["rss_kib"] / 1024 for r in rows]),
              ("open file descriptors", [r["fds"] for r in rows]),
              ("threads", [r["threads"] for r in rows]),
              ("xruns (since start)", [r["xruns"] for r in rows]),
              ("JACK DSP load (%)", [r["dsp_load_percent"] for r in rows])]
    figure, axes = plt.subplots(len(series), 1, sharex=True, figsize=(9, 11))
    for axis, (label, values) in zip(axes, series):
        axis.plot(minutes, values, marker=".", linewidth=1)
        for row, minute, value in zip(rows, minutes, values):
            if row["kind"].startswith("checkpoint"):
                axis.plot([minute], [value], marker="o", color="tab:red")
        if "warmupSeconds" in figures:
            axis.axvline(figures["warmupSeconds"] / 60, color="grey", linestyle="--", linewidth=1)
        axis.set_ylabel(label, fontsize=8)
        axis.grid(True, alpha=0.3)
    axes[-1].set_xlabel("minutes (dashed: end of warm-up; red: checkpoints)")
    verdict = f"FAILED: {failure}" if failure else "passed"
    commands = figures.get("commands", 0)
    rate = commands / figures["seconds"] if figures.get("seconds") else 0
    figure.suptitle(f"fxhost soak, {figures.get('seconds', 0) / 60:.1f} min, {commands} commands "
                    f"({rate:.1f}/s): {verdict}", fontsize=9, wrap=True)
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def report(figures, summary):
    f = figures
    lines = []
    if "rssStartMiB" in f:
        lines += [
            f"memory: {f['rssStartMiB']} MiB after the warm-up ({f['warmupSeconds']:.0f} s), {f['rssEndMiB']} MiB at the "
            f"end, {f['rssPeakMiB']} MiB at most; slope {f['rssSlopeKiBPerMinute']} KiB/min, growth {f['rssGrowthMiB']} MiB",
            f"descriptors: {f['fdsStart']} → {f['fdsEnd']} at the checkpoints, {f['fdsMax']} at most; "
            f"threads: {f['threadsStart']} → {f['threadsEnd']}, {f['threadsMax']} at most",
            f"xruns: {f['xruns']} in all, {f['xrunsAfterWarmup']} after the warm-up; DSP load after the warm-up: "
            f"{f['dspLoadMeanPercent']}% on average, {f['dspLoadMaxPercent']}% at most",
        ]
    if "commands" in f:
        rate = f["commands"] / f["seconds"] if f.get("seconds") else 0
        lines.append(f"commands: {f['commands']} in {f['seconds']:.0f} s ({rate:.1f}/s): {f['valid']} valid "
                     f"({f['validFailed']} refused), {f['invalid']} invalid ({f['invalidAccepted']} accepted)")
    if summary:
        kinds = ", ".join(f"{kind} {c['sent']}" for kind, c in summary.get("byKind", {}).items())
        lines.append(f"by kind: {kinds}")
        lines.append(f"takes deleted along the way: {summary.get('takesDeleted', 0)}; seed {summary.get('seed')}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="?")
    parser.add_argument("--check-only", metavar="CSV", help="judge CSV without plotting")
    parser.add_argument("--summary", help="the driver's summary JSON, for the counts by kind")
    parser.add_argument("--png", help="where to plot the samples")
    options = parser.parse_args()
    path = options.check_only or options.csv
    if not path:
        parser.error("give the samples' CSV")
    rows = read(path)
    figures, failure = judge(rows)
    summary = None
    if options.summary:
        try:
            with open(options.summary) as file:
                summary = json.load(file)
        except (OSError, ValueError):
            summary = None
    print(report(figures, summary))
    if options.png and not options.check_only and rows:
        plot(rows, figures, failure, options.png)
    if failure:
        print(f"soak: FAILED: {failure}")
        return 1
    print("soak: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
