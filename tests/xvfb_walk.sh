#!/usr/bin/env bash
# A walk through the real window as a user would take it (issue 23's "every feature of
# the window still works"): starts `vitrine` under Xvfb, drives it with xdotool (keys,
# clicks, the file dialogs) and captures the screen after each step into an output
# folder, to be looked at. What can be checked automatically is: the window stays alive,
# titles name what was opened, files are written (F12 PNG, glTF, GIF, PIE — each read
# back), settings change, and captures differ where the view must change (team colour,
# overlays, light, timeline steps, live reload) or stay (a paused timeline, a bad file).
#
# Steps (session 1 on a temporary folder of copies from the corpus, data roots
# mp.wz + data/base preset in the settings, as Settings ▸ Data roots would add them):
#   1  open a textured PIE with a team-colour mask from the command line; team colour
#      (a swatch click), overlays (C N W B G A), lighting (Ctrl+drag, Ctrl+L), F12;
#      Share ▸ Copy web link (the models' folder is a published site in the settings):
#      the X clipboard holds its address (read back with python3's tkinter when present)
#   2  Page Down to the animated derrick: Space pauses, → ← step, the readout changes
#   3  Ctrl+E glTF export through the save dialog (toast, .glb read back), Ctrl+Shift+E
#      Export animation (GIF written, 25 frames), File ▸ Export PIE… (PIE written, checked)
#   4  Page Down to a PIE whose page is missing: the Checks panel lists the error; fixing
#      the file on disk reloads it (live reload) with the page found
#   5  Page Down to a truncated PIE: the error banner shows, the previous model stays
#   6  Assemble ▸ search a template, click it: the droid is assembled from the stats
#   7  File ▸ Open… (Ctrl+O) of a PangYa PET through the file dialog; its timeline plays
#   8  Ctrl+Shift+O on the corpus' synthetic folder: a gallery; Ctrl+Q exits with 0
# Session 2: `vitrine ../…/mp.wz` (the archive as a gallery): thumbnails; a click on a tile
# opens its model, Page Down the next, Esc goes back to the gallery; Open Recent keeps the
# archive's path resolved (no `..`).
#
# The file dialogs are rfd's zenity fallback (no desktop portal is reachable: the session
# bus is pointed nowhere), driven by typing the path (Ctrl+L / Alt+Home in GTK's chooser).
# Clicks at fixed points assume the default 1280×800 window and egui's default layout.
#
# Usage: tests/xvfb_walk.sh   (env: VITRINE_BIN, default target/debug/vitrine;
# VITRINE_WALK_OUT, folder for the captures and the written files, default a temp dir;
# VITRINE_CORPUS, default ../shared/corpus)
# Needs: xvfb-run, xdotool, imagemagick, python3, zenity, Mesa (lavapipe), the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."

W=1280 H=800
if [ "${1:-}" != "--inner" ]; then
  for tool in xvfb-run xdotool import convert compare python3 zenity; do
    command -v "$tool" >/dev/null || { echo "xvfb_walk: $tool is not installed" >&2; exit 1; }
  done
  # xvfb-run kills its server without waiting for it: the smoke test's server (display
  # :99 up) may still hold its sockets when this starts, and a new server on the same
  # number then loses the app's first connection (CI: "Failed to open connection to X
  # server"). The walk's displays are counted from 140.
  exec timeout 420 xvfb-run -n 140 -a -s "-screen 0 ${W}x${H}x24" "$0" --inner "$@"
fi
shift

bin="${VITRINE_BIN:-${CARGO_TARGET_DIR:-target}/debug/vitrine}"
[ -x "$bin" ] || { echo "xvfb_walk: no binary at $bin (run cargo build first)" >&2; exit 1; }
bin="$(realpath "$bin")"
corpus="$(realpath "${VITRINE_CORPUS:-../shared/corpus}" 2>/dev/null || true)"
base="$corpus/wz2100/data/base"
mpwz="$corpus/wz2100/archives/mp.wz"
[ -d "$base/structs" ] && [ -f "$mpwz" ] || { echo "xvfb_walk: no corpus at ${VITRINE_CORPUS:-../shared/corpus}" >&2; exit 1; }
out="$(realpath -m "${VITRINE_WALK_OUT:-$(mktemp -d)}")"
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.glb "$out"/*.gif "$out"/*.pie "$out"/*.log
work="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
started=$(date +%s)

export VITRINE_CONFIG_DIR="$work/cfg" HOME="$work/home" XDG_CACHE_HOME="$work/cache"
export XDG_RUNTIME_DIR="$work/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-bus"
mkdir -p "$VITRINE_CONFIG_DIR" "$HOME" "$XDG_RUNTIME_DIR" "$work/shots"
chmod 700 "$XDG_RUNTIME_DIR"

models="$work/models"
mkdir -p "$models"
cp "$base/structs/blcfact1.pie" "$models/a_factory.pie"         # TYPE 10200: a team mask
cp "$base/structs/blderik_anim.pie" "$models/b_derrick.pie"     # 25 frames
sed 's/page-14-droid-hubs.png/nowhere.png/' \
  "$base/components/bodies/drlbod01.pie" >"$models/c_missing_page.pie"
head -c 300 "$base/components/bodies/drlbod01.pie" >"$models/d_truncated.pie"
# Data roots as Settings ▸ Data roots adds them; a few sections closed (and remembered)
# so that the Checks section is on screen without scrolling.
python3 - "$VITRINE_CONFIG_DIR/settings.json" "$mpwz" "$base" "$work/shots" "$models" <<'PY'
import json, sys
json.dump({"data_roots": [sys.argv[2], sys.argv[3]], "screenshot_folder": sys.argv[4],
           "open_sections": {"pie levels": False, "colour": False, "assemble": False},
           "published_sites": [{"source": sys.argv[5], "url": "https://me.github.io/mymod/"}]},
          open(sys.argv[1], "w"))
PY

failures=0
log() { echo "xvfb_walk: [$(( $(date +%s) - started ))s] $*"; }
fail() {
  echo "xvfb_walk: FAILED: $*" >&2
  failures=$((failures + 1))
  # What the app and the machine were doing, once per session: a failure seen only on
  # CI's machine says what it was.
  [ "${diagnosed:-}" = "${session:-}" ] && return 0
  diagnosed="${session:-}"
  echo "xvfb_walk: the app's log (session ${session:-?}), its last lines:" >&2
  tail -n 25 "$out/vitrine-${session:-1}.log" >&2 2>/dev/null || true
  uptime >&2
  ps -eo pcpu,rss,etime,comm --sort=-pcpu | head -8 >&2
}
shot() { import -window root "$out/$1.png"; }
alive() {
  kill -0 "$pid" 2>/dev/null && return 0
  echo "xvfb_walk: FAILED: vitrine exited" >&2
  tail -n 30 "$out/vitrine-$session.log" >&2
  exit 1
}
title() { xdotool getwindowname "$wid" 2>/dev/null || true; }
# Waits until the window title contains $1 (at most $2 s, default 60).
wait_title() {
  local i
  for i in $(seq 1 $((2 * ${2:-60}))); do
    case "$(title)" in *"$1"*) return 0 ;; esac
    alive
    sleep 0.5
  done
  return 1
}
focus() { xdotool windowfocus --sync "$wid" 2>/dev/null || true; }
key() { focus; local k; for k in "$@"; do xdotool key "$k"; sleep 0.3; done; }
click() { focus; xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; sleep 0.3; }
# The mouse over the 3D view (keys go to the view, not a text field).
over_view() { xdotool mousemove 900 300; }
# Pixels differing (4 % fuzz) between captures $1 and $2 inside the box $3 (WxH+X+Y).
changed() {
  local n
  convert "$out/$1.png" -crop "$3" +repage "$work/a.png"
  convert "$out/$2.png" -crop "$3" +repage "$work/b.png"
  n=$(compare -metric AE -fuzz 4% "$work/a.png" "$work/b.png" null: 2>&1 || true)
  echo "${n%%.*}"
}
VIEW="560x560+620+120"           # inside the 3D view whatever the panel's width
READOUT="330x24+470+737"         # the timeline's time readout (left of the toasts)
BANNER="1280x40+0+26"            # under the menu bar (error banner)
# Fails unless captures $1, $2 differ (or, with "same", agree) in box $3: $4 says what.
expect_change() {
  local n; n=$(changed "$1" "$2" "$3")
  if [ "$n" -gt "${5:-200}" ] 2>/dev/null; then log "ok: $4 ($n pixels changed)"; else fail "$4: $1 → $2 changed $n pixels"; fi
}
expect_same() {
  local n; n=$(changed "$1" "$2" "$3")
  if [ "$n" -le 20 ] 2>/dev/null; then log "ok: $4"; else fail "$4: $1 → $2 changed $n pixels"; fi
}
# Waits (at most $2 s) for file $1 to exist and not to grow for a second.
wait_file() {
  local i s=-1
  for i in $(seq 1 $((2 * $2))); do
    alive
    if [ -s "$1" ]; then
      [ "$(stat -c %s "$1")" = "$s" ] && return 0
      s=$(stat -c %s "$1")
    fi
    sleep 0.5
  done
  return 1
}
# The fraction of the view's centre box that is not the view's background.
drawn() {
  local bg
  bg=$(convert "$out/$1.png" -format "%[pixel:p{$((W - 8)),420}]" info:)
  convert "$out/$1.png" -crop "$VIEW" +repage -fuzz 4% -fill black -opaque "$bg" \
    -fill white +opaque black -format "%[fx:mean]" info:
}
# Drives the zenity file dialog: $1 open | save | folder, $2 the path to type.
dialog() {
  local z="" i
  for i in $(seq 1 40); do
    z=$(xdotool search --onlyvisible --class zenity 2>/dev/null | head -1 || true)
    [ -n "$z" ] && break
    sleep 0.5
  done
  [ -n "$z" ] || { fail "no file dialog appeared for $2"; return 1; }
  sleep 1
  xdotool windowfocus --sync "$z"
  case "$1" in
    open) xdotool key ctrl+l ;;
    save) xdotool key ctrl+a ;;
    folder) xdotool key alt+Home; sleep 0.5; xdotool key ctrl+l ;;  # Recent ignores a typed folder
  esac
  sleep 0.4
  xdotool type --delay 10 "$2"
  sleep 0.4
  xdotool key Return
  for i in $(seq 1 20); do
    [ -z "$(xdotool search --onlyvisible --class zenity 2>/dev/null || true)" ] && break
    sleep 0.5
  done
  sleep 0.5
}
start() {
  session=$1; shift
  # Frame intervals and what is shown, in the log (read when an open never ends).
  RUST_LOG="${RUST_LOG:-warn,vitrine::frames=debug}" "$bin" "$@" >"$out/vitrine-$session.log" 2>&1 &
  pid=$!
  wid=""
  local i
  for i in $(seq 1 120); do
    alive
    if grep -q "could not open the window" "$out/vitrine-$session.log"; then
      fail "the app could not open its window (DISPLAY=${DISPLAY:-})"; exit 1
    fi
    wid=$(xdotool search --all --onlyvisible --pid "$pid" --name 'Vitrine' 2>/dev/null | head -1 || true)
    [ -n "$wid" ] && break
    sleep 0.5
  done
  [ -n "$wid" ] || { fail "no window"; exit 1; }
}
setting() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2], {}, {"s": d})))' \
    "$VITRINE_CONFIG_DIR/settings.json" "$1"
}

# ── Session 1 ──────────────────────────────────────────────────────────────────────
start 1 "$models/a_factory.pie"
wait_title a_factory.pie || fail "a_factory.pie never opened"
for _ in $(seq 1 60); do
  sleep 0.5; shot 01-open
  awk -v f="$(drawn 01-open)" 'BEGIN { exit !(f > 0.15) }' && break
done
log "1 open: title \"$(title)\", view $(drawn 01-open) drawn"
awk -v f="$(drawn 01-open)" 'BEGIN { exit !(f > 0.15) }' || fail "the model is not drawn"
over_view; key space; sleep 0.5                    # hold the texture animation still
shot 01-open

click 141 257; sleep 1.5; over_view; sleep 0.5      # the red swatch (team 4)
shot 02-team-red
[ "$(setting 's["team"]')" = 4 ] && log "ok: team colour red saved" || fail "team colour not saved as 4 (red)"
expect_change 01-open 02-team-red "$VIEW" "the team colour changes the model" 50

key c n w b g a; sleep 1
shot 03-overlays
expect_change 02-team-red 03-overlays "$VIEW" "overlays C N W B G A drawn"
key c n w b g a; sleep 1

light0=$(setting 's["lighting"]')
xdotool mousemove 900 400 keydown ctrl mousedown 1 sleep 0.2 mousemove 950 380 sleep 0.2 \
  mousemove 1050 330 sleep 0.2 mousemove 1150 280 sleep 0.3 mouseup 1 keyup ctrl
key ctrl+l ctrl+l; sleep 1.5
shot 04-light
[ "$(setting 's["lighting"]')" != "$light0" ] && log "ok: light turned and brighter: $(setting 's["lighting"]')" || fail "the light did not change"
expect_change 02-team-red 04-light "$VIEW" "the light changes the shading"

over_view; key F12
wait_file "$work/shots/a_factory-1.png" 30 && log "ok: F12 wrote $(identify -format '%wx%h' "$work/shots/a_factory-1.png") a_factory-1.png" \
  || fail "F12 wrote no screenshot"
cp "$work/shots/a_factory-1.png" "$out/05-f12-screenshot.png" 2>/dev/null || true

click 157 12; sleep 0.5; xdotool mousemove 190 40; sleep 1.5   # Share ▸ Copy web link
shot 05b-share-menu
xdotool click 1; sleep 1
if python3 -c 'import tkinter' 2>/dev/null; then
  copied=$(timeout 10 python3 -c 'import tkinter; r = tkinter.Tk(); r.withdraw(); print(r.clipboard_get())' 2>/dev/null || true)
  case "$copied" in
    "https://me.github.io/mymod/view.html?url=site.wz#model=a_factory.pie&team=4&"*"&cam="*)
      log "ok: Copy web link copied $copied" ;;
    *) fail "Copy web link: the clipboard holds \"$copied\"" ;;
  esac
else log "Copy web link: no tkinter to read the clipboard back (not checked)"; fi

# ── 2 timeline ──
over_view; key Next
wait_title b_derrick.pie 60 || fail "Page Down did not open b_derrick.pie"
sleep 2; over_view; key space; sleep 0.7
shot 06-timeline-paused; sleep 1; shot 06b-timeline-still
expect_same 06-timeline-paused 06b-timeline-still "$READOUT" "Space pauses the derrick"
key Right Right Right; sleep 1
shot 07-timeline-stepped
expect_change 06b-timeline-still 07-timeline-stepped "$READOUT" "→ steps the timeline" 20
expect_change 06b-timeline-still 07-timeline-stepped "$VIEW" "the derrick moved" 50
key Left; sleep 1; shot 07b-timeline-back
expect_change 07-timeline-stepped 07b-timeline-back "$READOUT" "← steps back" 20

# ── 3 exports ──
key ctrl+e
dialog save "$out/derrick.glb"
wait_file "$out/derrick.glb" 60 || fail "no derrick.glb"
sleep 0.5; shot 08-gltf-toast
if "$bin" info "$out/derrick.glb" >"$out/derrick-info.log" 2>&1 && grep -q "glTF version 2.0" "$out/derrick-info.log"; then
  log "ok: glTF written and read back ($(stat -c %s "$out/derrick.glb") bytes)"
else fail "derrick.glb does not read back"; fi

over_view; key ctrl+shift+e; sleep 2
shot 09-export-animation
click 451 628                                       # Export (the dialog at its default place)
if wait_file "$work/shots/b_derrick.gif" 120; then
  frames=$(identify "$work/shots/b_derrick.gif" | wc -l)
  cp "$work/shots/b_derrick.gif" "$out/derrick.gif"
  [ "$frames" = 25 ] && log "ok: GIF written, $frames frames" || fail "the GIF has $frames frames, not 25"
else fail "Export animation wrote no GIF"; fi
sleep 0.5; shot 10-gif-toast

click 19 12; sleep 0.7; click 52 287; sleep 2       # File ▸ Export PIE…
shot 11-export-pie-dialog
click 470 508                                       # Export
if wait_file "$models/b_derrick-converted.pie" 30; then
  cp "$models/b_derrick-converted.pie" "$out/derrick-converted.pie"
  if "$bin" check "$out/derrick-converted.pie" --data "$base" >"$out/derrick-check.log" 2>&1; then
    log "ok: PIE written ($(head -1 "$out/derrick-converted.pie")), vitrine check clean"
  else fail "the written PIE does not pass vitrine check"; fi
else fail "Export PIE wrote nothing"; fi
sleep 0.5; shot 12-export-pie-toast

# ── 4 checks and live reload ──
over_view; key Next
wait_title c_missing_page.pie 60 || fail "Page Down did not open c_missing_page.pie"
sleep 3; shot 13-checks
sed -i 's/nowhere.png/page-14-droid-hubs.png/' "$models/c_missing_page.pie"
sleep 4; shot 14-live-reloaded
expect_change 13-checks 14-live-reloaded "$VIEW" "the file changed on disk reloads with its page"

# ── 5 a bad file ──
over_view; key Next; sleep 5
shot 15-bad-file
case "$(title)" in *c_missing_page.pie*) log "ok: the previous model stays after d_truncated.pie" ;;
  *) fail "the title is \"$(title)\" after the bad file" ;; esac
expect_change 14-live-reloaded 15-bad-file "$BANNER" "an error banner shows"
awk -v f="$(drawn 15-bad-file)" 'BEGIN { exit !(f > 0.15) }' && log "ok: the previous model stays drawn" \
  || fail "the previous model is not drawn under the error"

# ── 6 assembly ──
click 22 44; sleep 1                                # Dismiss the banner
click 53 497; sleep 1                               # open the Assemble section
shot 16-assemble-section
click 150 542; sleep 0.3                            # its search box
xdotool type --delay 30 "ViperMG01Wheels"; sleep 1.5
shot 17-assemble-search
click 110 565                                       # the first match
wait_title "template:ViperMG01Wheels" 60 && log "ok: assembled: \"$(title)\"" || fail "no assembly opened: \"$(title)\""
sleep 3; over_view; sleep 0.5; shot 18-assembled
awk -v f="$(drawn 18-assembled)" 'BEGIN { exit !(f > 0.15) }' || fail "the droid is not drawn"

# ── 7 File ▸ Open… a PET ──
key ctrl+o
dialog open "$corpus/synthetic/pet/puppet_v13.pet"
wait_title puppet_v13.pet 60 && log "ok: Ctrl+O opened \"$(title)\"" || fail "Ctrl+O did not open the PET"
sleep 3; over_view; shot 19-pet-playing; sleep 1; shot 19b-pet-playing
expect_change 19-pet-playing 19b-pet-playing "$READOUT" "the PET's timeline plays" 20

# ── 8 a folder as a gallery ──
key ctrl+shift+o
dialog folder "$corpus/synthetic/"
sleep 8; shot 20-gallery-folder
expect_change 19b-pet-playing 20-gallery-folder "$VIEW" "Ctrl+Shift+O shows a gallery"
key ctrl+q
rc=0
for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
wait "$pid" || rc=$?
pid=""
[ "$rc" = 0 ] && log "ok: Ctrl+Q, exit code 0" || fail "exit code $rc after Ctrl+Q"

# ── Session 2: mp.wz as a gallery ───────────────────────────────────────────────────
# Given as a relative path with `..` (as `vitrine ../shared/corpus/…/mp.wz` from a checkout).
start 2 "$(realpath --relative-to=. "$mpwz")"
# The fraction of the gallery's grid that is not the window's background.
grid_drawn() {
  convert "$out/21-gallery-mpwz.png" -crop "1200x640+10+90" +repage -fuzz 6% -fill black \
    -opaque "$(convert "$out/21-gallery-mpwz.png" -format '%[pixel:p{5,790}]' info:)" \
    -fill white +opaque black -format "%[fx:mean]" info:
}
for _ in $(seq 1 60); do
  sleep 1; shot 21-gallery-mpwz; alive
  convert "$out/21-gallery-mpwz.png" -crop "400x100+0+30" +repage "$work/strip.png"
  tiles=$(grid_drawn)
  # thumbnails N / N: the progress line stops changing once all are drawn (on a loaded
  # machine it can also stand still for a second before the first ones come: not done
  # until the grid is drawn too)
  [ -f "$work/strip-prev.png" ] && [ "$(compare -metric AE "$work/strip.png" "$work/strip-prev.png" null: 2>&1 || true)" = 0 ] &&
    awk -v f="$tiles" 'BEGIN { exit !(f > 0.3) }' && break
  mv "$work/strip.png" "$work/strip-prev.png"
done
log "gallery of mp.wz: $(awk -v f="$tiles" 'BEGIN{printf "%.0f", f*100}') % of the grid drawn"
awk -v f="$tiles" 'BEGIN { exit !(f > 0.3) }' || fail "the gallery shows no thumbnails"
click 191 150                                       # the second tile
wait_title cranebody1.pie 60 && log "ok: a click on a tile opened \"$(title)\"" || fail "the tile click opened \"$(title)\""
sleep 2; over_view; shot 22-gallery-opened
key Next
wait_title cranebody2.pie 60 && log "ok: Page Down opened \"$(title)\"" || fail "Page Down opened \"$(title)\""
key Escape; sleep 2; shot 23-gallery-back
case "$(setting '[s["last_folder"]] + s["recent_files"][:2]')" in
  *"/../"*) fail "settings remember a path with ..: $(setting 's["recent_files"][:2]')" ;;
  *) log "ok: recent files remembered resolved: $(setting 's["recent_files"][0]')" ;;
esac
expect_change 22-gallery-opened 23-gallery-back "$VIEW" "Esc goes back to the gallery"
alive
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""

log "captures and files in $out; $failures failed; $(( $(date +%s) - started )) s"
exit $((failures > 0))
