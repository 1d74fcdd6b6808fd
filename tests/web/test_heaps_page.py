"""The page of a splitting game's program, in a real browser: twelve heaps of up to 100,000 set
by the person, the champion's moves (Python's moves, leaving lost positions), typed moves and
refused ones, a game of small heaps played to its end. (The browser and its helpers are
test_browser's: without Chromium these tests skip with it.)"""

import json

import numpy as np
import pytest

from nim_evo.commands.export import main as export
from nim_evo.games import bigheaps, game
from nim_evo.genomes import genome_document
from nim_evo.genomes.program import KIND
from nim_evo.genomes.scoring import split_child
from test_browser import By, Select, body, browser, wait_state  # noqa: F401  (browser: a fixture)

XOR = "sub(or(a, p), and(a, p))"
BIG = [int(n) for n in np.random.default_rng(1).integers(10**4, 10**5, size=12)]


@pytest.fixture(scope="module")
def kayles_page(tmp_path_factory):
    where = tmp_path_factory.mktemp("heaps-page")
    rules = game("10-kayles")
    genes = KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": rules.grundy_words()}, rules)
    (where / "kayles.json").write_text(json.dumps(genome_document("program", genes, rules)))
    assert export(["--html", str(where / "kayles.html"), str(where / "kayles.json")]) == 0
    return where / "kayles.html", KIND.plain(genes)


def heaps(driver) -> tuple:
    """The heaps the page shows, in their places (an empty place is not drawn)."""
    rows = {int(r.get_attribute("data-pile")): int(r.get_attribute("data-size"))
            for r in driver.find_elements(By.CSS_SELECTOR, "#board .pile")}
    return tuple(rows.get(i, 0) for i in range(max(rows) + 1)) if rows else ()


def start(driver, page, first, board):
    driver.get(page.as_uri())
    field = driver.find_element(By.ID, "piles")
    field.clear()
    field.send_keys(" ".join(map(str, board)))
    Select(driver.find_element(By.ID, "first")).select_by_value(first)
    driver.find_element(By.ID, "new").click()


def type_move(driver, text):
    field = driver.find_element(By.ID, "move")
    field.clear()
    field.send_keys(text + "\n")


def test_the_champion_plays_twelve_heaps_of_up_to_100000_as_python_does(browser, kayles_page):
    page, genes = kayles_page
    kayles = bigheaps.open_board("-".join(map(str, BIG)) + "-kayles")
    values = kayles.values_for(10**5)
    start(browser, page, "champion", BIG)
    assert wait_state(browser, "your-turn", timeout=60) == "your-turn"
    shown = heaps(browser)
    assert shown == bigheaps.apply(tuple(BIG), bigheaps.move_to(tuple(BIG), split_child(genes, kayles, BIG)))
    assert np.bitwise_xor.reduce(values(np.array(shown))) == 0  # it left a lost position
    for typed, message in [("1 3 0", "cannot be played"), ("99 1 0", "There is no heap 99"),
                           ("1 1", "Type three whole numbers")]:
        type_move(browser, typed)
        assert message in browser.find_element(By.ID, "message").text and body(browser, "state") == "your-turn"
    type_move(browser, "2 1 10")
    assert wait_state(browser, "your-turn", timeout=60) == "your-turn"
    after = heaps(browser)
    assert sum(shown) - sum(after) in (2, 3)  # (one pin of mine, one or two of its)
    assert np.bitwise_xor.reduce(values(np.array(after))) == 0
    log = browser.find_element(By.ID, "log").text.splitlines()
    assert len(log) == 3 and log[1].startswith("You played 2 1 10 -> 13 heaps")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_small_game_is_played_to_its_end_and_the_champion_wins_from_a_won_seat(browser, kayles_page):
    page, _ = kayles_page
    start(browser, page, "champion", [4, 7, 1])  # (Grundy values 1, 2, 1: the first player wins)
    rng = np.random.default_rng(0)
    kayles = game("10-kayles")
    while wait_state(browser, "your-turn", "over", timeout=30) == "your-turn":
        position = heaps(browser)
        options = [(h, t, p) for h, n in enumerate(position) if n for t, p in bigheaps.moves_from(kayles, n)]
        h, t, p = options[int(rng.integers(len(options)))]
        type_move(browser, f"{h + 1} {t} {p}")
    assert body(browser, "winner") == "champion" and "The champion wins." in browser.find_element(By.ID, "status").text
