#!/bin/sh
# The real TUI, driven in tmux (docs/design.md §6): views, help, pause/scroll,
# interval keys, resize (including below the minimum size), --ascii,
# NO_COLOR, ^Z and fg, and a restored terminal after q and after SIGTERM.
#
# Each pane runs "lrutop; echo EXIT=$?; stty -a; sleep" so that after lrutop
# ends we can read its exit status and the terminal modes it left behind.
# All waiting is polling capture-pane for a string with a deadline.
. "$(dirname "$0")/lib.sh"

T=tui
S=lrutop-test-$$
tmp=$(mktemp -d /tmp/lrutop-tui.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP

if ! command -v tmux >/dev/null 2>&1; then
	skip "$T" "tmux not installed"
	exit 0
fi
disk=$(find_disk /var/tmp)
host=$(uname -n)
run_env="env TERM=xterm-256color LANG=C.UTF-8"
LR="'$LRUTOP'"

# Byte patterns, used with LC_ALL=C: braille U+2800-28FF = E2 A0-A3 xx;
# box drawing and block elements U+2500-259F = E2 94-96 xx.
braille=$(printf '\342[\240-\243]')
boxes=$(printf '\342[\224-\226]')
has_braille() { tm_cap "$1" | LC_ALL=C grep -q "$braille"; }
# most braille cells on one line of the pane (= samples drawn / 2)
braille_run() {
	tm_cap "$1" | LC_ALL=C awk -v re="$braille" '{ n = gsub(re, "") } n > m { m = n } END { print m + 0 }'
}

# lines matching an ERE in the pane
count() { tm_cap "$1" | grep -Ec -- "$2"; }
# show: a capture excerpt for a failure message (one line, truncated)
show() { tm_cap "$1" | sed 's/ *$//' | grep -v '^$' | head -n "${2:-4}" | cut -c1-100 | tr '\n' '|'; }
# expect NAME SESSION STRING [SECONDS]: ok when the pane shows STRING in time
expect() {
	if tm_wait "$2" "$3" "${4:-10}"; then ok "$T $1"; else notok "$T $1" "'$3' not shown: $(show "$2" 6)"; fi
}
# expect_re NAME SESSION ERE [MIN]: at least MIN (1) lines match, within 5 s
# (a resize or a view switch repaints the rows top to bottom over several
# writes: the row waited for can be drawn before the rest are)
expect_re() {
	wait_for 5 "[ \$(count '$2' '$3') -ge ${4:-1} ]" 0.05
	_c=$(count "$2" "$3")
	[ "$_c" -ge "${4:-1}" ] && ok "$T $1" || notok "$T $1" "$_c lines match /$3/ (want >= ${4:-1}): $(show "$2" 6)"
}
# exited NAME SESSION WANT-STATUS: lrutop left with that status, terminal modes.
exited() {
	if ! wait_for 10 "tm_has '$2' END-OF-STTY"; then
		notok "$T $1: exit ${3:-?}" "still running: $(show "$2" 3)"
		return
	fi
	st=$(tm_cap "$2" | sed -n 's/^EXIT=\([0-9]*\).*/\1/p' | head -n 1)
	if [ -z "${3:-}" ]; then
		notok "$T $1: exit status" "EXIT=$st, but the test names no expected status"
	elif [ "$st" = "$3" ]; then
		ok "$T $1: exit $3"
	else
		notok "$T $1: exit $3" "EXIT=$st: $(show "$2" 3)"
	fi
	tm_stty_sane "$2" && ok "$T $1: terminal restored (icanon, echo)" ||
		notok "$T $1: terminal restored (icanon, echo)" "$(tm_cap "$2" | grep -Eo -- '-?(icanon|echo) ' | tr '\n' ' ')"
}
# quit NAME SESSION: press q on a running lrutop; exit 0, terminal restored.
quit() {
	if ! tm_alive "$2"; then
		notok "$T $1: exit 0" "lrutop had ended before q: $(show "$2" 3)"
		return
	fi
	tm send-keys -t "$2" q
	exited "$1" "$2" 0
}
# overview_checks TAG SESSION: the overview's parts are on screen.
overview_checks() {
	_s=$2
	expect "$1: overview title" "$_s" "MiB/s"
	_hdr=$(tm_cap "$_s" | head -n 1)
	case $_hdr in *"$host"*) ok "$T $1: header names the host" ;;
	*) notok "$T $1: header names the host" "no '$host' in: $_hdr" ;; esac
	if [ -n "$disk" ]; then
		case $_hdr in *" $disk "*) ok "$T $1: header names the disk" ;;
		*) notok "$T $1: header names the disk" "no '$disk' in: $_hdr" ;; esac
	fi
	expect_re "$1: Disk chart with MiB/s" "$_s" '^ ?Disk .*MiB/s'
	expect_re "$1: Memory chart" "$_s" '^ ?Memory'
	expect_re "$1: Reclaim chart" "$_s" '^ ?Reclaim'
	# a number (maybe with a unit suffix) right before the axis line, >= 2
	# per chart: top and bottom of each of the three charts.
	expect_re "$1: axis labels" "$_s" '^ *[0-9]+(\.[0-9]+)?[kKMGT%]?│' 6
	expect_re "$1: time axis 'now'" "$_s" ' now *$'
}

# ==== session 0 (started first, used last): pause and scroll =============
# -i 0.05 at 80 columns: one arrow key moves width/4 cells * 2 samples = 40
# samples = 2 s.  It gathers history while the other sessions are tested.
p=$S-pause
tm_start "$p" 80 24 "$run_env $LR -i 0.05"

# ==== session 1: 80x24, then 200x50, default interval ======================
m=$S-main
tm_start "$m" 80 24 "$run_env $LR"
overview_checks 80x24 "$m"
# Braille cells mean the charts have data (and are the control for the
# --ascii check below).  The capture kept in docs/capture.md waits for a few
# seconds of history (>= 8 cells = 16 samples on a line) and a rate legend.
if tm_until $m 10 "has_braille $m"; then ok "$T 80x24: charts drawn with braille"; else
	notok "$T 80x24: charts drawn with braille" "$(show "$m" 12)"; fi
tm_until $m 15 "[ \$(braille_run $m) -ge 8 ] && tm_cap $m | grep -Eq 'rd [0-9]'" 0.2 >/dev/null
mkdir -p "$BUILD" && tm_cap "$m" >"$BUILD/tui-80x24.txt"

tm send-keys -t "$m" 2
expect "key 2: iostat header" "$m" "wMB/s"
expect_re "key 2: iostat columns r/s wMB/s %util" "$m" 'r/s.*wMB/s.*%util'
if [ -n "$disk" ]; then
	if tm_until $m 10 "tm_cap $m | grep -Eq '^.?$disk +[0-9]'"; then ok "$T key 2: watched disk's row"; else
		notok "$T key 2: watched disk's row" "no '$disk' row: $(show "$m" 8)"; fi
	expect_re "key 2: watched disk is marked" "$m" "^[^ ]$disk "
fi

tm send-keys -t "$m" 3
# (lrutop pads "id" to 3 columns: "us sy  id wa st"; spacing is not the point)
if tm_until $m 10 "tm_cap $m | grep -Eq 'us +sy +id +wa +st'"; then ok "$T key 3: vmstat header us sy id wa st"; else
	notok "$T key 3: vmstat header us sy id wa st" "$(show "$m" 4)"; fi
expect_re "key 3: vmstat columns swpd inact active" "$m" 'swpd.*inact.*active'

tm send-keys -t "$m" 1
expect "key 1: back to the overview" "$m" "Reclaim"

tm send-keys -t "$m" h
expect "h: help box" "$m" "Help"
tm send-keys -t "$m" x
if tm_wait_gone "$m" "Help" 10 && tm_has "$m" "Reclaim"; then ok "$T help: any key closes it"; else
	notok "$T help: any key closes it" "$(show "$m" 5)"; fi

tm resize-window -t "$m" -x 200 -y 50
expect "200x50: header shows '1 Overview'" "$m" "1 Overview" 10
overview_checks 200x50 "$m"
# the picture uses the new width: "now" sits far right of column 80.
now_col() { tm_cap "$m" | awk '/ now *$/ { sub(/ *$/, ""); print length }' | head -n 1; }
wait_for 5 '[ "$(now_col)" -gt 150 ] 2>/dev/null' 0.05
w=$(now_col)
[ "${w:-0}" -gt 150 ] && ok "$T 200x50: time axis spans the width" ||
	notok "$T 200x50: time axis spans the width" "'now' ends at column ${w:-none}"
tm_cap "$m" >"$BUILD/tui-200x50.txt"

# + and - change the interval shown in the header.
expect "header: every 0.25s" "$m" "every 0.25s"
tm send-keys -t "$m" +
expect "+: every 0.5s" "$m" "every 0.5s"
tm send-keys -t "$m" -
expect "-: back to every 0.25s" "$m" "every 0.25s"

tm resize-window -t "$m" -x 40 -y 10
expect "40x10: terminal too small" "$m" "terminal too small (need 60x15)" 10
tm resize-window -t "$m" -x 80 -y 24
if tm_wait_gone "$m" "too small" 10 && tm_wait "$m" "Reclaim" 10; then ok "$T back to 80x24: redraws"; else
	notok "$T back to 80x24: redraws" "$(show "$m" 4)"; fi
overview_checks "80x24 again" "$m"

quit q "$m"

# ==== session 0 again: pause and scroll ====================================
# Wait (condition, not time) until a chart line holds >= 60 braille cells,
# i.e. >= 120 samples = 6 s of history: enough for two 2 s scroll steps.
if tm_until $p 20 "[ \$(braille_run $p) -ge 60 ]" 0.2; then ok "$T pause session: 6 s of history drawn"; else
	notok "$T pause session: 6 s of history drawn" "max braille cells on a line: $(braille_run "$p")"
fi
# PAUSED -N.Ns = age of the frozen frame's newest sample (grows while paused)
paused_at() { tm_cap "$p" | sed -n 's/.*PAUSED *-\([0-9][0-9.]*\)s.*/\1/p' | head -n 1; }
chart_body() { tm_cap "$p" | grep '│'; }
tm send-keys -t "$p" Space
expect "space: PAUSED" "$p" "PAUSED"
# Frozen: the charts do not move while the frame ages by >= 0.5 s (10 ticks).
p0=$(paused_at)
b0=$(chart_body)
if tm_until "$p" 10 "awk -v a=\"\$(paused_at)\" -v b='${p0:-0}' 'BEGIN { exit !(a - b >= 0.5) }'"; then
	[ "$(chart_body)" = "$b0" ] && ok "$T paused: charts stay frozen" ||
		notok "$T paused: charts stay frozen" "chart rows changed while paused"
else
	notok "$T paused: charts stay frozen" "PAUSED age does not advance: '$(paused_at)'"
fi
# step KEY: press KEY, wait until the age moved by >= 1.5 s (one step is 2 s;
# the age itself drifts only by the few ms a capture takes); prints old->new.
step() {
	_o=$(paused_at)
	tm send-keys -t "$p" "$1"
	tm_until "$p" 10 "awk -v a=\"\$(paused_at)\" -v b='${_o:-0}' 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d >= 1.5) }'"
	_r=$?
	echo "$_o -> $(paused_at)"
	return $_r
}
if r=$(step Left); then ok "$T left: scrolls back"; echo "# left: scrolls back: age $r s"; else notok "$T left: scrolls back" "age $r s"; fi
b1=$(chart_body)
[ "$b1" != "$b0" ] && ok "$T left: the charts show older samples" || notok "$T left: the charts show older samples" "chart rows unchanged"
if r=$(step Left); then ok "$T left again: further back"; echo "# left again: further back: age $r s"; else notok "$T left again: further back" "age $r s"; fi
if r=$(step Right); then ok "$T right: forward again"; echo "# right: forward again: age $r s"; else notok "$T right: forward again" "age $r s"; fi
# Only the rows that changed are sent (screen.c): after ^L (every cell
# repainted) and the help box opened over the frozen charts and closed, the
# chart rows read as before.  Text only: the time axis moves with the age,
# and how the terminal keeps the colour of blank cells depends on the
# cursor moves and erases curses chose.
f0=$(chart_body)
tm send-keys -t "$p" C-l h
expect "paused: ^L, then h: help box" "$p" "Help"
[ "$(chart_body)" != "$f0" ] || notok "$T paused: the help box covers chart rows" "chart rows unchanged"
tm send-keys -t "$p" x
if tm_wait_gone "$p" "Help" 10 && wait_for 5 '[ "$(chart_body)" = "$f0" ]' 0.05; then ok "$T paused: help closed, the charts as before"; else
	echo "$f0" >"$tmp/f0"
	notok "$T paused: help closed, the charts as before" "$(chart_body | diff "$tmp/f0" - | head -n 5 | cut -c1-120 | tr '\n' '|')"
fi
tm send-keys -t "$p" Space
if tm_wait_gone "$p" "PAUSED" 10 && tm_alive "$p" && tm_has "$p" "h help"; then ok "$T space: resumes"; else notok "$T space: resumes" "$(tm_cap "$p" | grep PAUSED)"; fi
quit "pause session q" "$p"

# ==== session 2: resize is handled at once; SIGTERM ========================
# A 20 s interval: any redraw within 10 s of a resize (half the interval:
# room for an ASan build on a loaded machine) is the resize's doing, not
# the next tick's.
r=$S-resize
tm_start "$r" 80 24 "$run_env $LR -i 20"
expect "-i 20: first frame" "$r" "Reclaim"
tm resize-window -t "$r" -x 200 -y 50
expect "resize to 200x50: redrawn at once" "$r" "1 Overview" 10
tm resize-window -t "$r" -x 40 -y 10
expect "resize to 40x10: redrawn at once" "$r" "terminal too small" 10
tm resize-window -t "$r" -x 80 -y 24
if tm_wait_gone "$r" "too small" 10 && tm_wait "$r" "Reclaim" 10; then ok "$T resize to 80x24: redrawn at once"; else
	notok "$T resize to 80x24: redrawn at once" "$(show "$r" 4)"; fi
pid=$(tm_child "$r")
if [ -n "$pid" ] && kill -TERM "$pid"; then
	exited SIGTERM "$r" 143
else
	notok "$T SIGTERM: exits" "lrutop's pid not found"
fi

# ==== session 3: --ascii ==================================================
a=$S-ascii
tm_start "$a" 80 24 "$run_env $LR --ascii"
expect "--ascii: overview" "$a" "Reclaim"
tm_until $a 10 "tm_cap $a | grep -q 'now'" >/dev/null
ascii_checks() { # TAG MARKER: MARKER proves the view is on screen
	tm_cap "$a" >"$tmp/cap"
	if ! tm_alive "$a" || ! grep -qF -- "$2" "$tmp/cap"; then
		for _c in "no braille" "no box drawing" "plain ASCII" "no colour"; do
			notok "$T --ascii $1: $_c" "'$2' not on screen: $(show "$a" 3)"
		done
		return
	fi
	tm capture-pane -e -p -t "$a" >"$tmp/cape"
	LC_ALL=C grep -q "$braille" "$tmp/cap" && notok "$T --ascii $1: no braille" "$(LC_ALL=C grep -m 2 "$braille" "$tmp/cap")" ||
		ok "$T --ascii $1: no braille"
	LC_ALL=C grep -q "$boxes" "$tmp/cap" && notok "$T --ascii $1: no box drawing" "$(LC_ALL=C grep -m 2 "$boxes" "$tmp/cap")" ||
		ok "$T --ascii $1: no box drawing"
	LC_ALL=C grep -q "$(printf '[\200-\377]')" "$tmp/cap" &&
		notok "$T --ascii $1: plain ASCII" "$(LC_ALL=C grep -m 2 "$(printf '[\200-\377]')" "$tmp/cap")" ||
		ok "$T --ascii $1: plain ASCII"
	c=$(sgr_colours <"$tmp/cape" | sort -u | tr '\n' ' ')
	[ -z "$c" ] && ok "$T --ascii $1: no colour" || notok "$T --ascii $1: no colour" "SGR colour params: $c"
}
ascii_checks overview Reclaim
tm send-keys -t "$a" h
expect "--ascii: help" "$a" "Help"
ascii_checks help Help
tm send-keys -t "$a" x
tm_wait_gone "$a" "Help" 10 >/dev/null
tm send-keys -t "$a" 2
expect "--ascii: iostat" "$a" "wMB/s"
[ -n "$disk" ] && tm_until $a 10 "tm_cap $a | grep -Eq '^.?$disk +[0-9]'" >/dev/null
ascii_checks iostat wMB/s
tm send-keys -t "$a" Space Left
expect "--ascii: paused" "$a" "PAUSED"
tm_until $a 10 "tm_cap $a | grep -q 'PAUSED *-'" >/dev/null
ascii_checks paused PAUSED
tm_cap "$a" | tail -n 1 | sed 's/^/# --ascii status line: /'
quit "--ascii q" "$a"

# ==== session 4: NO_COLOR ================================================
n=$S-nocolor
tm_start "$n" 80 24 "NO_COLOR=1 $run_env $LR"
expect "NO_COLOR: runs" "$n" "Reclaim"
tm_until $n 10 "has_braille $n" >/dev/null
c=$(tm capture-pane -e -p -t "$n" | sgr_colours | sort -u | tr '\n' ' ')
tm_alive "$n" && tm_has "$n" Reclaim || c="(overview not on screen)"
[ -z "$c" ] && ok "$T NO_COLOR: no colour" || notok "$T NO_COLOR: no colour" "SGR colour params: $c"
# control: the main session's pictures did use colour (so the check above
# can see colour when there is some) — checked on a fresh colour session.
k=$S-colour
tm_start "$k" 80 24 "$run_env $LR"
tm_wait "$k" "Reclaim" 10 >/dev/null
c=$(tm capture-pane -e -p -t "$k" | sgr_colours | sort -u | tr '\n' ' ')
[ -n "$c" ] && ok "$T colour by default" || notok "$T colour by default" "no SGR colour in capture -e"
tm send-keys -t "$k" q
quit "NO_COLOR q" "$n"

# ==== session 4b: a terminal whose terminfo has paddings ===================
# vt100's strings carry delays ("$<5>") for tputs; screen.c writes the
# strings itself, so it must leave them out, not print them.
v=$S-vt100
tm_start "$v" 80 24 "env TERM=vt100 LANG=C.UTF-8 $LR"
if tm_wait "$v" "Reclaim" 10 >/dev/null; then
	pads=$(tm_cap "$v" | grep -c '\$<')
	[ "$pads" -eq 0 ] && ok "$T TERM=vt100: no terminfo padding on screen" ||
		notok "$T TERM=vt100: no terminfo padding on screen" "$pads rows with \$<: $(show "$v")"
else
	notok "$T TERM=vt100: no terminfo padding on screen" "no overview: $(show "$v")"
fi
quit "TERM=vt100 q" "$v"

# ==== session 5: ^Z and fg ===============================================
# screen.c writes the frames itself, so after SIGCONT it must repaint every
# row, also those that did not change while it was stopped: the rows with
# an axis line are as many after fg as before ^Z.  An interactive shell, so
# that lrutop is a job in a process group of its own (SIGTSTP from the
# terminal stops no process of an orphaned group).
z=$S-suspend
tm new-session -d -s "$z" -x 100 -y 30 "env PS1='PROMPT\$ ' sh -i"
tm send-keys -t "$z" "$run_env $LR" Enter
axis_rows() { tm_cap "$1" | grep -c '│'; }
if tm_wait "$z" "Reclaim" 15 && tm_until "$z" 10 "[ \$(axis_rows $z) -ge 10 ]" >/dev/null; then
	before=$(axis_rows "$z")
	zpid=$(pgrep -P "$(tm list-panes -t "$z" -F '#{pane_pid}')" | head -n 1)
	tm send-keys -t "$z" C-z
	if wait_for 10 "[ \"\$(awk '{ print \$3 }' /proc/$zpid/stat 2>/dev/null)\" = T ]" &&
		tm_wait "$z" "PROMPT" 10 >/dev/null && ! tm_has "$z" "Reclaim"; then
		ok "$T ^Z: stopped, the shell's screen back"
	else
		notok "$T ^Z: stopped, the shell's screen back" "state $(awk '{ print $3 }' "/proc/$zpid/stat" 2>/dev/null): $(show "$z" 3)"
	fi
	tm send-keys -t "$z" fg Enter
	if tm_wait "$z" "Reclaim" 10 && wait_for 10 "[ \$(axis_rows $z) -eq $before ]"; then
		ok "$T fg: every row repainted"
	else
		notok "$T fg: every row repainted" "$(axis_rows "$z") rows with an axis line, $before before ^Z: $(show "$z" 6)"
	fi
	tm send-keys -t "$z" q
	wait_for 10 "[ ! -d /proc/$zpid ]" && tm send-keys -t "$z" 'echo FG=$?' Enter
	tm_wait "$z" "FG=0" 10 && ok "$T fg, q: exit 0" || notok "$T fg, q: exit 0" "$(show "$z" 3)"
else
	notok "$T ^Z: TUI started" "$(show "$z" 3)"
fi

exit 0
