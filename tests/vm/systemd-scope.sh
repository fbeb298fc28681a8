# Guest script, run by tests/sh/vm_systemd.sh in the same boot: lrutop's
# cgroups under a real systemd, from a login session's scope.  By hand:
#   LRUTOP=./lrutop tools/vm/systemd-guest run tests/vm/systemd-scope.sh
# (Debian 12, systemd as PID 1, root through `su -l` in
# /user.slice/user-0.slice/session-cN.scope).  Prints "ok - NAME" /
# "not ok - NAME" lines; exits 1 when any failed.
#  - --mem-limit 32M --disk-limit 8M: lrutop asks systemd for
#    lrutop-PID.scope (Delegate=yes) in user-0.slice, sits in its leaf
#    "monitor", the run cgroup inside has memory.max and io.max, rw_cp is
#    held to 8.5 MiB/s at most; afterwards the unit is gone, nothing is
#    left, and the root's, user.slice's, user-0.slice's
#    cgroup.subtree_control are as they were;
#  - SIGKILL with a --cmd's children still inside: the scope stays; the
#    next start removes what is inside and systemd collects the scope;
#  - --disk-limit alone (an io cgroup only) and --probe beside a limited
#    run work there too; --demo gets its limits (nothing on stderr).
set -u
cg=/sys/fs/cgroup
D=${SCRATCH:-/var/tmp}
fails=0
ok() { echo "ok - $1"; }
check() { # NAME COMMAND...
	n=$1
	shift
	if "$@"; then ok "$n"; else echo "not ok - $n"; fails=$((fails + 1)); fi
}
snap() { for d in "" /user.slice /user.slice/user-0.slice; do printf '%s=[%s] ' "${d:-/}" "$(cat $cg$d/cgroup.subtree_control)"; done; }
left() { find $cg -name 'lrutop-*' ! -name 'lrutop-vm.service' | tr '\n' ' '; }
waitcg() { # pid: its first run cgroup with a task inside
	i=0
	while [ $i -lt 3000 ]; do
		f=$(find $cg -maxdepth 5 -type d -name "lrutop-$1-*" | head -n 1)
		if [ -n "$f" ] && [ -n "$(cat "$f/cgroup.procs" 2>/dev/null)" ]; then
			echo "$f"
			return 0
		fi
		i=$((i + 1))
		sleep 0.02
	done
	return 1
}
gone() { # unit: wait (bounded) until systemd no longer has it active
	i=0
	while systemctl is-active -q "$1" && [ $i -lt 500 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	! systemctl is-active -q "$1"
}

before=$(snap)
check "in a session scope" grep -q '^0::/user.slice/user-0.slice/session-.*\.scope$' /proc/self/cgroup
# 32M, not verified: 4 s a copy at 8 MiB/s under TCG (the copies in the
# guest's other scenarios are verified)
"$LRUTOP" --batch -q --stall-timeout 0 -s rw_cp,mm_sync_cp --size 32M --mem-limit 32M --disk-limit 8M --no-verify --dir "$D" \
	--results "$D/r.csv" >/dev/null 2>"$D/err" &
pid=$!
f=$(waitcg $pid)
scope=$cg/user.slice/user-0.slice/lrutop-$pid.scope
check "the run cgroup is in lrutop-$pid.scope beside the session" [ "$(dirname "$f")" = "$scope" ]
check "lrutop itself is in the scope's leaf" grep -q "^0::/user.slice/user-0.slice/lrutop-$pid.scope/monitor$" /proc/$pid/cgroup
check "the scope is delegated" [ "$(systemctl show -p Delegate --value lrutop-$pid.scope)" = yes ]
check "memory.max 33554432 on the run cgroup" [ "$(cat "$f/memory.max")" = 33554432 ]
check "io.max rbps=8388608 on the run cgroup" grep -q 'rbps=8388608 wbps=8388608' "$f/io.max"
check "memory and io on in the scope's own subtree_control" sh -c "grep -qw memory $scope/cgroup.subtree_control && grep -qw io $scope/cgroup.subtree_control"
wait $pid
rc=$?
check "exit 0 (stderr: $(head -c 300 "$D/err"))" [ $rc -eq 0 ]
t=$(awk -F, '$1 == "rw_cp@8M" { print $3 }' "$D/r.csv")
check "rw_cp@8M at most 8.5 MiB/s (32 MiB in ${t:-?} s)" awk -v t="${t:-0}" 'BEGIN { exit !(t > 0 && 32 / t <= 8.5) }'
check "systemd removed the scope" gone lrutop-$pid.scope
check "nothing left" [ -z "$(left)" ]
check "controllers as they were ($before)" [ "$(snap)" = "$before" ]

printf 'sleep 1000 &\nsleep 1000\n' >"$D/survive.sh"
"$LRUTOP" --batch -q --cmd "sh $D/survive.sh" --mem-limit 32M --size 8M --dir "$D" --stall-timeout 0 \
	>/dev/null 2>&1 &
pid=$!
f=$(waitcg $pid)
i=0
while [ "$(wc -l <"$f/cgroup.procs")" -lt 3 ] && [ $i -lt 1500 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
check "SIGKILL: the scope stays while the --cmd's children live" systemctl is-active -q lrutop-$pid.scope
"$LRUTOP" --batch -n 1 -i 0.1 --dir "$D" >/dev/null 2>"$D/err3"
check "the next start says what it removed" grep -q "1 cgroup of pid $pid that is gone" "$D/err3"
check "SIGKILL, the next start: systemd removed the scope" gone lrutop-$pid.scope
check "SIGKILL, the next start: nothing left" [ -z "$(left)" ]
check "SIGKILL, the next start: controllers as they were" [ "$(snap)" = "$before" ]

"$LRUTOP" --batch -q --stall-timeout 0 -s rw_cp --size 32M --disk-limit 16M --dir "$D" >/dev/null 2>"$D/err4"
rc=$?
check "--disk-limit alone: exit 0 (stderr: $(head -c 300 "$D/err4"))" [ $rc -eq 0 ]
"$LRUTOP" --batch -q --stall-timeout 0 -s rw_cp --size 32M --mem-limit 32M --probe cold --dir "$D" --results "$D/p.csv" \
	>/dev/null 2>"$D/err5"
rc=$?
check "--probe with --mem-limit: exit 0 (stderr: $(head -c 300 "$D/err5"))" [ $rc -eq 0 ]
check "--probe with --mem-limit: a result" grep -q '^rw_cp,1,' "$D/p.csv"
check "--disk-limit, --probe: nothing left" [ -z "$(left)" ]
"$LRUTOP" --batch -q --stall-timeout 0 --demo=2008 --size 48M -s rw_cp --dir "$D" >/dev/null 2>"$D/derr"
rc=$?
check "--demo: exit 0 with its limits (stderr: $(head -c 300 "$D/derr"))" sh -c "[ $rc -eq 0 ] && [ ! -s '$D/derr' ]"
check "--demo: nothing left" [ -z "$(left)" ]
[ $fails -eq 0 ]
