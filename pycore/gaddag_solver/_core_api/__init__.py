"""The C core's functions for the rest of the package, in bytes and ints.

Written against cffi's ``ffi``/``lib``; _binding.py supplies either the real cffi extension
(native) or _ctypes_ffi's stand-in over the wasm side module (Pyodide), so this one package
serves both and the layers above cannot tell which runs.

One module per concept of the core: ``errors`` (what the core refuses), ``lexicon`` (a lexicon
opened and validated, its word queries, the builder), ``movegen`` (rules, workspaces and move
generation), ``dawg`` (Appel & Jacobson's generator), ``leaves`` (leave tables), ``selfplay``
(whole games in one call), ``game`` (a game turn by turn), ``training`` (rack statistics for
learning leave values), ``infer`` (the opponent's rack from their move), ``simulation`` and
``endgame``, ``preendgame``. Every name of every module is here too, so
``from gaddag_solver import _core_api as core; core.generate(...)`` reads as before.
"""

from __future__ import annotations

from .._binding import ffi, lib
from .dawg import DawgWorkspace, dawg_generate, dawg_prepare
from .endgame import (
    ENDGAME_MOVE_CAPACITY,
    ENDGAME_TABLE_BYTES,
    EndgameResult,
    EndgameState,
    endgame_restart,
    endgame_root_moves,
    endgame_search,
    endgame_share,
    endgame_start,
)
from .errors import CoreBuildError, CoreError, CoreFormatError
from .errors import _message as _message
from .game import (
    GAME_SIZE,
    GameState,
    choose_move,
    game_board,
    game_from_position,
    game_move,
    game_rack,
    game_unseen,
    new_game,
)
from .infer import INFERRED_LEAVE, InferSummary, infer
from .leaves import (
    LEAVES_TILE_COUNTS_OFFSET,
    OpenedLeaves,
    build_leaves,
    leaves_count,
    leaves_index,
    leaves_tiles,
    leaves_value,
    leaves_values,
    open_leaves,
)
from .leaves import _tile_set as _tile_set
from .lexicon import _HEADER_CHECKS as _HEADER_CHECKS
from .lexicon import (
    OUTPUT_START,
    PHASES,
    OpenedLexicon,
    ProgressCallback,
    anagrams,
    build,
    containing,
    contains,
    crc32,
    endgame_words,
    ensure_walk_index,
    open_lexicon,
    pattern,
    read_checked,
)
from .lexicon import _aligned_buffer as _aligned_buffer
from .lexicon import _collect as _collect
from .movegen import (
    DIRECTIONS,
    MOVE_RECORD_SIZE,
    MOVES_START,
    STREAM_CHUNK,
    WORD_RECORD_SIZE,
    WORDS_CAPACITY,
    Workspace,
    count_moves,
    count_plays,
    direction_options,
    equity_options,
    generate,
    generate_equity,
    move_words,
    new_rules,
    new_workspace,
    prepare,
    prepare_and_generate,
    stream,
)
from .movegen import _run_generator as _run_generator
from .preendgame import PEG_TABLE_BYTES, PEG_UNIT, PegState, PegValue, peg_share, peg_start, peg_value
from .selfplay import PLAYER_KINDS, TURN_RECORD, TURN_SIZE, PlayedGame, SelfPlay, Turn, autoplay, read_game
from .simulation import (
    PLAYOUT_SIZE,
    SIM_CANDIDATE,
    SimCandidateStats,
    SimScratch,
    SimState,
    sim_drop,
    sim_merge,
    sim_play,
    sim_results,
    sim_run,
    sim_seeds,
    sim_start,
)
from .training import RackStats, train_game

__all__ = [
    "CoreBuildError",
    "CoreError",
    "CoreFormatError",
    "DIRECTIONS",
    "DawgWorkspace",
    "ENDGAME_MOVE_CAPACITY",
    "ENDGAME_TABLE_BYTES",
    "EndgameResult",
    "EndgameState",
    "GAME_SIZE",
    "GameState",
    "INFERRED_LEAVE",
    "InferSummary",
    "LEAVES_TILE_COUNTS_OFFSET",
    "MOVES_START",
    "MOVE_RECORD_SIZE",
    "OUTPUT_START",
    "OpenedLeaves",
    "OpenedLexicon",
    "PEG_TABLE_BYTES",
    "PEG_UNIT",
    "PHASES",
    "PLAYER_KINDS",
    "PlayedGame",
    "ProgressCallback",
    "RackStats",
    "PLAYOUT_SIZE",
    "PegState",
    "PegValue",
    "SIM_CANDIDATE",
    "STREAM_CHUNK",
    "SelfPlay",
    "SimCandidateStats",
    "SimScratch",
    "SimState",
    "TURN_RECORD",
    "TURN_SIZE",
    "Turn",
    "WORDS_CAPACITY",
    "WORD_RECORD_SIZE",
    "Workspace",
    "anagrams",
    "autoplay",
    "build",
    "build_leaves",
    "choose_move",
    "containing",
    "contains",
    "count_moves",
    "count_plays",
    "crc32",
    "dawg_generate",
    "dawg_prepare",
    "direction_options",
    "endgame_restart",
    "endgame_share",
    "endgame_root_moves",
    "endgame_search",
    "endgame_start",
    "endgame_words",
    "ensure_walk_index",
    "equity_options",
    "ffi",
    "game_board",
    "game_from_position",
    "game_move",
    "game_rack",
    "game_unseen",
    "generate",
    "generate_equity",
    "infer",
    "leaves_count",
    "leaves_index",
    "leaves_tiles",
    "leaves_value",
    "leaves_values",
    "lib",
    "move_words",
    "new_game",
    "new_rules",
    "new_workspace",
    "open_leaves",
    "peg_share",
    "peg_start",
    "peg_value",
    "open_lexicon",
    "pattern",
    "prepare",
    "prepare_and_generate",
    "read_checked",
    "read_game",
    "sim_drop",
    "sim_merge",
    "sim_play",
    "sim_results",
    "sim_run",
    "sim_seeds",
    "sim_start",
    "stream",
    "train_game",
]
