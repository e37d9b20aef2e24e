"""bench/merge_autoplay.py: the summaries of a match run in chunks merged into one table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import merge_autoplay  # noqa: E402


def run_chunk(tmp_path: Path, seed: int, games: int) -> dict:
    out = tmp_path / f"chunk-{seed}.json"
    subprocess.run(
        [sys.executable, "-m", "gaddag_solver", "autoplay", "--lexicon", "sowpods",
         "--players", "equity,greedy", "--games", str(games), "--seed", str(seed), "--workers", "1",
         "--json", str(out)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.read_text())


def test_chunks_add_up_and_one_chunk_is_itself(tmp_path: Path) -> None:
    chunks = [run_chunk(tmp_path, seed, games) for seed, games in ((11, 8), (12, 6))]
    merged = merge_autoplay.merge(chunks)
    for k, player in enumerate(merged):
        for key in ("games", "wins", "draws", "losses"):
            assert player[key] == sum(chunk["players"][k][key] for chunk in chunks)
        points = player["wins"] + player["draws"] / 2
        assert player["win_rate"].value == pytest.approx(points / player["games"])
        spreads = [chunk["players"][k]["mean_spread"]["value"] for chunk in chunks]
        assert min(spreads) <= player["spread"] <= max(spreads)
    # a single run merged alone gives back its own figures
    (alone, _) = merge_autoplay.merge(chunks[:1])
    own = chunks[0]["players"][0]
    assert alone["win_rate"].low == pytest.approx(own["win_rate"]["low"])
    assert alone["spread"] == pytest.approx(own["mean_spread"]["value"])
    assert alone["spread_half"] == pytest.approx(own["mean_spread"]["high"] - own["mean_spread"]["value"])


def test_runs_of_other_players_are_refused(tmp_path: Path) -> None:
    one = run_chunk(tmp_path, 13, 2)
    other = json.loads(json.dumps(one))
    other["players"][0]["name"] = "best:1s"
    with pytest.raises(SystemExit, match="the same players"):
        merge_autoplay.merge([one, other])
