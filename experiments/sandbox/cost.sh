#!/usr/bin/env bash
# Median time per run of `queens stress` (100 runs of a one-case input, the program the
# judge itself), five rounds each mode, taken in turn:
#   off   --sandbox off (the PID namespace and the cgroup alone);
#   auto  --sandbox auto (every part the system allows);
#   bwrap --sandbox off, each run wrapped in bubblewrap (its own user, PID, mount, network,
#         IPC and UTS namespaces, the system's folders read-only, a tmpfs /tmp, a /proc and a
#         /dev of its own, a clean environment): what a judge that leaves the sandbox to
#         bubblewrap pays. Skipped when bwrap is not installed (Debian's package bubblewrap).
# CP names the binary (default target/release/chess-puzzles); run it as an ordinary user
# through `setpriv --reuid USER --regid USER --clear-groups`.
CP=${CP:-target/release/chess-puzzles}
CP=$(readlink -f "$CP")
modes="off auto"
command -v bwrap >/dev/null && modes="$modes bwrap"
for round in 1 2 3 4 5; do
    for mode in $modes; do
        case $mode in
            bwrap) args=(--sandbox off -- bwrap --unshare-all --die-with-parent --clearenv
                         --ro-bind /usr /usr --ro-bind /etc /etc --symlink usr/lib /lib
                         --symlink usr/lib64 /lib64 --symlink usr/bin /bin --tmpfs /tmp
                         --ro-bind "$CP" "$CP" --proc /proc --dev /dev "$CP" queens) ;;
            *) args=(--sandbox "$mode" -- "$CP" queens) ;;
        esac
        start=$(date +%s%N)
        "$CP" queens stress --cases 100 --gen-args '--cases 1' "${args[@]}" >/dev/null 2>&1 ||
            echo "$mode failed" >&2
        end=$(date +%s%N)
        echo "$mode $(( (end - start) / 100000 ))"
    done
done | sort -k1,1 -k2,2n | awk '{ n[$1]++; v[$1, n[$1]] = $2 } END { for (m in n) printf "%s: median %.2f ms per run\n", m, v[m, 3] / 1000 }'
