#!/bin/sh
# Themes and glyphs from the outside (docs/design.md §7): --list-themes, -t NAME
# and -t PATH, errors with a line number and exit 2, a theme's painted
# background in the real TUI (tmux), NO_COLOR over a theme, the t key,
# --glyphs and a theme's glyphs in the header.
. "$(dirname "$0")/lib.sh"

T=themes
tmp=$(mktemp -d /tmp/lrutop-themes.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
# the user's own themes must not shadow the shipped ones
export XDG_CONFIG_HOME="$tmp/config"

out=$("$LRUTOP" --list-themes 2>&1); st=$?
missing=""
for n in default light projector mono okabe-ito; do
	echo "$out" | grep -Eq "^$n +/.*/$n\.theme +[A-Za-z]" || missing="$missing $n"
done
[ $st -eq 0 ] && [ -z "$missing" ] && ok "$T --list-themes: the five, path, description" ||
	notok "$T --list-themes" "exit $st, missing:$missing: $(echo "$out" | head -n 3 | tr '\n' '|')"

# err NAME WANT-REGEX ARGS...: exit 2 and one line on stderr matching WANT
err() {
	_n=$1 _want=$2
	shift 2
	"$LRUTOP" "$@" >"$tmp/out" 2>"$tmp/err"
	_st=$?
	if [ $_st -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$_want" "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		ok "$T $_n"
	else
		notok "$T $_n" "exit $_st, stderr: $(head -c 200 "$tmp/err")"
	fi
}
err "-t nosuch: exit 2" "^lrutop: -t nosuch: no theme of that name" -t nosuch --batch -n 1
printf '# mine\ntheme[read]="#102030"\ntheme[foo]="#ffffff"\n' >"$tmp/x.theme"
err "-t PATH unknown key: line number" "^lrutop: $tmp/x.theme:3: unknown key 'foo'\$" \
	-t "$tmp/x.theme" --batch -n 1
printf 'theme[write]="#ff00"\n' >"$tmp/y.theme"
err "-t PATH bad colour" "^lrutop: $tmp/y.theme:1: theme\[write\]: bad colour '#ff00'" \
	-t "$tmp/y.theme" --batch -n 1
err "--glyphs bad" "^lrutop: --glyphs dots: not braille, blocks or ascii\$" --glyphs dots --batch -n 1
"$LRUTOP" -t light --glyphs blocks --batch -n 1 >/dev/null 2>"$tmp/err" &&
	ok "$T -t light --glyphs blocks: batch runs" ||
	notok "$T -t light --glyphs blocks: batch runs" "$(head -c 200 "$tmp/err")"

if ! command -v tmux >/dev/null 2>&1; then
	skip "$T TUI" "tmux not installed"
	exit 0
fi
run_env="env TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config"
LR="'$LRUTOP'"
S=lrutop-themes-$$

# light paints white (xterm 231) behind every cell, and header says braille
a=$S-light
tm_start "$a" 100 30 "$run_env $LR -t light"
if tm_wait "$a" "Reclaim" 15; then
	# capture -e sends an SGR only where it changes: white is set, and the
	# terminal's own background (SGR 49) never comes back
	tm capture-pane -e -p -t "$a" >"$tmp/cape"
	bg=$(grep -c "48;5;231" "$tmp/cape")
	def=$(grep -c "$(printf '\033')\[49m" "$tmp/cape")
	[ "$bg" -ge 1 ] && [ "$def" -eq 0 ] && ok "$T -t light: white background painted" ||
		notok "$T -t light: white background painted" "$bg lines set SGR 48;5;231, $def SGR 49"
	tm_cap "$a" | head -n 1 | grep -q "braille" && ok "$T header names the glyphs" ||
		notok "$T header names the glyphs" "$(tm_cap "$a" | head -n 1)"
	# t: the next theme in --list-themes' order after light is mono
	tm send-keys -t "$a" t
	tm_wait "$a" "theme mono" 10 && ok "$T t: next theme" ||
		notok "$T t: next theme" "$(tm_cap "$a" | tail -n 1)"
	wait_for 10 "[ \$(tm capture-pane -e -p -t '$a' | grep -c '48;5;231') -eq 0 ]" &&
		ok "$T t: mono does not paint the background" ||
		notok "$T t: mono does not paint the background" "SGR 48;5;231 still shown"
	tm send-keys -t "$a" q
else
	notok "$T -t light: TUI started" "$(tm_cap "$a" | head -n 3 | tr '\n' '|')"
fi

# 8 colours (TERM=screen, tmux's default; the Linux console and TERM=xterm
# have 8 too): in every legend line of the Overview the swatches of the
# series differ, in colour or in pattern (■ or ▒), for every theme.
# legend_clash: reads capture -e text, prints each legend line where two
# swatches share the SGR colour and the glyph.
legend_clash() {
	perl -CS -ne '
		next unless /(Disk |Memory|Reclaim)/;
		my ($fg, %seen, @bad) = ("def");
		while (/\G(?:\e\[([0-9;]*)m|(.))/gs) {
			if (defined $1) {
				for (split /;/, ($1 eq "" ? "0" : $1)) {
					$fg = "def" if $_ == 0 || $_ == 39;
					$fg = $_ if ($_ >= 30 && $_ <= 37) || ($_ >= 90 && $_ <= 97);
				}
			} elsif ($2 eq "\x{25a0}" || $2 eq "\x{2592}") {
				push @bad, "$fg$2" if $seen{"$fg$2"}++;
			}
		}
		print "$1: @bad\n" if @bad && /(Disk |Memory|Reclaim)/;
	'
}
for th in default light mono okabe-ito projector; do
	e=$S-8-$th
	tm_start "$e" 120 36 "env TERM=screen LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config $LR -t $th"
	if tm_wait "$e" "Reclaim" 15; then
		tm capture-pane -e -p -t "$e" >"$tmp/cap8"
		n=$(grep -c "$(printf '\342\226\240')" "$tmp/cap8")
		bad=$(legend_clash <"$tmp/cap8")
		[ "$n" -ge 3 ] && [ -z "$bad" ] && ok "$T 8 colours, $th: legend swatches apart" ||
			notok "$T 8 colours, $th: legend swatches apart" "$n lines with a swatch; alike: $bad"
		tm send-keys -t "$e" q
	else
		notok "$T 8 colours, $th: TUI started" "$(tm_cap "$e" | head -n 3 | tr '\n' '|')"
	fi
done

# a direct-colour terminal (COLORS > 256): the theme's own 24-bit colours
# (default: read #3aa0ff, refault #00d7d7), not 256-colour indices taken
# for RGB values
if infocmp xterm-direct >/dev/null 2>&1; then
	e=$S-direct
	tm_start "$e" 120 36 "env TERM=xterm-direct LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config $LR"
	if tm_wait "$e" "Reclaim" 15; then
		tm capture-pane -e -p -t "$e" >"$tmp/capd"
		grep -q '38;2;58;160;255m' "$tmp/capd" && grep -q '38;2;0;215;215m' "$tmp/capd" &&
			ok "$T xterm-direct: 24-bit theme colours" ||
			notok "$T xterm-direct: 24-bit theme colours" "$(grep -ao '38;2;[0-9;]*m' "$tmp/capd" | sort -u | tr '\n' ' ')"
		tm send-keys -t "$e" q
	else
		notok "$T xterm-direct: TUI started" "$(tm_cap "$e" | head -n 3 | tr '\n' '|')"
	fi
else
	skip "$T xterm-direct" "no xterm-direct terminfo (Debian: ncurses-term)"
fi

# projector: blocks from the theme; NO_COLOR: no colour whatever the theme
p=$S-proj
tm_start "$p" 100 30 "NO_COLOR=1 $run_env $LR -t projector"
if tm_wait "$p" "Reclaim" 15; then
	tm_cap "$p" | head -n 1 | grep -q "blocks" && ok "$T projector: blocks" ||
		notok "$T projector: blocks" "$(tm_cap "$p" | head -n 1)"
	c=$(tm capture-pane -e -p -t "$p" | sgr_colours | sort -u | tr '\n' ' ')
	[ -z "$c" ] && ok "$T NO_COLOR over a theme: no colour" ||
		notok "$T NO_COLOR over a theme: no colour" "SGR colour params: $c"
	tm send-keys -t "$p" q
else
	notok "$T projector: TUI started" "$(tm_cap "$p" | head -n 3 | tr '\n' '|')"
fi
# --glyphs wins over the theme's
g=$S-glyphs
tm_start "$g" 100 30 "$run_env $LR -t projector --glyphs braille"
tm_wait "$g" "Reclaim" 15 >/dev/null
tm_cap "$g" | head -n 1 | grep -q "braille" && ok "$T --glyphs over the theme's" ||
	notok "$T --glyphs over the theme's" "$(tm_cap "$g" | head -n 1)"
tm send-keys -t "$g" q
for s in "$a" "$p" "$g"; do
	wait_for 10 "tm_has '$s' END-OF-STTY" || notok "$T $s: lrutop did not quit on q" "$(tm_cap "$s" | tail -n 2)"
done
exit 0
