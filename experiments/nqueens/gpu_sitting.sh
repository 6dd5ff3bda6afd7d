#!/usr/bin/env bash
# One GPU sitting on a bare machine, from the repository's root:
#
#     bash experiments/nqueens/gpu_sitting.sh [gpu_sitting.py's options...]
#
# A bare GPU machine may have the GPU's driver but no Vulkan loader, and nothing can be
# installed there from a network. So, in order, each step stopping the sitting if it fails:
#
#  1. if no Vulkan loader is installed (`ldconfig -p` lists no libvulkan.so.1), the Debian
#     packages in $GL (default .gl/, downloaded beforehand on another machine: see
#     experiments/README.md) are unpacked onto / with `dpkg -x` and ldconfig is run;
#  2. if the loader finds no driver (the binary says so), VK_DRIVER_FILES is pointed at
#     NVIDIA's Vulkan driver file (the first of $NVIDIA_ICD and the usual places that exists);
#  3. `nqueens count 8 --device gpu --stats` must count 92 on an adapter that is not a
#     software device (unless --allow-software is among the options: the project's own dry
#     run on Mesa's software device);
#  4. experiments/nqueens/gpu_sitting.py runs with the options given, the binary $BIN (default
#     target/release/chess-puzzles, built beforehand with `cargo build --release`).
#
# Nothing here builds or fetches anything; another counter to time beside ours is given to
# the sitting by its command (--other), built by whoever runs the sitting.
set -euo pipefail

PATH=$PATH:/usr/sbin:/sbin # ldconfig, for a user whose PATH lacks it
BIN=${BIN:-target/release/chess-puzzles}
GL=${GL:-.gl}
PYTHON=${PYTHON:-python3}
say() { echo "gpu_sitting.sh: $*" >&2; }

allow_software=
for arg in "$@"; do
    [[ $arg == --allow-software ]] && allow_software=1
done

if [[ ! -x $BIN ]]; then
    say "no binary at $BIN: build it with 'cargo build --release' (or set BIN)"
    exit 2
fi

# 1. The Vulkan loader. The library list is read whole before it is searched: `ldconfig -p |
# grep -q` fails under pipefail once the list outgrows a pipe's buffer (grep stops reading at
# the first match and ldconfig dies of SIGPIPE), which is what a machine with many libraries
# (a CI machine with a browser installed) has.
has_loader() {
    local libs
    libs=$(ldconfig -p)
    [[ $libs == *libvulkan.so.1* ]]
}
if has_loader; then
    say "Vulkan loader: installed"
else
    shopt -s nullglob
    debs=("$GL"/*.deb)
    shopt -u nullglob
    if [[ ${#debs[@]} -eq 0 ]]; then
        say "no Vulkan loader installed and no packages in $GL/ to unpack (see experiments/README.md)"
        exit 2
    fi
    for f in "${debs[@]}"; do
        dpkg -x "$f" /
    done
    ldconfig
    if ! has_loader; then
        say "unpacked ${#debs[@]} packages from $GL/, still no libvulkan.so.1"
        exit 2
    fi
    say "Vulkan loader: unpacked ${#debs[@]} packages from $GL/"
fi

# The adapter the binary picks, as `--stats` names it; sets $probe and $probe_rc.
probe() {
    local software=()
    [[ -n $allow_software ]] && software=(--allow-software)
    set +e
    probe=$("$BIN" nqueens count 8 --device gpu --stats "${software[@]}" 2>&1)
    probe_rc=$?
    set -e
}

# 2. A driver.
probe
if [[ $probe_rc -ne 0 && -z ${VK_DRIVER_FILES:-} ]] \
    && grep -qE 'no adapter|only a software device' <<<"$probe"; then
    icd=
    places=(${NVIDIA_ICD:-} /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
        /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json)
    for candidate in "${places[@]}"; do
        if [[ -f $candidate ]]; then
            icd=$candidate
            break
        fi
    done
    if [[ -z $icd ]]; then
        say "the Vulkan loader found no GPU driver, and there is no NVIDIA driver file" \
            "(${places[*]}); the binary says: $probe"
        exit 2
    fi
    export VK_DRIVER_FILES=$icd
    egl=${icd%/vulkan/icd.d/nvidia_icd.json}/glvnd/egl_vendor.d/10_nvidia.json
    [[ -f $egl ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$egl
    say "no driver found by the loader: VK_DRIVER_FILES=$icd"
    probe
fi

# 3. A count on an adapter that is not a software device.
adapter=$(grep -m1 '^gpu: ' <<<"$probe" || true)
if [[ $probe_rc -ne 0 ]] || ! grep -qx 92 <<<"$probe"; then
    say "nqueens count 8 --device gpu failed (exit $probe_rc): $probe"
    exit 2
fi
if [[ $adapter == *"software)"* && -z $allow_software ]]; then
    say "the adapter is a software device, not a GPU: ${adapter#gpu: }"
    exit 2
fi
say "adapter: ${adapter#gpu: }"

# 4. The sitting.
exec "$PYTHON" experiments/nqueens/gpu_sitting.py --bin "$BIN" "$@"
