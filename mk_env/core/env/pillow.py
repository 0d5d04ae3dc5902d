"""Pillow for the ``rgb_array`` pictures (from the ``tools`` extra), with one clear error where it is
missing; a picture resized and an animated GIF of any game's pictures."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np


def image_and_draw() -> tuple[Any, Any]:
    """Pillow's ``Image`` and ``ImageDraw`` modules; a ``RuntimeError`` naming the extra if Pillow is not
    installed."""
    try:
        from PIL import Image, ImageDraw
    except ModuleNotFoundError as err:
        raise RuntimeError("rgb_array rendering needs Pillow: pip install 'mk_env[tools]'") from err
    return Image, ImageDraw


def downscale(frame: np.ndarray, scale: float) -> Any:
    """A Pillow image of ``frame`` resized by ``scale`` (1.0: unchanged)."""
    Image, _ = image_and_draw()
    image = Image.fromarray(frame)
    if scale != 1.0:
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                             Image.LANCZOS)
    return image


def write_gif(states: Iterable[Any], path: str | os.PathLike, *, render: Callable[[Any], np.ndarray],
              seconds_per_frame: float = 0.6, scale: float = 0.6) -> Path:
    """An animated GIF with one frame per state (the last frame is held three times as long); ``render``:
    the picture of a state (an RGB array, the game's ``render_rgb``)."""
    frames = [downscale(render(s), scale).quantize(colors=128, method=2) for s in states]
    if not frames:
        raise ValueError("write_gif needs at least one state")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ms = int(seconds_per_frame * 1000)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=[ms] * (len(frames) - 1) + [3 * ms],
                   loop=0, optimize=True)
    return path
