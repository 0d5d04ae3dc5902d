"""The flat action space: named blocks (:class:`~.vocabulary.Block`) laid end to end, each action number a
block and an argument; :meth:`ActionLayout.describe` says in words what any action number does."""

from __future__ import annotations

from mk_env.core.flat_engine import BlockLayout

from .content import CaveTrollPack
from .vocabulary import Block


class ActionLayout(BlockLayout):
    """The blocks of the action space for a pack and a number of players."""

    def __init__(self, pack: CaveTrollPack, num_players: int):
        self.pack, self.num_players = pack, num_players
        self.slots = pack.slots
        n_loc, n_rooms, ids = pack.lair.size, pack.lair.n_rooms, num_players * pack.slots
        sizes: dict[Block, int] = {
            Block.END_TURN: 1, Block.DRAW: 1, Block.DECLINE: 1, Block.PLACE: n_loc,
            Block.MOVE: pack.slots * n_loc, Block.PUSH: ids, Block.PUSH_TO: n_loc, Block.ORC: ids,
            Block.HELM: ids, Block.STEP: n_loc, Block.CHALICE: n_loc, Block.TELEPORT: n_loc,
            Block.IDOL: n_rooms, Block.WAND: n_rooms, Block.CLOAK: pack.slots, Block.SWORD: n_rooms,
        }
        super().__init__(Block, sizes)

    def move(self, slot: int, dest: int) -> int:
        """The action number moving counter ``slot`` to location ``dest``."""
        return self.offset[Block.MOVE] + slot * self.pack.lair.size + dest

    def counter_name(self, cid: int) -> str:
        """E.g. "red Knight (#2)": a counter id's colour, kind and slot."""
        seat, slot = divmod(cid, self.slots)
        return f"{self.pack.colours[seat]} {self.pack.slot_names[slot]} (#{slot})"

    def describe(self, action: int) -> str:
        """A readable sentence for an action number, e.g. "move your Knight (#2) to R12"."""
        block, a = self.decode(action)
        names = self.pack.lair.names
        art = {s.kind.name.lower(): s.name for s in self.pack.artifacts}
        if block == Block.MOVE:
            slot, dest = divmod(a, self.pack.lair.size)
            return f"move your {self.pack.slot_names[slot]} (#{slot}) to {names[dest]}"
        template = _WORDS[block]
        return template.format(loc=names[a] if a < len(names) else "", counter=self._counter(block, a),
                               helm=art.get("helm_of_mind_control", "Helm"),
                               chalice=art.get("chalice_of_teleportation", "Chalice"),
                               idol=art.get("idol_of_eldarr", "Idol"), wand=art.get("wand_of_speed", "Wand"),
                               cloak=art.get("cloak_of_invisibility", "Cloak"),
                               sword=art.get("sword_of_slaying", "Sword"))

    def _counter(self, block: Block, a: int) -> str:
        if block in (Block.PUSH, Block.ORC, Block.HELM):
            return self.counter_name(a)
        return f"{self.pack.slot_names[a]} (#{a})" if block == Block.CLOAK else ""


#: the words of each block's actions ({loc}: the location argument, {counter}: the counter argument)
_WORDS = {
    Block.END_TURN: "end your turn (give up the actions left)",
    Block.DRAW: "draw a counter from your pile",
    Block.DECLINE: "decline (no Treasure, no push, no escape, no more steps)",
    Block.PLACE: "put the drawn counter into play in {loc}",
    Block.PUSH: "push the {counter} with your Wraith",
    Block.PUSH_TO: "push the adventurer into {loc}",
    Block.ORC: "discard the {counter} with your Orc",
    Block.HELM: "play the {helm} on the {counter}",
    Block.STEP: "move the counter on to {loc}",
    Block.CHALICE: "play the {chalice} on your adventurers in {loc}",
    Block.TELEPORT: "teleport the next adventurer to {loc}",
    Block.IDOL: "place the {idol} in {loc}",
    Block.WAND: "play the {wand} to score {loc}",
    Block.CLOAK: "give the {cloak} to your {counter}",
    Block.SWORD: "play the {sword} in {loc}",
}
