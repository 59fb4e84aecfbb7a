#!/usr/bin/env python3
"""The soak's driver (scripts/soak.sh, docs/testing.md).

Steers a running `fxhost run PATCH --osc PORT --watch` through the command
protocol (`/fxhost/json s:command`, answered with `/fxhost/json s:reply`) with
random valid commands and random invalid ones at a steady rate, and samples
fxhost's resident memory, descriptors and threads (its engine process's
included), xruns and DSP load into a CSV.

Every valid command must be answered `"ok": true` and every invalid one
refused (`"ok": false`, or `/fxhost/error` for a packet that is not a
command); a reply that breaks that rule, a command left unanswered for
`--reply-timeout` seconds, or fxhost exiting, is a failure. The driver
carries on after a refusal of a valid command (to collect them all) but
stops at once when fxhost no longer answers.

Besides the periodic samples the CSV has two checkpoints, taken with the
session in the same state (no bounce, the patch's own wiring, the patch's
two taps recording afresh, the others stopped): one when the warm-up ends and
one at the end. Descriptors and threads are compared there, where the same
state must hold the same resources (scripts/soak/analyse.py).

The session state the driver relies on (taps, wiring) is read back from
fxhost (`status`, `state`) rather than assumed, since `--watch` reloads put
the patch file's wiring and taps back.
"""
import argparse
import csv
import json
import math
import os
import random
import re
import signal
import socket
import string
import sys
import time

from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder

# Connections the driver makes and breaks: none is in the patch, and none closes a cycle.
TOGGLED = [("metro", "verb"), ("sampler", "verb"), ("cab", "bus"), ("metro", "delay")]
# Nodes the driver taps (besides the patch's own taps of `bus` and `sampler`).
TAPPABLE = ["bus", "sampler", "eq", "verb", "delay", "cab", "main"]
CANONICAL_TAPS = ["bus", "sampler"]
MAX_TAPS = 4
# A take is stopped (and a new one started) every 30 s or so, which keeps the
# disk bounded; faster, the finished takes `status` lists (all of them, for
# the closing summary) would outgrow one UDP datagram within the hour.
ROTATE_SECONDS = 30
# Never tapped, connected to from `metro` or `sampler`: the invalid commands' targets.
UNTAPPED = "limiter"
# The parameter the driver changes by editing the patch file (the line marked `soak: watch`).
WATCHED = ("amp", "gain")
WATCH_LINE = re.compile(r"^(\s*params: \{ gain: )(-?[0-9.]+)( \}\s*# soak: watch)$", re.MULTILINE)


class Stop(Exception):
    """fxhost stopped answering or exited: the soak cannot go on."""


class Host:
    """One UDP socket to fxhost's OSC port: a request, then its one reply."""

    def __init__(self, port, pid, timeout):
        self.address = ("127.0.0.1", port)
        self.pid = pid
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))

    def alive(self):
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().split(") ")[-1][:1] not in ("Z", "X")
        except OSError:
            return False

    def exchange(self, packet, what):
        """Sends one datagram and returns the reply's (address, params)."""
        self.sock.setblocking(False)
        try:
            while True:
                self.sock.recv(65536)            # a late reply to an earlier packet
        except BlockingIOError:
            pass
        self.sock.setblocking(True)
        self.sock.sendto(packet, self.address)
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.alive():
                if not self.alive():
                    raise Stop(f"fxhost exited while the soak sent {what}")
                raise Stop(f"fxhost did not answer {what} within {self.timeout:g} s")
            self.sock.settimeout(min(remaining, 1.0))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            try:
                message = OscMessage(data)
            except Exception:
                raise Stop(f"fxhost answered {what} with a packet python-osc cannot read: {data[:80]!r}")
            return message.address, list(message.params)

    def json(self, command, what=None):
        """Sends a JSON command (an object, or text as it is) over /fxhost/json; returns the reply as a dict."""
        text = command if isinstance(command, str) else json.dumps(command)
        builder = OscMessageBuilder(address="/fxhost/json")
        builder.add_arg(text, arg_type="s")
        address, params = self.exchange(builder.build().dgram, what or _short(text))
        if address == "/fxhost/json" and params and isinstance(params[0], str):
            try:
                return json.loads(params[0])
            except ValueError:
                raise Stop(f"fxhost's reply to {what or _short(text)} is not JSON: {_short(params[0])}")
        return {"ok": False, "osc": address, "error": " ".join(str(p) for p in params)}


def _short(text, limit=160):
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"…({len(text)} characters)"


def _osc(address, *arguments):
    builder = OscMessageBuilder(address=address)
    for argument in arguments:
        builder.add_arg(argument)
    return builder.build().dgram


class Soak:
    def __init__(self, options):
        self.options = options
        self.rng = random.Random(options.seed)
        self.host = Host(options.port, options.pid, options.reply_timeout)
        self.folder = os.path.dirname(os.path.abspath(options.patch))
        self.counts = {}                     # kind -> [sent, answered as expected]
        self.valid = self.invalid = 0
        self.valid_failed = self.invalid_accepted = 0
        self.failures = []
        self.connected = {pair: False for pair in TOGGLED}
        self.rolling = True
        self.watched_value = None
        self.started = time.monotonic()
        self.rows = []
        self.deleted_takes = 0
        self.last_untap = self.started

    # Bookkeeping

    def elapsed(self):
        return time.monotonic() - self.started

    def record(self, kind, valid, reply, what):
        sent_ok = bool(reply.get("ok"))
        counts = self.counts.setdefault(kind, [0, 0])
        counts[0] += 1
        if valid:
            self.valid += 1
            if sent_ok:
                counts[1] += 1
            else:
                self.valid_failed += 1
                self.fail(f"a valid command was refused: {_short(what)} → {_short(reply.get('error', reply))}")
        else:
            self.invalid += 1
            if sent_ok:
                self.invalid_accepted += 1
                self.fail(f"an invalid command was accepted: {_short(what)} → {_short(reply)}")
            else:
                counts[1] += 1
        return reply

    def fail(self, sentence):
        # The first fifty, said and kept; the counts hold the rest.
        if len(self.failures) < 50:
            self.failures.append(f"{self.elapsed():.1f} s: {sentence}")
            print(f"soak: {self.elapsed():.1f} s: {sentence}", file=sys.stderr, flush=True)

    def command(self, kind, body, valid=True):
        body = dict(v=1, **body)
        return self.record(kind, valid, self.host.json(body), json.dumps(body))

    def refused_text(self, kind, text):
        return self.record(kind, False, self.host.json(text, _short(text)), text)

    def refused_packet(self, kind, packet):
        address, params = self.host.exchange(packet, f"a {kind} packet {packet[:40]!r}")
        ok = address == "/fxhost/json" and params and '"ok":true' in str(params[0]).replace(" ", "")
        reply = {"ok": ok, "osc": address, "error": " ".join(str(p) for p in params)}
        if address not in ("/fxhost/error", "/fxhost/json"):
            reply["ok"] = True               # anything but a refusal counts as accepted
        return self.record(kind, False, reply, f"{kind} {packet[:60]!r}")

    # What the session is

    def status(self, kind="status"):
        reply = self.command(kind, {"cmd": "status"})
        return reply.get("status", {})

    def learn_session(self):
        state = self.command("state", {"cmd": "state"}).get("state", {})
        self.plugins = {}
        for node in state.get("nodes", []):
            if node.get("kind") != "plugin":
                continue
            parameters = [p for p in node.get("parameters", [])
                          if (node["name"], p["symbol"]) != WATCHED]
            self.plugins[node["name"]] = {"parameters": parameters, "presets": node.get("presets", [])}
        self.scenes = [scene["name"] for scene in state.get("scenes", [])]
        self.sync_wiring(state)
        if not self.plugins or not self.scenes:
            raise Stop("fxhost's state lists no plugins or no scenes: is this the soak's patch?")
        with open(self.options.patch) as patch:
            self.watched_value = float(WATCH_LINE.search(patch.read()).group(2))

    def sync_wiring(self, state=None):
        if state is None:
            state = self.command("state", {"cmd": "state"}).get("state", {})
        present = {(c["from"], c["to"]) for c in state.get("connections", [])}
        self.connected = {pair: pair in present for pair in TOGGLED}

    def taps(self):
        """The taps recording or paused, by node, and deletes finished takes."""
        active = {}
        for tap in self.status("status").get("taps", []):
            if tap["state"] == "finished":
                self.delete_take(tap["file"])
            else:
                active.setdefault(tap["node"], tap)
        return active

    def delete_take(self, path):
        # Takes are numbered, never overwritten: old ones go, or a long soak would fill the disk.
        if path.startswith(self.folder + os.sep) and os.path.exists(path):
            os.unlink(path)
            self.deleted_takes += 1

    # Valid commands

    def random_value(self, parameter):
        if parameter.get("options"):
            return self.rng.choice(parameter["options"])["label"]
        if parameter.get("toggle"):
            return self.rng.random() < 0.5
        low, high = parameter["minimum"], parameter["maximum"]
        if parameter.get("integer"):
            return self.rng.randint(math.ceil(low), math.floor(high))
        if parameter.get("scale") == "log" and low > 0:
            value = math.exp(self.rng.uniform(math.log(low), math.log(high)))
        else:
            value = self.rng.uniform(low, high)
        return min(max(round(value, 4), low), high)

    def valid_set(self):
        node = self.rng.choice([n for n, p in self.plugins.items() if p["parameters"]])
        parameter = self.rng.choice(self.plugins[node]["parameters"])
        self.command("set", {"cmd": "set", "node": node, "param": parameter["symbol"],
                             "value": self.random_value(parameter)})

    def valid_property(self):
        node, param, value = self.rng.choice([
            ("cab", "ir", self.rng.choice(["ir-a.wav", "ir-b.wav"])),
            ("sampler", "sample", self.rng.choice(["pluck-a.wav", "pluck-b.wav"])),
            ("sampler", "gain", round(self.rng.uniform(-20, 20), 2)),
        ])
        self.command("property", {"cmd": "set", "node": node, "param": param, "value": value})

    def valid_bypass(self):
        self.command("bypass", {"cmd": "bypass", "node": self.rng.choice(list(self.plugins)),
                                "on": self.rng.random() < 0.4})

    def valid_scene(self):
        self.command("scene", {"cmd": "scene", "name": self.rng.choice(self.scenes)})

    def valid_preset(self):
        node = self.rng.choice([n for n, p in self.plugins.items() if p["presets"]])
        self.command("preset", {"cmd": "preset", "node": node, "name": self.rng.choice(self.plugins[node]["presets"])})

    def valid_wiring(self):
        pair = self.rng.choice(TOGGLED)
        if self.connected[pair]:
            if self.command("disconnect", {"cmd": "disconnect", "from": pair[0], "to": pair[1]}).get("ok"):
                self.connected[pair] = False
        elif self.command("connect", {"cmd": "connect", "from": pair[0], "to": pair[1],
                                        "gainDB": round(self.rng.uniform(-30, 0), 1)}).get("ok"):
            self.connected[pair] = True

    def valid_tap(self):
        active = self.taps()
        choices = []
        if any(t["state"] == "recording" for t in active.values()):
            choices.append("pause")
        if any(t["state"] == "paused" for t in active.values()):
            choices += ["resume", "resume"]
        rotate = time.monotonic() - self.last_untap >= ROTATE_SECONDS * self.rng.uniform(0.5, 1.5)
        if active and rotate:
            choices.append("untap")
        if len(active) < min(MAX_TAPS, len(CANONICAL_TAPS) + 1) or (len(active) < MAX_TAPS and rotate):
            choices.append("tap")
        if not choices:
            return self.status("status")
        choice = self.rng.choice(choices)
        if choice == "tap":
            node = self.rng.choice([n for n in TAPPABLE if n not in active])
            self.command("tap", {"cmd": "tap", "at": node, "file": f"takes/{node}.flac"})
        elif choice == "untap":
            node = self.rng.choice(list(active))
            self.untap(node)
        else:
            state = "recording" if choice == "pause" else "paused"
            node = self.rng.choice([n for n, t in active.items() if t["state"] == state])
            self.command(f"tap.{choice}", {"cmd": f"tap.{choice}", "at": node})

    def untap(self, node):
        self.last_untap = time.monotonic()
        reply = self.command("untap", {"cmd": "untap", "at": node})
        for change in reply.get("changes", []):
            if change.get("event") == "tap.stopped":
                self.delete_take(change.get("file", ""))

    def valid_tempo(self):
        if self.rng.random() < 0.8:
            self.command("tempo", {"cmd": "tempo", "bpm": self.rng.randint(60, 180)})
        else:
            self.rolling = not self.rolling
            self.command("transport", {"cmd": "transport", "rolling": self.rolling})

    def valid_query(self):
        if self.rng.random() < 0.5:
            self.status("status")
        elif self.rng.random() < 0.5:
            self.command("state", {"cmd": "state", "node": self.rng.choice(list(self.plugins))})
        else:
            self.command("map", {"cmd": "map"})

    def bounce(self):
        """A short range, forced over the previous bounce; then waits for it to end."""
        path = os.path.join(self.folder, "bounce.wav")
        before = os.stat(path) if os.path.exists(path) else None
        start = round(self.rng.uniform(0, 4), 2)
        self.command("bounce", {"cmd": "bounce", "file": "bounce.wav", "from": start,
                                "to": round(start + self.rng.uniform(0.5, 2), 2), "force": True})
        deadline = time.monotonic() + 120
        while "bounce" in self.status("status (bounce)"):
            if time.monotonic() > deadline:
                raise Stop("a bounce of at most 2 s of audio did not end within 120 s")
            time.sleep(0.1)
        after = os.stat(path) if os.path.exists(path) else None
        if after is None or after.st_size <= 44 or (before and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)):
            self.valid_failed += 1
            self.fail("a bounce ended without writing bounce.wav")

    def watch_edit(self):
        """Rewrites the watched value in the patch file, as an editor saves, and waits until it plays."""
        value = self.watched_value
        while value == self.watched_value:
            value = round(self.rng.uniform(-20, -1) * 2) / 2
        with open(self.options.patch) as patch:
            text = patch.read()
        text = WATCH_LINE.sub(lambda m: f"{m.group(1)}{value:g}{m.group(3)}", text, count=1)
        temporary = self.options.patch + ".soak-tmp"
        with open(temporary, "w") as patch:
            patch.write(text)
        os.replace(temporary, self.options.patch)
        self.watched_value = value
        counts = self.counts.setdefault("watch", [0, 0])
        counts[0] += 1
        self.valid += 1
        deadline = time.monotonic() + 15
        while True:
            gain = self.status("status (watch)").get("parameters", {}).get(WATCHED[0], {}).get(WATCHED[1])
            if gain is not None and abs(gain - value) < 1e-3:
                counts[1] += 1
                break
            if time.monotonic() > deadline:
                self.valid_failed += 1
                self.fail(f"a --watch edit of {WATCHED[0]}:{WATCHED[1]} to {value:g} did not play within 15 s (it is {gain})")
                break
            time.sleep(0.1)
        self.sync_wiring()                   # a reload puts the file's wiring back

    # Invalid commands

    def invalid_command(self):
        plugin = self.rng.choice([n for n, p in self.plugins.items() if p["parameters"]])
        ranged = [p for p in self.plugins[plugin]["parameters"]
                  if not p.get("toggle") and not p.get("options")]
        junk_name = "".join(self.rng.choice(string.ascii_lowercase) for _ in range(self.rng.randint(1, 12)))
        kind = self.rng.choice(["range", "node", "param", "label", "bypass", "scene", "preset", "gain",
                                "cycle", "twice", "unconnected", "path", "untapped", "bounce", "tempo",
                                "json", "json", "json", "osc", "osc", "osc"])
        if kind == "range" and ranged:
            parameter = self.rng.choice(ranged)
            low, high = parameter["minimum"], parameter["maximum"]
            beyond = max(1.0, (high - low) * self.rng.uniform(0.05, 10))
            value = high + beyond if self.rng.random() < 0.5 else low - beyond
            if parameter.get("integer"):
                value = math.floor(value) if value < low else math.ceil(value)
            self.command("invalid: out of range", {"cmd": "set", "node": plugin, "param": parameter["symbol"],
                                                   "value": value}, valid=False)
        elif kind == "node":
            self.command("invalid: unknown node", {"cmd": "set", "node": "no-" + junk_name, "param": "gain",
                                                   "value": 0}, valid=False)
        elif kind == "param":
            self.command("invalid: unknown parameter", {"cmd": "set", "node": plugin, "param": "zz" + junk_name,
                                                        "value": 0}, valid=False)
        elif kind == "label" and ranged:
            self.command("invalid: label for a number", {"cmd": "set", "node": plugin,
                                                         "param": self.rng.choice(ranged)["symbol"],
                                                         "value": junk_name}, valid=False)
        elif kind == "bypass":
            self.command("invalid: unknown node", {"cmd": "bypass", "node": "no-" + junk_name, "on": True}, valid=False)
        elif kind == "scene":
            self.command("invalid: unknown scene", {"cmd": "scene", "name": "no-" + junk_name}, valid=False)
        elif kind == "preset":
            node = self.rng.choice([n for n, p in self.plugins.items() if p["presets"]])
            self.command("invalid: unknown preset", {"cmd": "preset", "node": node, "name": "No " + junk_name},
                         valid=False)
        elif kind == "gain":
            self.command("invalid: gain above +40 dB", {"cmd": "connect", "from": "metro", "to": "verb",
                                                         "gainDB": round(self.rng.uniform(40.5, 1e6), 1)}, valid=False)
        elif kind == "cycle":
            self.command("invalid: a cycle", {"cmd": "connect", "from": "comp", "to": self.rng.choice(["eq", "bus"])},
                         valid=False)
        elif kind == "twice":
            self.command("invalid: connected twice", {"cmd": "connect", "from": "eq", "to": "bus"}, valid=False)
        elif kind == "unconnected":
            self.command("invalid: not connected", {"cmd": "disconnect", "from": "metro", "to": UNTAPPED},
                         valid=False)
        elif kind == "path":
            self.command("invalid: confined path", {"cmd": "tap", "at": "eq", "file": self.rng.choice(
                ["../escape.flac", "/tmp/soak-escape.wav", "takes/x.txt", "takes/../../x.wav"])}, valid=False)
        elif kind == "untapped":
            self.command("invalid: no tap", {"cmd": self.rng.choice(["tap.pause", "tap.resume", "untap"]),
                                             "at": UNTAPPED}, valid=False)
        elif kind == "bounce":
            if self.rng.random() < 0.5:
                self.command("invalid: bounce over a file", {"cmd": "bounce", "file": "exists.wav"}, valid=False)
            else:
                # Without `to`, a start past the end of the sources is refused (with `to`, any range in 24 hours plays).
                self.command("invalid: bounce range", {"cmd": "bounce", "file": "never.wav", "from": 86000},
                             valid=False)
        elif kind == "tempo":
            self.command("invalid: tempo", {"cmd": "tempo", "bpm": self.rng.choice([0, 5, 19, 301, 1000, -120])},
                         valid=False)
        elif kind == "json":
            self.refused_text("invalid: JSON", self.rng.choice([
                "", "{", "null", "[]", '"status"', "{\"v\": 1, \"cmd\": \"set\"", "{\"v\": 2, \"cmd\": \"status\"}",
                "{\"v\": 1, \"cmd\": \"" + junk_name + "\"}", "{\"v\": 1, \"cmd\": \"status\", \"" + junk_name + "\": 1}",
                "{\"v\": 1, \"cmd\": \"set\", \"node\": \"amp\", \"param\": \"gain\", \"value\": NaN}",
                "{\"v\": 1, \"cmd\": \"set\", \"node\": \"amp\", \"param\": \"gain\", \"value\": 1e999}",
                "[" * self.rng.randint(100, 5000), "{\"a\":" * self.rng.randint(100, 3000),
                "{\"v\": 1, \"cmd\": \"set\", \"node\": \"" + "n" * 20000 + "\", \"param\": \"x\", \"value\": 1}",
                "".join(chr(self.rng.randint(1, 0x2FF)) for _ in range(self.rng.randint(1, 300))),
            ]))
        else:
            self.refused_packet("invalid: OSC packet", self.rng.choice([
                bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(1, 512))),
                b"/fxhost/set\0,ss",
                # A bundle whose element claims more bytes than follow (an empty bundle is valid, and unanswered).
                b"#bundle\0" + bytes(self.rng.getrandbits(8) for _ in range(8)) + (41).to_bytes(4, "big")
                + bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(0, 40))),
                _osc("/fxhost/" + junk_name, 1.0),
                _osc("/fxhost/bypass", "amp", "on"),
                _osc("/fxhost/set", "amp"),
                _osc("/fxhost/json", 12),
            ]))

    # Sampling

    def proc(self):
        """fxhost's resident set (KiB), open descriptors and threads, from /proc: the
        supervisor's and its engine process's together (the engine is its child)."""
        rss = fds = threads = 0
        for pid in [self.options.pid] + self.children():
            try:
                with open(f"/proc/{pid}/status") as lines:
                    for line in lines:
                        if line.startswith("VmRSS:"):
                            rss += int(line.split()[1])
                        elif line.startswith("Threads:"):
                            threads += int(line.split()[1])
                fds += len(os.listdir(f"/proc/{pid}/fd"))
            except OSError:
                if pid == self.options.pid:
                    raise Stop("fxhost exited")
        return rss, fds, threads

    def children(self):
        """The processes fxhost started (its engine), by their parent in /proc."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(") ", 1)[-1].split()
            except OSError:
                continue
            if len(fields) > 1 and fields[1] == str(self.options.pid):
                found.append(int(entry))
        return found

    def sample(self, kind):
        status = self.status(f"status ({kind})")
        rss, fds, threads = self.proc()
        row = {"seconds": round(self.elapsed(), 1), "kind": kind, "rss_kib": rss, "fds": fds, "threads": threads,
               "xruns": status.get("xruns"), "dsp_load_percent": round(status.get("dspLoadPercent", 0), 2),
               "commands": self.valid + self.invalid, "valid": self.valid, "invalid": self.invalid,
               "valid_failed": self.valid_failed, "invalid_accepted": self.invalid_accepted}
        self.rows.append(row)
        with open(self.options.csv, "a", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(row))
            if out.tell() == 0:
                writer.writeheader()
            writer.writerow(row)
        return row

    def checkpoint(self, kind):
        """The same state each time: no bounce, the patch's wiring, its two taps afresh, a steady count."""
        self.sync_wiring()
        for pair, on in self.connected.items():
            if on:
                self.command("disconnect", {"cmd": "disconnect", "from": pair[0], "to": pair[1]})
                self.connected[pair] = False
        if not self.rolling:
            self.rolling = True
            self.command("transport", {"cmd": "transport", "rolling": True})
        for node in list(self.taps()):
            self.untap(node)
        for node in CANONICAL_TAPS:
            self.command("tap", {"cmd": "tap", "at": node, "file": f"takes/{node}.flac"})
        # Threads that end by themselves (a bounce's, a stopped tap's writer) are given time to.
        previous, deadline = None, time.monotonic() + 20
        while time.monotonic() < deadline:
            time.sleep(1)
            current = self.proc()
            if current[1:] == (previous or (None,))[1:]:
                break
            previous = current
        return self.sample(kind)

    # The run

    def run(self):
        options = self.options
        deadline = time.monotonic() + 60
        while True:
            try:
                self.host.timeout = 2
                self.host.json({"v": 1, "cmd": "status"}, "the first status")
                break
            except Stop:
                if time.monotonic() > deadline or not self.host.alive():
                    raise Stop("fxhost did not answer OSC within 60 s of starting")
        self.host.timeout = options.reply_timeout
        self.learn_session()
        valid_actions = [(self.valid_set, 40), (self.valid_bypass, 10), (self.valid_scene, 5), (self.valid_preset, 3),
                         (self.valid_wiring, 6), (self.valid_tap, 6), (self.valid_property, 2), (self.valid_tempo, 2),
                         (self.valid_query, 5)]
        actions, weights = zip(*valid_actions)
        period = 1.0 / options.rate
        next_send = next_sample = time.monotonic()
        next_bounce = self.started + options.bounce_every * self.rng.uniform(0.3, 0.6)
        next_watch = self.started + options.watch_every * self.rng.uniform(0.3, 0.6)
        warmed_up = False
        # Everything the driver does happens once before the baseline, so what
        # is made on first use (a bounce's instances) is not taken for a leak.
        first_use = set(a.__name__ for a in actions)
        while True:
            now = time.monotonic()
            elapsed = now - self.started
            if elapsed >= options.duration:
                break
            if not warmed_up and elapsed >= options.warmup:
                for action in actions:
                    if action.__name__ in first_use:
                        action()
                if self.counts.get("bounce", [0])[0] == 0:
                    self.bounce()
                if self.counts.get("watch", [0])[0] == 0:
                    self.watch_edit()
                self.checkpoint("checkpoint-start")
                warmed_up = True
                next_sample = time.monotonic() + options.interval
                continue
            if now >= next_sample:
                self.sample("sample")
                next_sample += options.interval
                continue
            if now >= next_bounce:
                self.bounce()
                next_bounce = time.monotonic() + options.bounce_every * self.rng.uniform(0.5, 1.5)
                next_send = time.monotonic()
                continue
            if now >= next_watch:
                self.watch_edit()
                next_watch = time.monotonic() + options.watch_every * self.rng.uniform(0.5, 1.5)
                next_send = time.monotonic()
                continue
            if now < next_send:
                time.sleep(max(0.0, min(next_send, next_sample) - now))
                continue
            if self.rng.random() < options.invalid_share:
                self.invalid_command()
            else:
                action = self.rng.choices(actions, weights)[0]
                first_use.discard(action.__name__)
                action()
            # A steady rate: after a slow reply, carry on from now rather than catch up in a burst.
            next_send = max(next_send + period, time.monotonic() - period)
        self.checkpoint("checkpoint-end")

    def summary(self, stopped):
        elapsed = self.elapsed()
        return {"seed": self.options.seed, "seconds": round(elapsed, 1),
                "commands": self.valid + self.invalid, "valid": self.valid, "invalid": self.invalid,
                "commandsPerSecond": round((self.valid + self.invalid) / max(elapsed, 1e-9), 2),
                "validFailed": self.valid_failed, "invalidAccepted": self.invalid_accepted,
                "takesDeleted": self.deleted_takes, "stopped": stopped,
                "byKind": {kind: {"sent": c[0], "asExpected": c[1]} for kind, c in sorted(self.counts.items())},
                "failures": self.failures}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Exits 0 when every reply was as expected, 1 when some were not, "
                                            "3 when fxhost stopped answering or exited.")
    parser.add_argument("--port", type=int, required=True, help="fxhost's OSC port on 127.0.0.1")
    parser.add_argument("--pid", type=int, required=True, help="fxhost's process id, for /proc")
    parser.add_argument("--patch", required=True, help="the patch file fxhost follows with --watch")
    parser.add_argument("--duration", type=float, required=True, help="seconds to drive")
    parser.add_argument("--warmup", type=float, required=True, help="seconds before the first checkpoint")
    parser.add_argument("--interval", type=float, default=10, help="seconds between samples")
    parser.add_argument("--rate", type=float, default=20, help="commands a second")
    parser.add_argument("--invalid-share", type=float, default=0.3, help="the share of commands that are invalid")
    parser.add_argument("--bounce-every", type=float, default=40, help="seconds between bounces, on average")
    parser.add_argument("--watch-every", type=float, default=15, help="seconds between edits of the patch file")
    parser.add_argument("--reply-timeout", type=float, default=20, help="seconds fxhost may take to answer")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--summary", required=True, help="where to write the driver's counts as JSON")
    options = parser.parse_args()
    if options.seed is None:
        options.seed = random.SystemRandom().randrange(2 ** 32)
    soak = Soak(options)
    stopped = None

    def interrupted(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)
    try:
        soak.run()
        soak.host.timeout = 30
        reply = soak.host.json({"v": 1, "cmd": "quit"}, "quit")
        if not reply.get("quit"):
            stopped = f"fxhost refused to quit: {_short(reply)}"
    except Stop as stop:
        stopped = str(stop)
    except KeyboardInterrupt:
        stopped = "the soak was interrupted"
    with open(options.summary, "w") as out:
        json.dump(soak.summary(stopped), out, indent=2)
    if stopped:
        print(f"soak: {stopped}", file=sys.stderr)
        return 3
    return 1 if soak.valid_failed or soak.invalid_accepted else 0


if __name__ == "__main__":
    sys.exit(main())
