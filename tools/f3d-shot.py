"""Renders a glTF export with f3d (another program than Vitrine) to a PNG, headless.

    python3 -m venv /tmp/f3d && /tmp/f3d/bin/pip install 'f3d==4.0.*'
    /tmp/f3d/bin/python tools/f3d-shot.py model.glb shot.png [AZIMUTH]

f3d's camera starts looking along -Z, at the back of a model that faces -Z (the
convention Vitrine's exports keep); AZIMUTH turns it (145 shows a Warzone 2100
structure from the front right, as `vitrine render --view iso` does).
"""

import sys

import f3d

engine = f3d.Engine.create(True)  # offscreen
engine.window.size = (800, 600)
engine.options.update(
    {
        "render.background.color": [0.18, 0.2, 0.24],
        "scene.up_direction": "+Y",
        "ui.filename": False,
        "render.light.intensity": 2.0,
    }
)
engine.scene.add(sys.argv[1])
camera = engine.window.camera
camera.reset_to_bounds()
camera.azimuth(float(sys.argv[3]) if len(sys.argv) > 3 else 145.0)
camera.elevation(25)
camera.reset_to_bounds()
engine.window.render_to_image().save(sys.argv[2])
