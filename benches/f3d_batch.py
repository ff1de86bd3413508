"""f3d's side of benches/batch_vs_f3d.sh: renders every .glb under a folder to PNG at
SIZE x SIZE in one process with one offscreen engine (f3d's fastest batch), and prints
the models per second.

    python3 -m venv /tmp/f3d && /tmp/f3d/bin/pip install 'f3d==4.0.*'
    /tmp/f3d/bin/python benches/f3d_batch.py GLB_DIR OUT_DIR 256
"""

import pathlib
import sys
import time

import f3d

src, out, size = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
files = sorted(src.rglob("*.glb"))
out.mkdir(parents=True, exist_ok=True)
engine = f3d.Engine.create(True)  # offscreen
engine.window.size = (size, size)
engine.options.update(
    {
        "render.background.color": [0.18, 0.2, 0.24],
        "scene.up_direction": "+Y",
        "ui.filename": False,
    }
)
start = time.perf_counter()
failed = 0
for i, f in enumerate(files):
    try:
        engine.scene.clear()
        engine.scene.add(str(f))
        camera = engine.window.camera
        camera.reset_to_bounds()
        camera.azimuth(145.0)
        camera.elevation(25)
        camera.reset_to_bounds()
        engine.window.render_to_image().save(str(out / f"{i:04}.png"))
    except Exception:  # noqa: BLE001 - a model f3d cannot read counts as failed
        failed += 1
secs = time.perf_counter() - start
print(f"{len(files) / secs:.1f} {len(files)} {secs:.2f} {failed}")
