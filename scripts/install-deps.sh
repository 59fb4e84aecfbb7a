#!/usr/bin/env bash
# Installs the Debian packages fxhost builds against, runs with, and tests
# against (plugins and reference hosts) — only those that are missing.
set -euo pipefail

packages=(
  pkg-config liblilv-dev lv2-dev libjack-jackd2-dev libsndfile1-dev jackd2   # build and run (jackd2 also brings jack_midiseq, the live MIDI tests' sequencer)
  lilv-utils lv2-examples mda-lv2 swh-lv2 x42-plugins                        # plugins the presets and tests use
  calf-plugins                                                               # Vintage Delay (time:beatsPerMinute); instruments and MIDI effects for the MIDI walk
  lv2file ecasound sox                                                       # reference hosts, test signals
  graphviz                                                                   # checks what `fxhost graph` writes
  liblo-tools                                                                # oscsend/oscdump: an OSC client no one here wrote
  tmux                                                                       # a terminal the console prompt tests type into
  pipewire pipewire-bin pipewire-jack                                        # PipeWire's JACK (pw-jack), pw-metadata: the live tests on PipeWire
  chromium chromium-driver python3-selenium                                  # a real browser, headless, driving the --web page in its tests
  python3-jack-client                                                        # JACK-Client for Debian's python3, which runs the browser scripts: they send MIDI too
  systemd                                                                    # systemd-analyze verify, systemd's own reader of contrib/'s units
)

# python-osc: a second OSC client for the OSC tests and the soak's driver (Python, not Debian-packaged here).
python3 -c 'import pythonosc' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore python-osc
# JACK-Client: a JACK MIDI client no one here wrote, sending controllers to `fxhost run` in the MIDI tests.
python3 -c 'import jack' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore JACK-Client
# websocket-client: a WebSocket client no one here wrote, for the --web events stream tests.
python3 -c 'import websocket' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore websocket-client
# mido: writes the Standard MIDI Files the MIDI file reader is tested against, and says when their events play.
python3 -c 'import mido' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore mido
# matplotlib: plots the soak's samples (scripts/soak.sh).
python3 -c 'import matplotlib' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore matplotlib

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
# jackd2 asks whether to enable realtime scheduling; answer for it.
echo "jackd2 jackd/tweak_rt_limits boolean false" | "${sudo[@]}" debconf-set-selections
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
