"""Pillow for the ``rgb_array`` pictures (from the ``tools`` extra), with one clear error where it is
missing."""

from __future__ import annotations

from typing import Any


def image_and_draw() -> tuple[Any, Any]:
    """Pillow's ``Image`` and ``ImageDraw`` modules; a ``RuntimeError`` naming the extra if Pillow is not
    installed."""
    try:
        from PIL import Image, ImageDraw
    except ModuleNotFoundError as err:
        raise RuntimeError("rgb_array rendering needs Pillow: pip install 'mk_env[tools]'") from err
    return Image, ImageDraw
