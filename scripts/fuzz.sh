#!/usr/bin/env bash
# Builds and runs one libFuzzer target: scripts/fuzz.sh TARGET SECONDS.
#
# TARGET is a file Fuzz/TARGET.swift exporting LLVMFuzzerTestOneInput; its
# seed corpus is Fuzz/corpus/TARGET. The modules it calls (Yams, HostCore,
# JackIO, LiveControl) are compiled once with coverage and AddressSanitizer
# into .build/fuzz and rebuilt only when their sources change. New inputs the
# fuzzer finds go to .build/fuzz/corpus/TARGET (never into the repository);
# a crash, trap, leak or hang (-timeout) leaves its input in
# .build/fuzz/findings/TARGET and makes the script exit non-zero.
#
# `scripts/fuzz.sh all SECONDS` runs every target (FUZZ_JOBS at a time) and
# fails if any finds something. Options after SECONDS go to libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."
# A Swift trap is a finding for libFuzzer to report and save, not for Swift's
# backtracer (which can outlive the crashed process and hold its output open).
export SWIFT_BACKTRACE=enable=no

target=${1:?usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options]}
seconds=${2:-10}
shift 2 || shift $#

if [[ $target == all ]]; then
    # Every target: built one after another (they share modules), then run
    # FUZZ_JOBS at a time (default 1), each one's output in
    # .build/fuzz/logs/TARGET.log, and a line per target here.
    targets=()
    for file in Fuzz/*.swift; do targets+=("$(basename "$file" .swift)"); done
    for name in "${targets[@]}"; do FUZZ_BUILD_ONLY=1 "$0" "$name" 0; done
    mkdir -p .build/fuzz/logs
    printf '%s\n' "${targets[@]}" | xargs -P "${FUZZ_JOBS:-1}" -I{} sh -c \
        '"$0" {} "$@" > .build/fuzz/logs/{}.log 2>&1; echo "$?" > .build/fuzz/logs/{}.status' "$0" "$seconds" "$@"
    status=0
    for name in "${targets[@]}"; do
        result=$(cat ".build/fuzz/logs/$name.status")
        summary=$(grep -E '^#[0-9]+[[:space:]]+DONE' ".build/fuzz/logs/$name.log" | tail -1 || true)
        if [[ $result == 0 ]]; then
            echo "fuzz $name: ok ${summary#*DONE }"
        else
            status=1
            echo "fuzz $name: FAILED (exit $result); the input is in .build/fuzz/findings/$name:"
            grep -v -E '^#[0-9]+|NEW_FUNC|^"' ".build/fuzz/logs/$name.log" | tail -40
        fi
    done
    exit $status
fi
[[ -f Fuzz/$target.swift ]] || { echo "fuzz.sh: no target Fuzz/$target.swift" >&2; exit 2; }

out=.build/fuzz
mods=$out/modules
mkdir -p "$mods" "$out/include/CCoreShim" "$out/include/CJackShim" "$out/bin"

swiftflags=(-O -sanitize=fuzzer,address -parse-as-library -package-name fxhost -swift-version 5
            -I "$mods" -I "$out/include/CCoreShim" -I "$out/include/CJackShim"
            -I Sources/CSndFile -I Sources/CJack -I .build/checkouts/Yams/Sources/CYaml/include
            -D SWIFT_PACKAGE -Xcc -DYAML_DECLARE_STATIC)
cflags=(-O1 -fsanitize=fuzzer-no-link,address -DYAML_DECLARE_STATIC)

# SwiftPM makes these module maps itself for C targets with an include folder.
printf 'module CCoreShim {\n    header "%s"\n    export *\n}\n' \
    "$PWD/Sources/CCoreShim/include/CCoreShim.h" > "$out/include/CCoreShim/module.modulemap"
printf 'module CJackShim {\n    header "%s"\n    export *\n}\n' \
    "$PWD/Sources/CJackShim/include/CJackShim.h" > "$out/include/CJackShim/module.modulemap"

# stale OUTPUT INPUT...: true when OUTPUT is missing or older than an input.
stale() {
    local output=$1; shift
    [[ ! -f $output ]] && return 0
    [[ -n $(find "$@" -newer "$output" -print -quit) ]]
}

# c_object NAME SOURCE... : one object per C file, in $mods/NAME-*.o
c_objects() {
    local name=$1; shift
    for source in "$@"; do
        local object=$mods/$name-$(basename "$source" .c).o
        if stale "$object" "$source"; then
            echo "fuzz.sh: compiling $source" >&2
            clang "${cflags[@]}" -I "$(dirname "$source")/../include" -I "$(dirname "$source")/include" \
                -c "$source" -o "$object"
        fi
    done
}

# swift_module NAME FOLDER [MODULE...] : the module's object and .swiftmodule,
# in $mods, built again when FOLDER or a module it imports changed.
swift_module() {
    local name=$1 folder=$2; shift 2
    local imported=()
    for module in "$@"; do imported+=("$mods/$module.o"); done
    if stale "$mods/$name.o" "$folder" "${imported[@]}"; then
        echo "fuzz.sh: compiling module $name" >&2
        local sources=()
        mapfile -t sources < <(find "$folder" -name '*.swift' | sort)
        swiftc "${swiftflags[@]}" -module-name "$name" -wmo -num-threads 0 \
            -emit-module -emit-module-path "$mods/$name.swiftmodule" \
            -emit-object -o "$mods/$name.o" "${sources[@]}"
        # swiftc leaves an unchanged output untouched: mark it built now.
        touch "$mods/$name.o"
    fi
}

c_objects CYaml .build/checkouts/Yams/Sources/CYaml/src/*.c
c_objects CCoreShim Sources/CCoreShim/*.c
c_objects CJackShim Sources/CJackShim/*.c
swift_module Yams .build/checkouts/Yams/Sources/Yams
swift_module HostCore Sources/HostCore Yams
objects=("$mods"/CYaml-*.o "$mods"/CCoreShim-*.o "$mods/Yams.o" "$mods/HostCore.o")
libraries=(-lsndfile)
# A target that imports LiveControl needs the engine too (the protocol's commands name its types).
if grep -q '^import LiveControl' "Fuzz/$target.swift"; then
    swift_module JackIO Sources/JackIO HostCore
    swift_module LiveControl Sources/LiveControl HostCore JackIO
    objects+=("$mods"/CJackShim-*.o "$mods/JackIO.o" "$mods/LiveControl.o")
    libraries+=(-ljack)
fi

# Test helpers a target shares with the tests, named in its `// fuzz-sources:` line (not copied).
mapfile -t shared < <(sed -n 's|^// fuzz-sources: ||p' "Fuzz/$target.swift" | tr ' ' '\n' | sed '/^$/d')
binary=$out/bin/$target
if stale "$binary" "Fuzz/$target.swift" "${shared[@]}" "${objects[@]}"; then
    echo "fuzz.sh: linking $binary" >&2
    swiftc "${swiftflags[@]}" -module-name "fuzz_$target" "Fuzz/$target.swift" "${shared[@]}" "${objects[@]}" \
        "${libraries[@]}" -o "$binary" 2> >(grep -v 'Cannot export local symbol' >&2)
fi

[[ -n ${FUZZ_BUILD_ONLY:-} ]] && exit 0

corpus=$out/corpus/$target
findings=$out/findings/$target
mkdir -p "$corpus" "$findings"
echo "fuzz.sh: running $target for ${seconds}s" >&2
# New inputs go to the first folder; the seeds in Fuzz/corpus are only read.
# -timeout: an input that takes over 5 s is a hang; -rss_limit_mb: a leak
# or a runaway allocation is a finding too.
"$binary" "$corpus" "Fuzz/corpus/$target" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=8192 \
    -artifact_prefix="$findings/" -print_final_stats=1 "$@"
