"""``grade``: a player's accuracy, win rates and wrong positions, each checked against an
independent count (a plain recursive solver over every arrangement of the piles)."""

from __future__ import annotations

import itertools
import signal
import time
from functools import lru_cache

import numpy as np
import pytest

from nim_evo import Rules, make_agent
from nim_evo import grade_player as grade
from nim_evo.agents.course import CourseState
from nim_evo.games import nimtheory as theory
from nim_evo.validation import AgentError, KeywordError, UserError

CS50 = Rules((1, 3, 5, 7), misere=True)
LAB = Rules((1, 3, 5, 7, 9))


def _moves(piles, cap):
    return [(i, c) for i, n in enumerate(piles) for c in range(1, min(n, cap or n) + 1)]


def _after(piles, move):
    i, c = move
    return piles[:i] + (piles[i] - c,) + piles[i + 1:]


def _solver(rules: Rules):
    @lru_cache(maxsize=None)
    def wins(piles) -> bool:
        if not any(piles):
            return rules.misere  # the opponent took the last object
        return any(not wins(_after(piles, m)) for m in _moves(piles, rules.max_take))
    return wins


def _positions(rules: Rules):
    return [p for p in itertools.product(*(range(n + 1) for n in rules.piles)) if any(p)]


def _accuracy(rules: Rules, answer) -> float:
    """The share of winning positions where ``answer(piles)`` (a move) wins, or, if it gives
    a list of moves with probabilities, the mean probability of a winning one."""
    wins = _solver(rules)
    shares = []
    for piles in filter(wins, _positions(rules)):
        given = answer(piles)
        options = given if isinstance(given, list) else [(given, 1.0)]
        shares.append(sum(p for move, p in options if not wins(_after(piles, tuple(move)))))
    return sum(shares) / len(shares)


def test_a_course_q_learner_gets_its_exact_accuracy(course):
    ai = course.trained_ai()
    report = grade(ai, CS50)
    expected = _accuracy(CS50, lambda piles: ai.choose_action(list(piles), epsilon=False))
    assert report.exact and report.ordered
    assert report.accuracy == pytest.approx(expected, abs=1e-12)
    assert 0.3 < report.accuracy < 1  # 2,000 self-play games: far from random, not yet perfect
    assert report.positions == sum(map(_solver(CS50), _positions(CS50)))
    assert report.convention == "misère play: whoever takes the last object loses"


def test_a_lab_strategy_gets_its_exact_accuracy_and_its_wrong_positions(course):
    report = grade(course.gabriele, LAB)
    wins = _solver(LAB)

    def move(piles):
        return tuple(course.gabriele(CourseState(piles)))

    assert report.accuracy == pytest.approx(_accuracy(LAB, move), abs=1e-12)
    missed = [p for p in _positions(LAB) if wins(p) and wins(_after(p, move(p)))]
    assert report.wrong_positions == len(missed)
    assert [w.position for w in report.wrong] == sorted(missed, key=lambda p: (sum(p), p))[:10]
    for w in report.wrong:
        assert w.played == ((move(w.position), 1.0),) and not wins(_after(w.position, w.winning))
    expert = grade(course.expert, LAB)
    assert expert.accuracy == 1.0 and expert.wrong == () and expert.win_rates["random"]["first"] == pytest.approx(1)


def test_a_random_player_is_graded_by_its_mean_probability_of_a_winning_move():
    rules = Rules((2, 3, 4), 3, True)
    report = grade("random", rules)
    expected = _accuracy(rules, lambda piles: [(m, 1 / len(_moves(piles, 3))) for m in _moves(piles, 3)])
    assert not report.ordered and report.accuracy == pytest.approx(expected, abs=1e-12)
    # random against itself: the two seats' rates add up to 1
    assert report.win_rates["random"]["first"] + report.win_rates["random"]["second"] == pytest.approx(1)
    perfect = grade(make_agent("nimsum", rules), rules)
    start_wins = _solver(rules)(rules.piles)
    assert perfect.accuracy == 1.0
    assert perfect.win_rates["nimsum"] == pytest.approx({"first": float(start_wins), "second": float(not start_wins)})


def test_an_illegal_move_is_a_finding_and_an_exception_is_an_error(course):
    report = grade(course.cheater, LAB)
    assert report.exact and report.illegal_moves > 0
    illegal = [w for w in report.wrong if w.illegal is not None]
    assert illegal and all(3 in w.position and w.played == () for w in illegal)
    assert all(w.illegal == (w.position.index(3), 4) for w in illegal)  # the move it answered
    # every position holding a pile of three is wrong: the cheater plays (row, 4) there
    wins = _solver(LAB)
    assert report.illegal_moves == sum(1 for p in _positions(LAB) if wins(p) and 3 in p)
    with pytest.raises(AgentError, match=r"broken raised KeyError at \([0-9, ]+\): 'no entry"):
        grade(course.broken, LAB)


def test_a_player_with_random_moves_only_is_sampled_with_a_margin(course):
    report = grade(course.untrained_ai, CS50, positions=400, games=40)
    assert not report.exact and "its moves are random" in report.sampled_because
    assert report.positions == 400 and 0 < report.margin < 0.06
    # untrained, every Q is 0: it plays a uniformly random move, whose exact accuracy we know
    expected = _accuracy(CS50, lambda piles: [(m, 1 / len(_moves(piles, None))) for m in _moves(piles, None)])
    assert abs(report.accuracy - expected) < 3 * report.margin


def test_a_board_too_big_is_sampled_and_theory_judges_the_moves():
    rules = Rules((10**12, 7, 3**30), misere=True)
    report = grade("nimsum", rules, positions=300, games=20)
    assert not report.exact and "too big" in report.sampled_because
    assert report.accuracy == 1.0 and report.wrong == ()
    assert report.win_rates["random"]["first"] == 1.0  # the start is a win (nim-sum not zero)
    take_one = grade("take-1", rules, positions=300, games=3)
    assert take_one.accuracy < 0.05 and take_one.margin > 0
    for w in take_one.wrong:  # each shown position is a win that its move throws away, by Nim theory
        assert theory.is_win(rules, w.position) and theory.is_win(rules, rules.apply(w.position, w.played[0][0]))
        assert not theory.is_win(rules, rules.apply(w.position, w.winning))
    assert len({w.position for w in take_one.wrong}) == len(take_one.wrong)
    # against nimsum, taking one at a time from 10^12 objects never ends: left unfinished, and said
    assert take_one.win_rates["nimsum"]["first"] is None and take_one.unfinished >= 3


class Slow:
    """Takes one from the first pile it can, after ``seconds``."""

    name = "Slowpoke"

    def __init__(self, seconds: float = 0.002):
        self.seconds = seconds

    def move(self, piles, rng):
        time.sleep(self.seconds)
        return next((i, 1) for i, n in enumerate(piles) if n)


def test_a_slow_player_is_sampled_and_says_how_long_asking_would_take():
    report = grade(Slow(), Rules((3, 4, 5)), budget=0.1, positions=2000, games=200)
    assert not report.exact and report.sampled_because.startswith("asking Slowpoke at all 119 positions would take")
    assert report.sampled_because.endswith(" s (budget 0.1 s)")


def test_the_budget_bounds_the_whole_grade_and_a_sample_it_cuts_says_so():
    """Asked for 2,000 positions and 200 games a seat at 0.01 s a move within 0.5 s, the grade
    stops at the budget (it took the sample's floor of 100 positions and 10 games, 10 s, before),
    with the positions it asked, and says what the cut left."""
    began = time.perf_counter()
    report = grade(Slow(0.01), Rules((3, 4, 5)), budget=0.5, positions=2000, games=200)
    assert time.perf_counter() - began < 0.5 + 3  # (solving and starting aside: it stops at the budget)
    assert not report.exact and 1 <= report.positions < 100 and report.games < 10
    assert report.cut_short == (f"the budget of 0.5 s ran out: {report.positions} of 100 positions asked, "
                                f"{report.games} of 10 games a seat played")
    assert report.accuracy == (report.positions - report.wrong_positions) / report.positions


def test_a_player_that_never_answers_is_stopped_at_the_budget():
    """Sleeping forever, or looping forever in its own code (catching every Exception as it
    goes): stopped at the budget, one line naming it, and a timer set before is set again."""
    class Asleep:
        name = "asleep"

        def move(self, piles, rng):
            time.sleep(10**6)

    class Looping:
        name = "looping"

        def move(self, piles, rng):
            while True:
                try:
                    sum(range(1000))
                except Exception:
                    pass

    def mine(*_):
        pass

    handler = signal.signal(signal.SIGALRM, mine)
    signal.setitimer(signal.ITIMER_REAL, 1000)
    try:
        for player in (Asleep(), Looping()):
            began = time.perf_counter()
            with pytest.raises(KeywordError, match=f"^{player.name} answered no position within the budget of 0.3 s; "
                                                   "pass a bigger budget$"):
                grade(player, Rules((3, 4, 5)), budget=0.3)
            assert time.perf_counter() - began < 0.3 + 3
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 990 < left <= 1000 and signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, handler)


def test_a_player_stopped_mid_way_is_told_how_far_it_got_and_no_budget_is_too_big():
    """A player that slows down past the estimate while every position is asked (quick for 30
    answers, then asleep): stopped at the budget, saying how many it answered (it said "no
    position"); one that swallows the interruption once is interrupted again; a budget too big
    for the system's timer (10^12 s) grades as any other."""
    class Late:
        name = "late"

        def __init__(self):
            self.answers = 0

        def move(self, piles, rng):
            self.answers += 1
            if self.answers > 30:
                time.sleep(10**6)
            return next((i, 1) for i, n in enumerate(piles) if n)

    class Stubborn:
        name = "stubborn"

        def move(self, piles, rng):
            try:  # it swallows the first interruption, and sleeps again
                time.sleep(10**6)
            except BaseException:
                pass
            time.sleep(10**6)

    with pytest.raises(KeywordError, match="^the budget of 0.5 s ran out after late answered [1-9][0-9]* of 119 "
                                           "positions; pass a bigger budget$"):
        grade(Late(), Rules((3, 4, 5)), budget=0.5)
    began = time.perf_counter()
    with pytest.raises(KeywordError, match="^stubborn answered no position within the budget of 0.3 s"):
        grade(Stubborn(), Rules((3, 4, 5)), budget=0.3)
    assert time.perf_counter() - began < 0.3 + 3
    assert grade("nimsum", Rules((3, 4, 5)), budget=1e12).accuracy == 1.0


def test_long_games_end_at_the_budget():
    """Taking one at a time on 20 piles of 2^30, a game never ends within 10,000 moves: the
    sampled games are cut at the budget (they took 423 s, whatever the budget)."""
    began = time.perf_counter()
    report = grade("take-1", Rules((2**30,) * 20), budget=2, positions=300, games=200)
    assert time.perf_counter() - began < 2 + 5
    assert report.positions == 300 and report.games < 200 and "games a seat played" in report.cut_short


def test_a_row_on_an_illegal_move_is_a_finding_and_a_row_that_is_no_distribution_an_error():
    """A move_probabilities agent, order-blind, that always takes 3 from its largest pile, even
    of 1 or 2 (a finding, counted once for each arrangement), or answers rows summing to 0.5 (an
    error)."""
    rules = Rules((3, 3, 3))

    class Greedy:
        name, order_blind = "greedy", True

        def __init__(self, half=False):
            self.half = half

        def move_probabilities(self, positions):
            rows = np.zeros((len(positions), rules.n_moves))
            for r, piles in enumerate(positions):
                rows[r, rules.moves.index((int(np.argmax(piles)), 3))] = 0.5 if self.half else 1.0
            return rows

    report = grade(Greedy(), rules)
    wins = _solver(rules)
    bad = [p for p in _positions(rules) if wins(p) and max(p) < 3]
    assert report.exact and not report.ordered and report.illegal_moves == len(bad) > 0
    assert all(w.illegal == (w.position.index(max(w.position)), 3) for w in report.wrong if w.illegal is not None)
    assert report.win_rates["random"]["first"] < 1  # it forfeits where it cannot take 3
    with pytest.raises(AgentError, match=r"greedy answered probabilities summing to 0\.5 at \("):
        grade(Greedy(half=True), rules)


def test_a_board_without_a_winning_position_has_no_accuracy():
    report = grade("nimsum", Rules((1,), misere=True))
    assert report.accuracy is None and report.positions == 0


def test_bad_arguments_are_one_line(course):
    with pytest.raises(UserError, match="positions"):
        grade("random", LAB, positions=0)
    with pytest.raises(UserError, match="no-such"):
        grade("no-such", LAB)
    with pytest.raises(UserError, match="player must be .* or an agent"):
        grade(object(), LAB)
    with pytest.raises(UserError, match="nimsum plays 3-4, not 1-3-5-7-9"):  # a player of another board
        grade(make_agent("nimsum", Rules((3, 4))), LAB)
    with pytest.raises(UserError, match="player must be .*got <class '.*NimAI'>"):
        grade(course.NimAI, LAB)
    with pytest.raises(AgentError, match=r"answered .*NimAI object.* it should answer \(row, num_objects\) \(a "
                                         r"function of one parameter is taken for a strategy; an agent's factory "
                                         r"names its parameter rules\)"):
        grade(lambda game: course.NimAI(), CS50)  # a factory whose parameter is not called rules


def test_the_json_holds_the_figures():
    data = grade("take-1", Rules((3, 4))).to_json()
    assert {"accuracy", "positions", "wrong", "win_rates"} <= set(data)
    assert data["wrong"][0]["winning_move"] and np.isfinite(data["accuracy"])
