// What the game-data tests of the page share: where the installed Warzone 2100 data is
// (Debian's /usr/share/games/warzone2100, or WZ_DATA), the skip reason without it (an
// error with VITRINE_REQUIRE_GAME=1), and map packages made from mp.wz's maps. Not a
// test file itself.

import { execFileSync } from "node:child_process";
import { existsSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CHROMIUM, haveBrowser, tempDir } from "./util.mjs";

/// The installed game's data: where Debian puts it, or WZ_DATA.
export const GAME = process.env.WZ_DATA ?? "/usr/share/games/warzone2100";
export const haveGame = ["mp.wz", "base.wz"].every((f) => existsSync(join(GAME, f)));
if (process.env.VITRINE_REQUIRE_GAME === "1" && !haveGame) {
  throw new Error(`VITRINE_REQUIRE_GAME=1 but ${GAME}/{mp,base}.wz are missing (apt-get install warzone2100-data)`);
}

/// The skip reason of a test that needs the browser and the game's data, or false.
export function skipUnlessGame() {
  if (!haveBrowser) return `SKIPPED: no ${CHROMIUM} (apt-get install chromium)`;
  if (!haveGame) return `SKIPPED: no ${GAME}/mp.wz and base.wz (apt-get install warzone2100-data, or WZ_DATA)`;
  return false;
}

/// A folder served as /made/: `NAME.wz`, mp.wz's map folder `folder` as a classic map
/// package (its `.lev` naming `level`), beside links to the game's mp.wz and base.wz.
export function mapPackage(name, folder, level, players, dataset = "MULTI_CAM_1") {
  const dir = tempDir("vitrine-maps-");
  for (const f of ["mp.wz", "base.wz"]) symlinkSync(join(GAME, f), join(dir, f));
  execFileSync("python3", ["-c", `
import sys, zipfile
mp, out, folder, level, players, dataset = sys.argv[1:7]
with zipfile.ZipFile(mp) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(folder + ".xplayers.lev", 'level %s\\nplayers %s\\ntype 14\\ndataset %s\\ngame "multiplay/maps/%s.gam"\\n' % (level, players, dataset, folder))
    for info in src.infolist():
        n = info.filename
        if not info.is_dir() and (n.startswith("multiplay/maps/%s/" % folder) or n == "multiplay/maps/%s.gam" % folder):
            z.writestr(n, src.read(n))
`, join(GAME, "mp.wz"), join(dir, `${name}.wz`), folder, level, String(players), dataset]);
  return dir;
}

