#!/bin/sh
# tests/run: once
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
# And the tool itself: the script's status and $OUT come back, v1 is off.
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
[ -n "$why" ] || [ "$(id -u)" -eq 0 ] || why="the kernel's modules and /boot need root to read"
if [ -n "$why" ]; then
	for m in tool session mglru bare; do skip "$T $m" "$why"; done
	exit 0
fi

tmp=$(mktemp -d /tmp/lrutop-vm.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
vm() { tools/vm/run -q --kernel "$kernel" --lrutop "$LRUTOP" --timeout "${VM_TIMEOUT:-300}" "$@"; }

# 1. the tool: the script's status, $OUT back on the host, no cgroup v1
vm --out "$tmp/o1" -c 'grep -q cgroup_no_v1=all /proc/cmdline && ! grep -q " cgroup " /proc/mounts &&
	grep -q "^cgroup2 /sys/fs/cgroup " /proc/mounts && echo hi >"$OUT/x"; exit 7' >"$tmp/out" 2>"$tmp/err"
rc=$?
check "$T tool: the script's exit status (7) comes back" '[ "$rc" -eq 7 ]' \
	"exit $rc: $(tr '\n' '|' <"$tmp/err" | cut -c1-400)"
check "$T tool: cgroup2 only, and \$OUT's files come back" '[ "$(cat "$tmp/o1/x" 2>/dev/null)" = hi ]' \
	"$(ls -A "$tmp/o1" 2>&1 | tr '\n' ' ')"

# 2. the guest scenarios: guest.sh prints the ok / not ok lines
for m in session mglru bare; do
	case $m in
	session) a="" ;;
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
