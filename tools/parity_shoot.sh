#!/bin/bash
# parity_shoot.sh CFG LOG DIR WZ_BIN - the game's side of tools/parity_capture.sh, run
# inside xvfb-run: start the game, and for each "PARITY view N" line of its log let the
# camera settle and take the screen as DIR/view-N.png; stop the game after the last.
CFG=$1 LOG=$2 DIR=$3 WZ_BIN=$4
LIBGL_ALWAYS_SOFTWARE=1 setsid timeout -k 5 400 "$WZ_BIN" --configdir="$CFG" --window \
	--resolution=640x480 --nosound --gfxbackend=opengl --skirmish=parity.json --autogame \
	>"$LOG" 2>&1 &
GAME=$!
stop() {
	kill -TERM -- "-$GAME" 2>/dev/null
	sleep 1
	kill -KILL -- "-$GAME" 2>/dev/null
}
trap stop EXIT
mean() { convert "$1" -format '%[fx:mean]' info: 2>/dev/null; }
below() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "${1:-1}" "$2"; }
wait_line() { # wait_line PATTERN SECONDS
	for _ in $(seq 1 "$2"); do
		grep -q "$1" "$LOG" && return 0
		kill -0 "$GAME" 2>/dev/null || return 1
		sleep 1
	done
	return 1
}
wait_line '^PARITY view 0 ' 150 || exit 1
# the loading screen (bright: the map's preview) goes black, then the view fades in; on
# a quick machine the black can fall between two screenshots: a bright screen 20 s after
# the level started is the view (the loading screen is gone by then)
dark=0
ok=1
SHOT=$DIR/probe.png
started=$SECONDS
for _ in $(seq 1 150); do
	sleep 1
	import -window root "$SHOT" 2>/dev/null || continue
	m=$(mean "$SHOT")
	if below "$m" 0.02; then
		dark=1
	elif { [ $dark = 1 ] || [ $((SECONDS - started)) -ge 20 ]; } && ! below "$m" 0.06; then
		ok=0
		break
	fi
done
[ $ok = 0 ] || exit 1
# "Dismiss" of the "Campaign videos are missing" notice at the top: clicked until the
# notice's blue is gone (640x480: the button at (348, 80), the notice's blue at (190, 20))
for _ in $(seq 1 10); do
	import -window root "$SHOT" 2>/dev/null || break
	set -- $(convert "$SHOT" -format '%[fx:int(255*p{190,20}.r)] %[fx:int(255*p{190,20}.b)]' info:)
	[ "${2:-0}" -gt $((${1:-0} + 50)) ] || break
	xdotool mousemove 348 80 sleep 0.3 mousedown 1 sleep 0.2 mouseup 1 2>/dev/null
	sleep 2
done
# where the notice was not over its button a click lands on the map (Sk-Clover: on a
# factory, whose production form then shows): a right click, the game's "cancel",
# closes a form and drops the selection
xdotool mousemove 600 240 sleep 0.3 click 3 2>/dev/null
sleep 2
# the pointer away from the edges, which scroll the view
xdotool mousemove 320 240 2>/dev/null
# rmse A B: how far two screens are apart (0: the same, 1: black against white)
rmse() { compare -metric RMSE "$1" "$2" null: 2>&1 | sed -n 's/.*(\(.*\)).*/\1/p'; }
# moved A B: the share of the screen two frames differ on (a pixel counts where a channel
# differs by more than 4 %): a camera still moving changes most of it, the scene's own
# animations (dishes, derricks, flags, an idle AI's trucks) a few per cent
moved() {
	local px
	px=$(compare -metric AE -fuzz 4% "$1" "$2" null: 2>&1 | sed 's/[^0-9.].*//')
	python3 -c "import sys; print(float(sys.argv[1] or 1e9) / (640 * 480))" "$px"
}
# settled N: wait until the screen has moved on from view N-1's picture (the game draws
# a frame every second or more on a busy llvmpipe) and stopped moving, then keep it as
# view N. The camera eases to its height over the ground (trackHeight) after a jump: a
# frame taken too soon shows the new place at the old height (the p1 frames taken before
# this wait showed it a tile off). So: a view's first SETTLE_S seconds are waited out,
# then two frames a second apart must agree on all but 3 % of the screen (animations
# never let the whole screen agree: an RMSE bound waited forever or stopped by luck)
SETTLE_S=${PARITY_SETTLE:-8}
settled() {
	local prev=$DIR/view-$(($1 - 1)).png last=$DIR/last.png now=$DIR/now.png
	sleep "$SETTLE_S"
	import -window root "$last" 2>/dev/null || return 1
	for _ in $(seq 1 30); do
		sleep 1
		import -window root "$now" 2>/dev/null || continue
		if [ "$1" = 0 ] || ! below "$(rmse "$now" "$prev")" 0.04; then
			if below "$(moved "$now" "$last")" 0.03; then
				mv "$now" "$DIR/view-$1.png"
				return 0
			fi
		fi
		mv "$now" "$last"
	done
	return 1
}
n=0
while :; do
	[ $n = 0 ] || wait_line "^PARITY view $n " 120 || exit 1
	settled $n || { echo "parity_shoot: view $n did not settle" >&2; exit 1; }
	echo "PARITY shot $n $(date +%s)" >>"$DIR/shots.log"
	next=$((n + 1))
	if grep -q "^PARITY view $next " "$LOG"; then
		echo "parity_shoot: view $next began before view $n was taken (PARITY_STEP too short)" >&2
		exit 1
	fi
	grep -q "^PARITY last $n" "$LOG" && exit 0
	n=$next
done
