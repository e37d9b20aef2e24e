"""The pre-endgame shared among searches that share no memory (docs/preendgame.md, "Workers"):
a dealer lends root candidates to helpers, each a search of its own on the same position, and
takes their values back. The answer is the one search's, however the rounds are cut: the best,
every exact figure, every bound. Positions come from self-play on the small set of
tests/test_preendgame.py, whose brute-force model is the oracle of the search alone."""

from __future__ import annotations

import pytest
from gaddag_solver.game import preendgame as preendgame_module
from gaddag_solver.game import preendgame_lent
from gaddag_solver.game.preendgame import PreendgameError, PreendgameResult, PreendgameSearch
from test_preendgame import preendgames
from test_preendgame_threads import same_answer


def shared(
    search: PreendgameSearch, helpers: list[PreendgameSearch], seconds: float
) -> tuple[PreendgameResult, int]:
    """Rounds as the page makes them: the dealer lends, each helper works ``seconds`` while the
    dealer runs as long, the helpers' answers are taken back; a helper is lent twice what it
    finished, and more when it ran out of work. Returns the dealer's last result and the values
    lent out."""
    wants = [1] * len(helpers)
    valued = 0
    for _round in range(20_000):
        shares = search.lend(wants)
        answers = [h.work_lent(s["jobs"], s["slack"], seconds) for h, s in zip(helpers, shares, strict=True)]
        result = search.run(time_limit=seconds)
        for number, answer in enumerate(answers):
            search.take_back(number, answer)
            valued += len(answer["values"])
            starved = answer["held"] == 0 and shares[number]["jobs"]
            wants[number] = min(64, max(1, 2 * answer["finished"], 2 * wants[number] if starved else 0))
        if result.complete:
            assert not search._lent and not search._valuing
            return result, valued
    raise AssertionError("the shared search did not finish")


@pytest.mark.parametrize("bag", [1, 2])
def test_a_search_shared_with_helpers_gives_the_answer_of_one(bag: int) -> None:
    games = preendgames(bag, range(60))[: 8 if bag == 1 else 4]
    lent_out = 0
    for game in games:
        alone = PreendgameSearch(game).run()
        search = PreendgameSearch(game)
        result, valued = shared(search, [PreendgameSearch(game)], 0.01)
        same_answer(alone, result)
        lent_out += valued > 0
        assert result.endgames >= sum(c.endgames for c in search._contexts)
    assert lent_out >= len(games) // 2  # the helpers valued worlds of their own


def test_two_helpers_over_several_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets of one and 300 positions put nearly every world off to a later pass, and rounds of
    5 ms leave worlds half valued on a helper: the answer stands."""
    for game in preendgames(2, range(60))[:3]:
        alone = PreendgameSearch(game).run()
        monkeypatch.setattr(preendgame_module, "WORLD_BUDGETS", (1, 300))
        search = PreendgameSearch(game)
        result, valued = shared(search, [PreendgameSearch(game), PreendgameSearch(game)], 0.005)
        monkeypatch.undo()
        same_answer(alone, result)
        assert valued > 0


def test_a_helper_without_slack_drops_the_candidate() -> None:
    """A candidate whose slack is gone is not valued further: its worlds come back dropped, and
    the dealer rules it out too."""
    game = next(g for g in preendgames(1, range(60)) if len(PreendgameSearch(g)._root) >= 4)
    search = PreendgameSearch(game)
    search.run()  # solved alone: a best to beat
    helper = PreendgameSearch(game)
    index = len(search._root) - 1
    worlds = list(range(len(search._root_worlds)))
    job = {"index": index, "worlds": worlds, "budget": 0}
    answer = helper.work_lent([job], {str(index): ["0/1", True]}, 1.0)
    assert answer["values"] == [] and sorted(k for _i, k in answer["dropped"]) == worlds
    assert answer["held"] == 0
    job = {"index": 0, "worlds": worlds[:1], "budget": 0}
    with_slack = helper.work_lent([job], {"0": ["1/1", False]}, 5.0)
    assert [v[:2] for v in with_slack["values"]] == [[0, 0]] and with_slack["dropped"] == []


def test_answers_not_lent_are_refused() -> None:
    game = preendgames(1, range(60))[0]
    search = PreendgameSearch(game)
    with pytest.raises(PreendgameError, match="not lent"):
        search.take_back(0, {"values": [[0, 0, 1440]]})
    with pytest.raises(PreendgameError, match="not one of the position's"):
        search.take_back(0, {"values": [[0, 999, 1440]]})
    with pytest.raises(PreendgameError, match="not one work_lent gives"):
        search.take_back(0, {"values": [["x", 0]]})
    helper = PreendgameSearch(game)
    for job, said in (
        ({"index": 10_000, "worlds": [0], "budget": 0}, "not one of the position's"),
        ({"index": 0, "worlds": [10_000], "budget": 0}, "not the position's"),
        ({"index": 0, "worlds": [0], "budget": -1}, "a number of positions"),
    ):
        with pytest.raises(PreendgameError, match=said):
            helper.work_lent([job], {}, 1.0)
    with pytest.raises(PreendgameError, match="fraction written p/q"):
        helper.work_lent([], {"0": ["half", False]}, 1.0)


def test_a_world_cut_short_by_the_clock_keeps_what_it_took_of_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A helper's round that ends inside a world does not give the world its budget afresh next
    round: one slice a round, the world goes over its budget after as many rounds as the budget
    holds slices (were the budget reset each round, it never would, nor ever end)."""
    game = preendgames(1, range(60))[0]
    nodes, index, k = costliest_world(game)
    budget, slice_nodes = nodes // 2, nodes // 10
    helper = PreendgameSearch(game, slice_nodes=slice_nodes)
    monkeypatch.setattr(helper, "_check_clock", one_slice_a_call())
    jobs = [{"index": index, "worlds": [k], "budget": budget}]
    taken = rounds = 0
    while rounds < 100:
        rounds += 1
        answer = helper.work_lent(jobs, {}, 1.0)
        jobs = []
        taken += answer["nodes"]
        if answer["over"]:
            break
        assert answer["held"] == 1 and answer["values"] == []
    assert answer["over"] == [[index, k]] and answer["held"] == 0 and answer["finished"] == 1
    assert budget <= taken < nodes and rounds <= budget // slice_nodes + 2


def test_the_dealer_s_world_cut_short_keeps_what_it_took_of_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same for the search's own valuing: a world taken again after a step ended inside it
    goes on with what is left of its budget, so the costliest world, at twice the budget, is
    put off to a later pass as in one uninterrupted run."""
    game = preendgames(1, range(60))[0]
    nodes, index, k = costliest_world(game)
    search = PreendgameSearch(game, slice_nodes=nodes // 10)
    search._local.context = search._contexts[0]
    monkeypatch.setattr(search, "_check_clock", one_slice_a_call())
    for _step in range(100):
        try:
            search._value_root(index, nodes // 2)
            break
        except preendgame_module._Interrupted:
            continue
    assert (index, search._root_worlds[k].opponent) in search._skipped


def costliest_world(game: object) -> tuple[int, int, int]:
    """(endgame positions, candidate, world) of the candidate's world that takes the most to value."""
    probe = PreendgameSearch(game)
    probe._local.context = context = probe._contexts[0]
    costs = []
    for index, root in enumerate(probe._root):
        for k, world in enumerate(probe._root_worlds):
            before = context.nodes
            probe._root_value(world, root.record)
            costs.append((context.nodes - before, index, k))
    assert max(costs)[0] >= 200
    return max(costs)


def one_slice_a_call():  # type: ignore[no-untyped-def]
    """A clock that ends a call at its second check: one slice of endgame positions a call."""
    checks = [0]

    def check() -> None:
        checks[0] += 1
        if checks[0] % 2 == 0:
            raise preendgame_module._Interrupted

    return check


def test_a_later_pass_lends_a_helper_the_worlds_it_went_over_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets of one and 300 positions: the worlds a helper found over the second pass's budget
    are lent to it again in the last pass, and no others (only the first two lend any candidate);
    a dealer that stops lending takes them back and ends alone, with the answer of one search."""
    checked = 0
    for game in preendgames(2, range(60))[:3]:
        alone = PreendgameSearch(game).run()
        monkeypatch.setattr(preendgame_module, "WORLD_BUDGETS", (1, 300))
        for stop_lending in (False, True):
            search, helper = PreendgameSearch(game), PreendgameSearch(game)
            went_over: dict[int, set[tuple[int, int]]] = {}
            result = search.run(time_limit=0.0)
            while not result.complete:
                if stop_lending and search._pass > 1:
                    search.lend([])  # no helper now: what it was to be lent again is the dealer's
                    result = search.run()
                    assert not search._lent
                    break
                step = search._pass
                share = search.lend([4])[0]
                for job in share["jobs"]:
                    if step > preendgame_lent.LEND_PASSES:
                        assert {(job["index"], k) for k in job["worlds"]} <= went_over[step - 1]
                        checked += 1
                answer = helper.work_lent(share["jobs"], share["slack"], 0.005)
                result = search.run(time_limit=0.005)
                went_over.setdefault(step, set()).update(map(tuple, answer["over"]))
                search.take_back(0, answer)
                if not result.complete:
                    result = search.run(time_limit=0.005)
            same_answer(alone, result)
        monkeypatch.undo()
    assert checked > 0


def test_a_helper_is_lent_half_the_worlds_of_the_candidate_the_dealer_was_cut_short_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The dealer's step ends inside a candidate's costly world: the next share lends a helper
    the later half of that candidate's other free worlds (the one begun stays with the dealer),
    before any new candidate; shared so, the answer is one search's."""
    game = preendgames(1, range(60))[0]
    alone = PreendgameSearch(game).run()
    nodes, index, k = costliest_world(game)
    search = PreendgameSearch(game, slice_nodes=nodes // 10)
    search._local.context = search._contexts[0]
    monkeypatch.setattr(search, "_check_clock", one_slice_a_call())
    search._next = index + 1  # the candidates before it are someone else's
    search._active.append(index)
    with pytest.raises(preendgame_module._Interrupted):
        while True:
            search._value_root(index, 2 * nodes)
    search._active.remove(index)
    search._retry.append(index)
    begun = [w for w in search._root_worlds if (index, w.opponent) in search._spent]
    assert len(begun) == 1
    free = [w for w in search._free_worlds(index) if w not in begun]
    share = search.lend([4])[0]
    first = share["jobs"][0]
    assert first["index"] == index
    assert first["worlds"] == [search._root_worlds.index(w) for w in free[len(free) // 2 :]]
    monkeypatch.undo()
    helper = PreendgameSearch(game)
    search.take_back(0, helper.work_lent(share["jobs"], share["slack"], 60.0))
    result, _valued = shared(search, [helper], 0.01)
    same_answer(alone, result)


def test_the_estimate_from_3_in_the_bag_shared_with_a_helper_is_the_estimate_of_one() -> None:
    """Successive halving shared: a helper is lent worlds of the round from its end, the round
    ends once every world of it is valued wherever, and the estimate (every candidate's figure,
    who was dropped, the best) is the one search's."""
    games = [g for g in preendgames(3, range(60)) if len(PreendgameSearch(g)._root) >= 6][:2]
    assert len(games) == 2
    for game in games:
        alone = PreendgameSearch(game).run()
        search, helper = PreendgameSearch(game), PreendgameSearch(game)
        lent = 0
        result = search.run(time_limit=0.0)
        for _round in range(10_000):
            share = search.lend([8])[0]
            lent += sum(len(job["worlds"]) for job in share["jobs"])
            answer = helper.work_lent(share["jobs"], share["slack"], 0.002)
            result = search.run(time_limit=0.002)
            search.take_back(0, answer)
            if result.complete:
                break
        if not result.complete:
            result = search.run()
        assert result.complete and result.method == "halving" and lent > 0
        assert result.best_index == alone.best_index
        for a, b in zip(alone.candidates, result.candidates, strict=True):
            assert (a.status, a.estimate, a.worlds_valued) == (b.status, b.estimate, b.worlds_valued)
        with pytest.raises(PreendgameError, match="not lent"):
            search.take_back(0, {"values": [[0, 0, "1/2"]]})
