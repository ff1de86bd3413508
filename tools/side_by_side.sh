#!/bin/bash
# side_by_side.sh - the same map in the real game (left) and in Vitrine's Game view
# (right), one picture per map: docs/screenshots/side-by-side-*.png (docs/maps.md,
# "The game and Vitrine side by side"). Not run by CI: it needs the game, Xvfb and a
# few minutes.
#
# usage: tools/side_by_side.sh [LEVEL...]
#   LEVEL  skirmish levels of mp.wz (default: Sk-Rush Sk-UrbanDuel Sk-Mountain, one per
#          tileset: Arizona, Urban, Rockies); each gives side-by-side-<level>.png
#
# For each level it
#   1. starts Warzone 2100 in a 1024x768 window on Xvfb (xvfb-run), drawn by Mesa's
#      software OpenGL (LIBGL_ALWAYS_SOFTWARE=1, --gfxbackend=opengl), as a skirmish
#      (--skirmish=<settings> --autogame, as ../shared/tools/wz_game_map.sh does) with
#      every slot filled by an AI that does nothing (player 0 too, so no truck drives
#      off), the game's default settings otherwise (fog off, shadows on);
#   2. gives it an extra script (the settings' "scripts": {"extra": ...}) that, when
#      the level starts, gives player N team colour N (as Vitrine draws them), hides the
#      interface and the minimap, and builds a satellite uplink for player 0 in the map
#      corner farthest from its start so the whole map is seen (the game draws unseen
#      tiles dark and leaves unseen objects out);
#   3. waits for that script's line in the log and for the view to fade in, lets the
#      camera settle (the game eases it to its height), dismisses the "Campaign videos
#      are missing" notice with a click (xdotool), and takes the screen (ImageMagick
#      import);
#   4. draws the map with `vitrine render mp.wz --level LEVEL --view game --size
#      1024x768` (the level's start as the game draws it in that window: its camera over
#      player 0's HQ), without the start-position markers (--layers);
#   5. puts the two side by side (convert +append), 1200 px wide in 192 colours (a
#      picture of about 350 KB).
#
# environment:
#   VITRINE   the vitrine program (default: vitrine on PATH)
#   WZ_BIN    the game (default /usr/games/warzone2100)
#   WZ_DATA   folder with mp.wz (default /usr/share/games/warzone2100)
#   OUT       output folder (default docs/screenshots)
#   SBS_FOG=1 fog on in both (the game's "fog" setting, Vitrine's --fog on); off by
#             default, as 4.3.3 writes a new config (fog=false)
#   SBS_SETTLE seconds between the view's fade-in and the picture (default 8)
#   SBS_KEEP=1 keep the work folder (the game's log, both pictures)
# needs: bash, python3, xvfb-run, xdotool, ImageMagick (import, convert), timeout, setsid.
# exit status: 0 all pictures made, 1 some level failed (named on stderr), 2 setup error.

set -u
export LC_ALL=C
VITRINE=${VITRINE:-vitrine}
WZ_BIN=${WZ_BIN:-/usr/games/warzone2100}
WZ_DATA=${WZ_DATA:-/usr/share/games/warzone2100}
OUT=${OUT:-docs/screenshots}
SETTLE=${SBS_SETTLE:-8}
case $SETTLE in '' | *[!0-9]*) SETTLE=8 ;; esac
FOG=off
[ "${SBS_FOG:-0}" = 1 ] && FOG=on

die() { echo "side_by_side: $*" >&2; exit 2; }
for c in python3 xvfb-run xdotool import convert timeout setsid; do
	command -v "$c" >/dev/null || die "$c is needed"
done
[ -x "$WZ_BIN" ] || die "game not found: $WZ_BIN"
[ -f "$WZ_DATA/mp.wz" ] || die "mp.wz not found in $WZ_DATA"
command -v "$VITRINE" >/dev/null || die "vitrine not found: $VITRINE (set VITRINE)"
mkdir -p "$OUT" || die "cannot create $OUT"
[ $# -gt 0 ] || set -- Sk-Rush Sk-UrbanDuel Sk-Mountain

WORK=$(mktemp -d "${TMPDIR:-/tmp}/side_by_side.XXXXXX") || die "mktemp failed"
cleanup() {
	if [ "${SBS_KEEP:-0}" = 1 ]; then
		echo "side_by_side: work folder kept: $WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

# The game's side, run inside xvfb-run: start the game, wait for the extra script's
# line, settle, dismiss the notice, take the screen, stop the game.
cat >"$WORK/shoot.sh" <<'EOF'
#!/bin/bash
# shoot.sh CFG LOG SHOT SETTLE WZ_BIN
CFG=$1 LOG=$2 SHOT=$3 SETTLE=$4 WZ_BIN=$5
LIBGL_ALWAYS_SOFTWARE=1 setsid timeout -k 5 150 "$WZ_BIN" --configdir="$CFG" --window \
	--resolution=1024x768 --nosound --gfxbackend=opengl --skirmish=sbs.json --autogame \
	>"$LOG" 2>&1 &
GAME=$!
ok=1
for _ in $(seq 1 120); do
	grep -q '^SBS start' "$LOG" && { ok=0; break; }
	kill -0 "$GAME" 2>/dev/null || break
	sleep 1
done
if [ $ok = 0 ]; then
	# the loading screen (bright: the map's preview) goes black, then the view fades in
	# (slowly on llvmpipe)
	ok=1
	dark=0
	for _ in $(seq 1 120); do
		sleep 1
		import -window root "$SHOT" 2>/dev/null || continue
		mean=$(convert "$SHOT" -format '%[fx:mean]' info: 2>/dev/null)
		if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 0.02 else 1)" "${mean:-1}"; then
			dark=1
		elif [ $dark = 1 ] && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0.06 else 1)" "${mean:-0}"; then
			ok=0
			break
		fi
	done
	sleep "$SETTLE"
	# "Dismiss" of the notice at the top (1024x768): clicked, pressed and released slowly
	# enough for the game to see it, until the notice's blue is gone from (300, 20)
	for _ in $(seq 1 10); do
		import -window root "$SHOT" 2>/dev/null || break
		px=$(convert "$SHOT" -format '%[fx:int(255*p{300,20}.r)] %[fx:int(255*p{300,20}.b)]' info:)
		set -- $px
		[ "${2:-0}" -gt $((${1:-0} + 50)) ] || break
		xdotool mousemove 557 80 sleep 0.3 mousedown 1 sleep 0.2 mouseup 1 2>/dev/null
		sleep 2
	done
	[ $ok = 0 ] && { import -window root "$SHOT" || ok=1; }
fi
kill -TERM -- "-$GAME" 2>/dev/null
sleep 1
kill -KILL -- "-$GAME" 2>/dev/null
exit $ok
EOF
chmod +x "$WORK/shoot.sh"

failed=0
for LEVEL in "$@"; do
	L=$WORK/$LEVEL
	CFG=$L/cfg
	mkdir -p "$CFG/tests" "$CFG/multiplay/skirmish" || die "cannot create $CFG"
	# the settings: every slot an idle AI; the fog setting; the extra script
	python3 - "$LEVEL" "$WZ_DATA/mp.wz" "$CFG" "$FOG" <<'PY' || { failed=1; continue; }
import json, os, re, sys, zipfile
level, mpwz, cfg, fog = sys.argv[1:5]
text = zipfile.ZipFile(mpwz).read("addon.lev").decode("latin-1")
text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
players, cur = None, None
for line in text.splitlines():
    parts = line.split(None, 1)
    if len(parts) == 2 and parts[0] == "level":
        cur = parts[1].strip().strip('"')
    elif len(parts) == 2 and parts[0] == "players" and cur and cur.lower() == level.lower():
        players = int(parts[1])
        break
if players is None:
    print("side_by_side: no level %s in %s:addon.lev" % (level, mpwz), file=sys.stderr)
    sys.exit(1)
t = {"challenge": {"map": level, "maxPlayers": players, "scavengers": True, "bases": 3,
                   "powerLevel": 1, "version": 2},
     "scripts": {"extra": "sbs_view.js"}}
for i in range(players):
    t["player_%d" % i] = {"team": i, "ai": "multiplay/skirmish/sbs_idle.js", "difficulty": "Medium"}
json.dump(t, open(os.path.join(cfg, "tests", "sbs.json"), "w"), indent=1)
with open(os.path.join(cfg, "config"), "w") as f:
    f.write("[general]\nfog=%s\nwidth=1024\nheight=768\nfullscreen=0\n" % ("true" if fog == "on" else "false"))
PY
	echo '{ "AI": { "js": "sbs_idle.js", "name": "SbsIdle", "tip": "does nothing (side_by_side.sh)" } }' \
		>"$CFG/multiplay/skirmish/sbs_idle.json"
	echo '// side_by_side.sh: an AI that does nothing' >"$CFG/multiplay/skirmish/sbs_idle.js"
	cat >"$CFG/tests/sbs_view.js" <<'JS'
// side_by_side.sh: player N in colour N, no interface, the whole map seen by player 0
function eventStartLevel()
{
	for (var p = 0; p < maxPlayers; ++p)
	{
		changePlayerColour(p, p);
	}
	hideInterface();
	setMiniMap(false);
	var s = startPositions[0];
	var x = s.x < mapWidth / 2 ? mapWidth - 4 : 3;
	var y = s.y < mapHeight / 2 ? mapHeight - 4 : 3;
	var uplink = addStructure("A0Sat-linkCentre", 0, x * 128 + 64, y * 128 + 64);
	debug("SBS start " + JSON.stringify({start: s, uplink: uplink ? [x, y] : null}));
}
JS
	GAME_PNG=$L/game.png
	VIT_PNG=$L/vitrine.png
	if ! xvfb-run -a -s "-screen 0 1024x768x24" "$WORK/shoot.sh" "$CFG" "$L/game.log" \
		"$GAME_PNG" "$SETTLE" "$WZ_BIN"; then
		echo "side_by_side: $LEVEL: the game gave no picture (log: $L/game.log)" >&2
		tail -n 20 "$L/game.log" >&2
		failed=1
		continue
	fi
	grep '^SBS start' "$L/game.log" >&2
	if ! "$VITRINE" render "$WZ_DATA/mp.wz" --level "$LEVEL" --view game --fog "$FOG" \
		--layers terrain,decals,water,features,structures,droids --size 1024x768 \
		-o "$VIT_PNG"; then
		echo "side_by_side: $LEVEL: vitrine render failed" >&2
		failed=1
		continue
	fi
	NAME=$(echo "$LEVEL" | tr 'A-Z' 'a-z')
	convert "$GAME_PNG" "$VIT_PNG" -alpha off +append -resize 1200x -dither FloydSteinberg \
		-colors 192 "PNG8:$OUT/side-by-side-$NAME.png" || { failed=1; continue; }
	echo "side_by_side: $OUT/side-by-side-$NAME.png" >&2
done
exit $failed
