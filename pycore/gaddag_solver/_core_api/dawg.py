"""The DAWG generator (Appel & Jacobson) in the core."""

from __future__ import annotations

from typing import Any

from .._binding import ffi, lib
from .errors import CoreError, _message
from .lexicon import OpenedLexicon, ensure_walk_index
from .movegen import DIRECTIONS, MOVE_RECORD_SIZE, Workspace


class DawgWorkspace(Workspace):
    """Scratch memory for the DAWG generator (not shared between threads), its move buffer, and
    the work its last generation did."""

    def __init__(self) -> None:
        super().__init__(lib.gd_dawg_workspace_size(), 256)  # the buffer grows to the plays
        self.work = ffi.new("gd_work *")


def dawg_prepare(dawg: OpenedLexicon, rules: Any, workspace: DawgWorkspace, board: bytes) -> None:
    """The DAWG's cross-sets and anchors of `board` (skipped when already prepared)."""
    key = (dawg.struct, rules)
    if workspace.board == board and workspace.prepared_for == key:
        return
    ensure_walk_index(dawg)
    workspace.board = None
    if lib.gd_dawg_prepare(dawg.struct, rules, board, workspace.memory, workspace.error) != lib.GD_OK:
        raise CoreError(_message(workspace.error))
    workspace.board = bytes(board)
    workspace.prepared_for = key


def dawg_generate(
    dawg: OpenedLexicon, rules: Any, workspace: DawgWorkspace, rack_counts: bytes, directions: str = "both"
) -> tuple[int, bytes, tuple[int, int]]:
    """``(count, records, (arcs, dead ends))``: every play of the prepared board in ``directions``
    ("both", "across" or "down") as gd_move records, unsorted, and the work it took."""
    if workspace.board is None or workspace.prepared_for != (dawg.struct, rules):
        raise CoreError("the workspace holds no board prepared for this DAWG and ruleset")
    if directions not in DIRECTIONS:
        raise CoreError(f"unknown direction {directions!r}; known: {', '.join(DIRECTIONS)}")
    while True:
        rc = lib.gd_dawg_generate(
            dawg.struct, rules, workspace.board, workspace.memory, rack_counts, DIRECTIONS[directions],
            workspace.moves, workspace.capacity, workspace.count, workspace.work, workspace.error,
        )  # fmt: skip
        if rc != lib.GD_OK:
            raise CoreError(_message(workspace.error))
        found = int(workspace.count[0])
        if found <= workspace.capacity:
            work = (int(workspace.work.arcs), int(workspace.work.dead_ends))
            return found, ffi.buffer(workspace.moves, found * MOVE_RECORD_SIZE)[:], work
        workspace.grow(found)
