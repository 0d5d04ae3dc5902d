"""``spells.json``: each spell card names an effect the engine implements and that effect's parameters."""

from __future__ import annotations

import json
import re
from typing import Any

from mk_env.mountain_king.rules.content import Spell
from mk_env.mountain_king.rules.spells import SPELL_EFFECTS as _EFFECTS

from .fields import (LIMITS, PackError, _amounts, read_bool, read_object, read_int, read_list, read_name, read_str,
                     check_unique)

#: Spell effects the engine implements, and the params each one takes (name -> kind of value): read from
#: the effects' table (:data:`mk_env.mountain_king.rules.spells.SPELL_EFFECTS`), where each effect is declared once.
SPELL_EFFECTS: dict[str, dict[str, str]] = {name: effect.params for name, effect in _EFFECTS.items()}

_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def _load_spells(data: Any, file: str) -> tuple[Spell, ...]:
    read_object(data, file, "", required=("spells",))
    out = []
    for i, s in enumerate(read_list(data["spells"], file, "spells", most=LIMITS["spells"])):
        f = f"spells[{i}]"
        read_object(s, file, f, required=("id", "name", "effect", "params"), optional=("text",))
        sid = read_str(s["id"], file, f + ".id")
        if not _SNAKE.match(sid):
            raise PackError(file, f + ".id", f"{sid!r} is not snake_case")
        effect = read_name(s["effect"], file, f + ".effect", tuple(SPELL_EFFECTS), "effect")
        schema = SPELL_EFFECTS[effect]
        params = read_object(s["params"], file, f + ".params", required=tuple(schema))
        for key, kind in schema.items():
            pf = f"{f}.params.{key}"
            if kind == "bool":
                read_bool(params[key], file, pf)
            elif kind == "positive_int":
                read_int(params[key], file, pf, 1, LIMITS["statue_moves"])
            elif kind == "resource_options":
                opts = read_list(params[key], file, pf, most=LIMITS["spell_options"])
                if not opts:
                    raise PackError(file, pf, "needs at least one option")
                for j, o in enumerate(opts):
                    _amounts(o, file, f"{pf}[{j}]")
        text = read_str(s.get("text", ""), file, f + ".text", nonempty=False)
        out.append(Spell(id=sid, name=read_str(s["name"], file, f + ".name"), effect=effect,
                         params=json.loads(json.dumps(params)), text=text))
    check_unique([s.id for s in out], file, "spells", "spell id")
    return tuple(out)
