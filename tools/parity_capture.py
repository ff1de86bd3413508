#!/usr/bin/env python3
"""The file work of tools/parity_capture.sh (read it first).

    parity_capture.py levels MP_WZ                 every skirmish level of mp.wz
    parity_capture.py setup MAP MP_WZ CFG          the game's config folder; prints the id
    parity_capture.py store MAP WORK DEST WZ_BIN   the frames and capture.json into DEST
"""
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

WIDTH, HEIGHT = 640, 480
# Seconds (wall clock) each view is shown: the first waits for the view to fade in and
# the notice to be dismissed (slow on llvmpipe), the others for the camera to settle.
FIRST_STEP_MS = int(os.environ.get("PARITY_FIRST_STEP", "50")) * 1000
STEP_MS = int(os.environ.get("PARITY_STEP", "20")) * 1000
# The game's farthest zoom for a player (cameraZoom's "normal range 500 to 5000").
MAX_ZOOM = 5000
CONFIG = "[general]\nfog=false\nwidth=%d\nheight=%d\nfullscreen=0\n" % (WIDTH, HEIGHT)


def fail(msg):
    print("parity_capture: " + msg, file=sys.stderr)
    sys.exit(1)


def lev_levels(text):
    """(name, players) of each level of a .lev file."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    out, cur = [], None
    for line in text.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0] == "level":
            cur = parts[1].strip().strip('"')
        elif len(parts) == 2 and parts[0] == "players" and cur:
            out.append((cur, int(parts[1])))
            cur = None
    return out


def map_info(map_arg, mpwz):
    """{id, level, players, package?} of a level of mp.wz or a map package."""
    if map_arg.lower().endswith(".wz") and os.path.isfile(map_arg):
        z = zipfile.ZipFile(map_arg)
        try:
            lj = json.loads(z.read("level.json").decode("utf-8", "replace"))
        except KeyError:
            fail("%s: no level.json at its root" % map_arg)
        name = os.path.basename(map_arg)[: -len(".wz")]
        return {"id": "mapdb-" + name.lower(), "level": lj["name"], "players": int(lj["players"]),
                "package": map_arg, "tileset": lj.get("tileset"), "author": lj.get("author"),
                "license": lj.get("spdx-license-id")}
    levels = lev_levels(zipfile.ZipFile(mpwz).read("addon.lev").decode("latin-1"))
    for name, players in levels:
        if name.lower() == map_arg.lower():
            return {"id": name.lower(), "level": name, "players": players}
    fail("no level %s in %s:addon.lev" % (map_arg, mpwz))


EXTRA_JS = r"""
// parity_capture.sh: player N in colour N, no interface, the whole map seen by player
// 0, then the views one after another by the wall clock (the game's own clock runs
// faster than it on a headless --autogame), each logged "PARITY view N {...}".
var parityViews = [];
var parityAt = -1;
var parityDue = 0;
function parityShow()
{
	var v = parityViews[parityAt];
	if (v.x !== undefined)
	{
		// a jump (cameraSlide's slide takes longer than a settle): centreView takes
		// tiles, and every pivot is on a tile corner
		centreView(v.x / 128, v.y / 128);
	}
	if (v.zoom !== undefined)
	{
		cameraZoom(v.zoom, 0); // speed 0: at once
	}
	debug("PARITY view " + parityAt + " " + JSON.stringify({view: v, gameTime: gameTime, wall: Date.now()}));
	if (parityAt + 1 == parityViews.length)
	{
		debug("PARITY last " + parityAt);
	}
}
function parityTick()
{
	if (Date.now() < parityDue || parityAt + 1 >= parityViews.length)
	{
		return;
	}
	parityAt += 1;
	parityDue = Date.now() + (parityAt == 0 ? FIRST_STEP : STEP);
	parityShow();
}
// Where player p's camera goes, in world units on a tile corner: the centre of its HQ
// (a 2x2 structure), else its start position's tile's north-west corner.
function parityOver(p)
{
	var hq = enumStruct(p, HQ);
	if (hq.length > 0)
	{
		return {x: hq[0].x * 128, y: hq[0].y * 128, hq: true};
	}
	var s = startPositions[p];
	return {x: s.x * 128, y: s.y * 128, hq: false};
}
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
	parityViews.push({name: "start"});
	if (maxPlayers > 1)
	{
		var o = parityOver(1);
		parityViews.push({name: "p1", x: o.x, y: o.y, hq: o.hq});
	}
	parityViews.push({name: "middle", x: Math.floor(mapWidth / 2) * 128, y: Math.floor(mapHeight / 2) * 128,
		zoom: MAX_ZOOM});
	debug("PARITY start " + JSON.stringify({start: s, uplink: uplink ? [x, y] : null,
		mapWidth: mapWidth, mapHeight: mapHeight}));
	parityTick();
	setTimer("parityTick", 200);
}
"""


def setup(map_arg, mpwz, cfg):
    info = map_info(map_arg, mpwz)
    for d in ("tests", "multiplay/skirmish", "maps"):
        os.makedirs(os.path.join(cfg, d), exist_ok=True)
    if "package" in info:
        shutil.copyfile(info["package"], os.path.join(cfg, "maps", os.path.basename(map_arg)))
    t = {"challenge": {"map": info["level"], "maxPlayers": info["players"], "scavengers": True,
                       "bases": 3, "powerLevel": 1, "version": 2},
         "scripts": {"extra": "parity_view.js"}}
    for i in range(info["players"]):
        t["player_%d" % i] = {"team": i, "ai": "multiplay/skirmish/parity_idle.js",
                              "difficulty": "Medium"}
    with open(os.path.join(cfg, "tests", "parity.json"), "w") as f:
        json.dump(t, f, indent=1)
    with open(os.path.join(cfg, "config"), "w") as f:
        f.write(CONFIG)
    with open(os.path.join(cfg, "multiplay/skirmish/parity_idle.json"), "w") as f:
        f.write('{ "AI": { "js": "parity_idle.js", "name": "ParityIdle", '
                '"tip": "does nothing (parity_capture.sh)" } }\n')
    with open(os.path.join(cfg, "multiplay/skirmish/parity_idle.js"), "w") as f:
        f.write("// parity_capture.sh: an AI that does nothing\n")
    js = (EXTRA_JS.replace("FIRST_STEP", str(FIRST_STEP_MS)).replace("STEP", str(STEP_MS))
          .replace("MAX_ZOOM", str(MAX_ZOOM)))
    with open(os.path.join(cfg, "tests", "parity_view.js"), "w") as f:
        f.write(js)
    print(info["id"])


def store(map_arg, work, dest, wz_bin):
    mpwz = os.path.join(os.environ.get("WZ_DATA", "/usr/share/games/warzone2100"), "mp.wz")
    info = map_info(map_arg, mpwz)
    log = open(os.path.join(work, "game.log"), encoding="utf-8", errors="replace").read()
    views = {}
    for m in re.finditer(r"^PARITY view (\d+) (\{.*\})$", log, re.M):
        views[int(m.group(1))] = json.loads(m.group(2))["view"]
    start = re.search(r"^PARITY start (\{.*\})$", log, re.M)
    seed = re.search(r"script-generated map.*?random seed: (\d+)", log)
    version = subprocess.run([wz_bin, "--version"], capture_output=True, text=True).stdout
    version = re.search(r"Version: ([^,]*),", version)
    os.makedirs(dest, exist_ok=True)
    shots = []
    for n in sorted(views):
        v = views[n]
        src = os.path.join(work, "view-%d.png" % n)
        if not os.path.exists(src):
            fail("%s: no picture of view %d" % (info["id"], n))
        name = v["name"] + ".png"
        # RGB, no alpha, no time stamps: the same frame gives the same bytes
        subprocess.run(["convert", src, "-alpha", "off", "-strip", "-define",
                        "png:compression-level=9", "PNG24:" + os.path.join(dest, name)], check=True)
        camera = {k: v[k] for k in ("x", "y", "zoom") if k in v}
        shot = {"name": v["name"], "file": name, "camera": camera or "start"}
        if "hq" in v:
            shot["over"] = "player 1's HQ" if v["hq"] else "player 1's start position"
        shots.append(shot)
    record = {
        "map": info["level"],
        "source": ("mapdb-2p/" + os.path.basename(info["package"])) if "package" in info else "mp.wz",
        "players": info["players"],
        "seed": int(seed.group(1)) if seed else None,
        "game": {"version": version.group(1) if version else None,
                 "window": [WIDTH, HEIGHT], "renderer": "OpenGL, Mesa llvmpipe (LIBGL_ALWAYS_SOFTWARE=1)",
                 "config": CONFIG, "skirmish": "every slot an idle AI, scavengers on, bases 3 (advanced)"},
        "setup": json.loads(start.group(1)) if start else None,
        "views": shots,
    }
    for k in ("tileset", "author", "license"):
        if info.get(k):
            record[k] = info[k]
    with open(os.path.join(dest, "capture.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "levels":
        for name, _ in lev_levels(zipfile.ZipFile(sys.argv[2]).read("addon.lev").decode("latin-1")):
            print(name)
    elif cmd == "setup":
        setup(*sys.argv[2:5])
    elif cmd == "store":
        store(*sys.argv[2:6])
    else:
        fail(__doc__)


if __name__ == "__main__":
    main()
