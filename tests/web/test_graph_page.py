"""The page of a champion whose game takes from several heaps or splits one, in a real browser:
a Kayles row played to the end by clicking pins, Wythoff's diagonal take by clicking both heaps,
the move list, a refused pick, a reload mid-game. (The browser and its helpers are
test_browser's: without Chromium these tests skip with it.)"""

import numpy as np
import pytest

import nim_evo
from nim_evo import evolve
from nim_evo.commands.export import main as export
from test_browser import By, body, browser, open_page, piles, wait_state  # noqa: F401  (browser: a fixture)


@pytest.fixture(scope="module")
def graph_pages(tmp_path_factory):
    where = tmp_path_factory.mktemp("graph-pages")
    made = {}
    for name in ("20-kayles", "5-6-wythoff"):
        run = evolve("table", nim_evo.game(name), opponents=["random", "perfect"], until="accuracy=1",
                     generations=60, seed=0, progress=False)
        assert run.accuracy == 1.0
        made[name] = where / f"{name}.html"
        assert export(["--html", str(made[name]), str(run.export(where / f"{name}.json"))]) == 0
    return made


def position(driver, board):
    """The position the page shows: each heap row's slot and size (empty slots are not drawn)."""
    row = [0] * board.width
    for heap in driver.find_elements(By.CSS_SELECTOR, "#board .pile"):
        row[int(heap.get_attribute("data-pile"))] = int(heap.get_attribute("data-size"))
    return tuple(row)


def click_pins(driver, move):
    """Knock down the pins of a Kayles move ``(heap, take, part)``: ``part`` pins stay on its left."""
    heap, take, part = move
    for pin in range(part, part + take):
        driver.find_element(By.CSS_SELECTOR, f'button.obj[data-pile="{heap}"][data-pin="{pin}"]').click()


def test_a_kayles_row_is_played_to_its_end_by_clicking_pins(browser, graph_pages):  # noqa: F811
    """20 pins, a first-player win: the champion moving first wins whatever legal pins the person
    knocks down; each click shows the move it names on Play, and the board follows the rule."""
    board = nim_evo.game("20-kayles")
    rng = np.random.default_rng(1)
    open_page(browser, graph_pages["20-kayles"], "champion")
    assert "knocks down one pin or two side by side" in browser.find_element(By.ID, "rules").text
    moves = 0
    while wait_state(browser, "your-turn", "over") == "your-turn":
        here = position(browser, board)
        legal = board.legal_moves(here)
        move = legal[int(rng.integers(len(legal)))]
        click_pins(browser, move)
        play = browser.find_element(By.ID, "take")
        assert play.text == f"Play {board.action_label(board.action_of(move))}"
        play.click()
        moves += 1
        after = body(browser, "state")
        assert after in ("champion-turn", "over")
        if after == "champion-turn":  # the person's move, before the champion answers
            assert sorted(position(browser, board)) == sorted(board.apply(here, move))
    assert moves >= 3 and body(browser, "winner") == "champion"
    assert browser.find_element(By.ID, "status").text == "The champion wins."
    assert piles(browser) == []  # every pin down
    log = browser.find_element(By.ID, "log").text.splitlines()
    assert log[-1].startswith("The champion played") and log[-1].endswith("-> nothing")


def test_a_pick_that_is_no_move_is_refused_and_the_list_plays(browser, graph_pages):  # noqa: F811
    open_page(browser, graph_pages["20-kayles"], "you")
    wait_state(browser, "your-turn")
    for pin in (2, 6):  # five pins at once: no move of Kayles
        browser.find_element(By.CSS_SELECTOR, f'button.obj[data-pile="0"][data-pin="{pin}"]').click()
    play = browser.find_element(By.ID, "take")
    assert not play.is_enabled() and play.text == "Play"
    browser.find_element(By.TAG_NAME, "body").send_keys("\n")  # Enter: the pick refused, and said so
    assert "no move of this game here" in browser.find_element(By.ID, "message").text
    listed = browser.find_elements(By.CSS_SELECTOR, "button.move")
    assert len(listed) == len(nim_evo.game("20-kayles").legal_moves((20,) + (0,) * 9))
    listed[0].click()  # 1 1 0: one pin off the end
    assert piles(browser) == [19] and body(browser, "state") == "champion-turn"
    wait_state(browser, "your-turn", "over")
    before = browser.find_element(By.ID, "log").text
    browser.refresh()  # a reload mid-game goes on with it
    assert browser.find_element(By.ID, "log").text == before
    assert "Welcome back" in browser.find_element(By.ID, "message").text


def test_wythoff_s_diagonal_take_is_clicked_on_both_heaps_and_perfect_play_wins(browser, graph_pages):  # noqa: F811
    """5-6 is no cold pair: the person, moving first and playing Wythoff's winning moves by
    clicking objects (both heaps for a diagonal take), beats the perfect champion."""
    board = nim_evo.game("5-6-wythoff")
    perfect = nim_evo.make_agent("perfect", board)
    open_page(browser, graph_pages["5-6-wythoff"], "you")
    diagonal = 0
    while wait_state(browser, "your-turn", "over") == "your-turn":
        here = tuple(piles(browser))
        move = perfect.winning_moves(here)[0]
        for heap, count in enumerate(move):
            if count:
                browser.find_element(By.CSS_SELECTOR, f'button.obj[data-pile="{heap}"][data-take="{count}"]').click()
        diagonal += all(move)
        browser.find_element(By.ID, "take").click()
    assert body(browser, "winner") == "you" and browser.find_element(By.ID, "status").text == "You win!"
    assert diagonal >= 1  # (5, 6) -> (3, 5) is the diagonal take of 2 from both
