#!/bin/sh
# tests/run: once
# tests/run: timeout 1800
# tests/run: vm
# cgroup v2 for real (issue 14 §2): Debian's kernel booted under qemu by
# tools/vm/run — cgroup v2 only, laid out as systemd lays it out, MGLRU on
# or off — and lrutop's scenarios asserted inside it by tests/vm/guest.sh:
#  - session: from /user.slice/user-0.slice/session-1.scope, --mem-limit 32M
#    (memory.max on the copy's cgroup, its file pages within 32 MiB),
#    --disk-limit 8M (io.max rbps, rw_cp at most 8.5 MiB/s), nothing left
#    and the controllers of the root, user.slice, user-0.slice as they were
#    after a success, a failed run and a SIGKILL (the next start), the
#    residency through the mincore reader (6.1 has no cachestat), MGLRU off;
#  - mglru: lru_gen on, a run works and the recording says so;
#  - bare: from the root cgroup with no controller enabled anywhere, the
#    limits apply and the root's cgroup.subtree_control is empty afterwards.
# And the tools: the script's status and $OUT come back, v1 is off; vm-run
# shapes the machine (512M, qemu throttling the disk to 30 MiB/s), brings the
# recording back and its notes say how it ran.
# Under TCG only functional facts are asserted (the throttle's upper bound
# is one: emulation only slows a copy down).
. "$(dirname "$0")/lib.sh"

T=vm
kernel=/boot/vmlinuz-6.1.0-57-amd64
[ -r "$kernel" ] || kernel=$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)
why=""
command -v qemu-system-x86_64 >/dev/null || why="no qemu-system-x86_64 (tools/deps: qemu-system-x86)"
[ -n "$why" ] || [ -r "${kernel:-/nonexistent}" ] || why="no kernel in /boot (tools/deps: linux-image-amd64)"
[ -n "$why" ] || command -v busybox >/dev/null || why="no busybox (tools/deps: busybox-static)"
[ -n "$why" ] || ! ldd "$(command -v busybox)" >/dev/null 2>&1 || why="busybox is not static (tools/deps: busybox-static)"
[ -n "$why" ] || [ -r "$kernel" ] || why="cannot read $kernel"
if [ -n "$why" ]; then
	for m in tool session mglru bare; do skip "$T $m" "$why"; done
	exit 0
fi

tmp=$(mktemp -d /tmp/lrutop-vm.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
vm() { tools/vm/run -q --kernel "$kernel" --lrutop "$LRUTOP" --timeout "${VM_TIMEOUT:-600}" "$@"; }

# 1. the tool and the session scenarios in one boot (a boot is the most of
# a run under TCG): guest.sh session from the session scope, then the
# tool's own facts, $OUT back on the host, no cgroup v1, and the script's
# status (7) coming back
# shellcheck disable=SC2016 # the guest's $OUT
vm --file tests/sh/lib.sh --file tests/vm/guest.sh --out "$tmp/session" -c 'sh /vm/in/guest.sh session || exit
	grep -q cgroup_no_v1=all /proc/cmdline && ! grep -q " cgroup " /proc/mounts &&
	grep -q "^cgroup2 /sys/fs/cgroup " /proc/mounts && echo hi >"$OUT/x"; exit 7' >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -E '^(ok|not ok|skip) - ' "$tmp/out"
check "$T tool: the script's exit status (7) comes back" '[ "$rc" -eq 7 ]' \
	"exit $rc: $(tr '\n' '|' <"$tmp/err" | cut -c1-400)"
check "$T tool: cgroup2 only, and \$OUT's files come back" '[ "$(cat "$tmp/session/x" 2>/dev/null)" = hi ]' \
	"$(ls -A "$tmp/session" 2>&1 | tr '\n' ' ')"
check "$T session: the guest ran every scenario to its end" 'grep -qx "# guest.sh session: done" "$tmp/out"' \
	"exit $rc; $(grep -Ev '^(ok|not ok|skip) - ' "$tmp/out" "$tmp/err" | tail -n 8 | tr '\n' '|' | cut -c1-600)"

# 2. the other guest scenarios: guest.sh prints the ok / not ok lines
for m in mglru bare; do
	case $m in
	mglru) a="--lru-gen y" ;;
	bare) a="--layout root" ;;
	esac
	# shellcheck disable=SC2086
	vm $a --file tests/sh/lib.sh --out "$tmp/$m" -- tests/vm/guest.sh "$m" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	grep -E '^(ok|not ok|skip) - ' "$tmp/out"
	check "$T $m: the guest ran every scenario to its end" \
		'[ "$rc" -eq 0 ] && grep -qx "# guest.sh $m: done" "$tmp/out"' \
		"exit $rc; $(grep -Ev '^(ok|not ok|skip) - ' "$tmp/out" "$tmp/err" | tail -n 8 | tr '\n' '|' | cut -c1-600)"
done
# a recording made in the guest replays on the host
# shellcheck disable=SC2034 # used in check's condition
f=$tmp/session/plain.jsonl
check "$T the guest's recording replays here" \
	'[ -s "$f" ] && "$LRUTOP" --replay "$f" --batch -q >/dev/null 2>"$tmp/err"' \
	"$(ls -A "$tmp/session" 2>&1 | tr '\n' ' '); $(head -c 300 "$tmp/err")"

# 3. tools/vm-run: the machine shaped as asked (512 MiB, the whole disk
# throttled by qemu to 30 MiB/s), the recording and results back here, the
# notes saying how it ran (TCG: emulated timings)
: >"$tmp/exists"
tools/vm-run --lrutop "$LRUTOP" -- -s rw_cp --record "$tmp/exists" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "$T vm-run: an existing --record FILE is refused before the VM boots" \
	'[ "$rc" -eq 125 ] && grep -q "already exists" "$tmp/err"' "exit $rc: $(head -c 300 "$tmp/err")"
tools/vm-run --kernel "$kernel" --lrutop "$LRUTOP" --mem 512M --disk-mbps 30 --timeout "${VM_TIMEOUT:-600}" \
	-- -q -s rw_cp --size 32M --record "$tmp/a.jsonl.gz" --results="$tmp/a.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "$T vm-run: exit 0, the recording and results came back" \
	'[ "$rc" -eq 0 ] && [ -s "$tmp/a.jsonl.gz" ] && [ "$(grep -c "^rw_cp," "$tmp/a.csv")" = 1 ]' \
	"exit $rc: $(tail -n 5 "$tmp/err" | tr '\n' '|')"
hdr=$(gzip -dc "$tmp/a.jsonl.gz" 2>/dev/null | head -n 1)
acc=$(printf '%s\n' "$hdr" | sed -n 's/.*"notes":"[^"]*vm-run: qemu \([a-z]*\),.*/\1/p')
check "$T vm-run: the recording's notes name the machine (qemu, 512M, 30 MiB/s)" \
	'printf "%s\n" "$hdr" | grep -q "\"notes\":\"[^\"]*vm-run: qemu [a-z]*, [^\"]*512M memory, 2 vCPUs, disk throttled by qemu to 30 MiB/s"' \
	"$(printf '%s' "$hdr" | head -c 600)"
if [ "$acc" = tcg ]; then
	check "$T vm-run: under TCG the notes and the output say the timings are emulated" \
		'printf "%s\n" "$hdr" | grep -q "TCG: timings are emulated" && grep -q "TCG: timings are emulated" "$tmp/out"' \
		"$(printf '%s' "$hdr" | head -c 600)"
else
	check "$T vm-run: with KVM no emulation note" '! printf "%s\n" "$hdr" | grep -q "emulated"' "$hdr"
fi
mbs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mbs") k = i; next } { print $k; exit }' "$tmp/a.csv" 2>/dev/null)
check "$T vm-run: qemu's throttle holds rw_cp to 30 MiB/s at most ($mbs)" \
	'awk -v m="$mbs" "BEGIN { exit !(m != \"\" && m + 0 > 0 && m + 0 <= 31.5) }"' "$(cat "$tmp/a.csv" 2>/dev/null)"
check "$T vm-run: the host's --compare reads the recording" \
	'"$LRUTOP" --compare "$tmp/a.jsonl.gz" "$tmp/a.jsonl.gz" >"$tmp/cmp" 2>&1 && grep -q "6.1" "$tmp/cmp"' \
	"$(head -c 300 "$tmp/cmp" 2>/dev/null)"
