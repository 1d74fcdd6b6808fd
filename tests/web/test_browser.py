"""The exported page in a real browser: headless Chromium from the system's packages (Debian's
``chromium`` and ``chromium-driver``), driven by selenium. Whole games by clicks and keys,
illegal clicks, a reload mid-game, a screenshot, no request leaving the file, no script or
style but the page's own (its Content-Security-Policy), hostile saved-game links.

Without a browser these tests skip, saying why; ``.ci/run`` installs one."""

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import nim_evo
from nim_evo import Rules, evolve, load_strategy
from nim_evo.games import nimtheory as theory
from nim_evo.commands.export import main as export

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no system Chromium and ChromeDriver (Debian: apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FAST_TIMERS = """(() => {
  if (!new URLSearchParams(location.search).has("fast")) return;  // only a page opened with ?fast
  const later = window.setTimeout.bind(window);
  window.setTimeout = (f, ms, ...rest) => later(f, ms >= 100 ? 20 : ms, ...rest);
})();"""


@pytest.fixture(scope="module")
def browser():
    os.environ["SE_OFFLINE"] = "true"       # selenium-manager never looks for drivers online
    os.environ["SE_AVOID_STATS"] = "true"   # nor sends statistics
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1100,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)  # a page that hangs (a hostile saved game, say) fails its test
    # opened with ?fast, a page's champion pauses 20 ms before it answers, not 700 (for a
    # person's eyes): for whole games whose moves between are not looked at
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAST_TIMERS})
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Pages of the default run's champion (shortened: perfect from generation 10 or so), of
    a capped learner, a board-free genome, a misère table, and of a run with its history."""
    from contextlib import redirect_stdout
    from io import StringIO

    from nim_evo.commands.run import main as run_main

    where = tmp_path_factory.mktemp("pages")
    with redirect_stdout(StringIO()) as printed:
        assert run_main(["--game", "7-5-3", "--generations", "4", "--quiet", "--out", str(where / "run"),
                         "--genomes-dir", str(where)]) == 0
    assert export(["--html", str(where / "history.html"), printed.getvalue().strip(), "--run", str(where / "run")]) == 0
    champion = where / "1-3-5-7-9-seed0-table.json"
    run = evolve("table", Rules((1, 3, 5, 7, 9)), generations=20, seed=0, progress=False)
    assert run.accuracy == 1.0
    run.export(champion)
    made = {"history": where / "history.html"}
    for name, strategy in (("champion", champion), ("capped", ROOT / "genomes" / "wincount-21-cap3-seed0.json"),
                           ("free", ROOT / "genomes" / "1-3-5-7-9-seed3-thresholds.json"),
                           ("misere", ROOT / "genomes" / "2-3-4-5-misere-seed1-table.json")):
        made[name] = where / f"{name}.html"
        assert export(["--html", str(made[name]), str(strategy)]) == 0
    # a misère program (evolved on boards of 2 to 4 piles) on a board it never saw; and the
    # four-family program under a cap, misère
    # a subtraction game's champion: a move takes 2 or 3 objects, so the game ends with objects left
    subtraction = evolve("table", nim_evo.game("4-8-sub2.3"), opponents=["random", "perfect"], until="accuracy=1",
                         generations=50, seed=0, progress=False)
    assert subtraction.accuracy == 1.0
    made["subtraction"] = where / "subtraction.html"
    assert export(["--html", str(made["subtraction"]), str(subtraction.export(where / "4-8-sub2.3.json"))]) == 0
    for name, strategy, game in (("misere-program", "1-3-5-7-9-misere-seed0-program.json", "2-3-4-5-misere"),
                                 ("four-program", "1-3-5-7-9-normal+misere+cap3+cap3-misere-seed0-program.json",
                                  "2-3-4-5-cap3-misere")):
        made[name] = where / f"{name}.html"
        assert export(["--html", str(made[name]), str(ROOT / "genomes" / strategy), "--game", game]) == 0
    return made


def body(driver, key):
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{key}")


def wait_state(driver, *states, timeout=10):
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: body(d, "state") in states)
    return body(driver, "state")


def piles(driver):
    return [int(row.get_attribute("data-size")) for row in driver.find_elements(By.CSS_SELECTOR, "#board .pile")]


def open_page(driver, page, first, fast=False):
    driver.get(page.as_uri() + ("?fast" if fast else ""))  # no fragment: no saved game
    Select(driver.find_element(By.ID, "first")).select_by_value(first)
    driver.find_element(By.ID, "new").click()


def click_a_move(driver, rng, cap=None):
    """The person clicks an object of a random non-empty pile (a legal one), then Take."""
    objects = [o for o in driver.find_elements(By.CSS_SELECTOR, "button.obj")
               if cap is None or int(o.get_attribute("data-take")) <= cap]
    chosen = objects[int(rng.integers(len(objects)))]
    pile, take = int(chosen.get_attribute("data-pile")), int(chosen.get_attribute("data-take"))
    chosen.click()
    button = driver.find_element(By.ID, "take")
    assert button.text == f"Take {take} from pile {pile + 1}"
    button.click()
    return pile, take


def test_the_champion_moving_first_wins_every_game_whatever_the_person_clicks(browser, pages):
    rng = np.random.default_rng(0)
    for game in range(4):
        open_page(browser, pages["champion"], "champion")
        while wait_state(browser, "your-turn", "over") == "your-turn":
            before = piles(browser)
            pile, take = click_a_move(browser, rng)
            after = piles(browser)
            assert after[pile] == before[pile] - take  # the person's move, as clicked
        assert body(browser, "winner") == "champion", game
        assert browser.find_element(By.ID, "status").text == "The champion wins."


def test_the_champion_answers_after_a_visible_pause(browser, pages):
    """The page's own pace: moving first, the champion answers some 700 ms after the game
    starts, not at once."""
    import time

    browser.get(pages["champion"].as_uri())
    Select(browser.find_element(By.ID, "first")).select_by_value("champion")
    started = time.perf_counter()
    browser.find_element(By.ID, "new").click()
    assert body(browser, "state") != "your-turn"  # the champion has not answered yet
    wait_state(browser, "your-turn")
    assert 0.6 <= time.perf_counter() - started < 5


def test_a_subtraction_game_is_played_to_its_end_where_no_move_is_left(browser, pages):
    """4-8 with S = {2, 3}: Grundy values 2 and 1, a first-player win. The champion, moving
    first, wins whatever legal moves the person clicks; a take of one is refused and said so;
    the game ends on heaps of 0 or 1, objects left on the board."""
    rng = np.random.default_rng(0)
    for game in range(3):
        open_page(browser, pages["subtraction"], "champion")
        assert "2 or 3 objects" in browser.find_element(By.ID, "rules").text
        while wait_state(browser, "your-turn", "over") == "your-turn":
            ones = [o for o in browser.find_elements(By.CSS_SELECTOR, 'button.obj[data-take="1"]')]
            ones[0].click()
            assert browser.find_element(By.ID, "message").text == "A move takes 2 or 3 objects."
            assert not browser.find_element(By.ID, "take").is_enabled()
            before = piles(browser)
            allowed = [o for o in browser.find_elements(By.CSS_SELECTOR, "button.obj")
                       if int(o.get_attribute("data-take")) in (2, 3)]
            chosen = allowed[int(rng.integers(len(allowed)))]
            pile, take = int(chosen.get_attribute("data-pile")), int(chosen.get_attribute("data-take"))
            chosen.click()
            browser.find_element(By.ID, "take").click()
            assert piles(browser)[pile] == before[pile] - take
        assert body(browser, "winner") == "champion", game
        assert all(n <= 1 for n in piles(browser))
        assert browser.find_element(By.ID, "status").text == "The champion wins."


def test_illegal_clicks_are_refused_and_explained(browser, pages):
    open_page(browser, pages["capped"], "you")
    wait_state(browser, "your-turn")
    assert "1 to 3 objects" in browser.find_element(By.ID, "rules").text
    take = browser.find_element(By.ID, "take")
    assert not take.is_enabled()  # nothing picked yet
    browser.find_element(By.CSS_SELECTOR, 'button.obj[data-take="4"]').click()  # four: over the cap
    assert "at most 3 objects" in browser.find_element(By.ID, "message").text
    assert not take.is_enabled() and piles(browser) == [21]
    browser.find_element(By.CSS_SELECTOR, 'button.obj[data-take="2"]').click()
    take.click()
    assert piles(browser)[0] == 19 and body(browser, "state") == "champion-turn"
    browser.find_element(By.CSS_SELECTOR, 'button.obj[data-take="1"]').click()  # not the person's turn
    assert "Wait" in browser.find_element(By.ID, "message").text
    wait_state(browser, "your-turn")
    assert piles(browser)[0] in (16, 17, 18)


def test_a_reload_mid_game_goes_on_with_the_same_game(browser, pages):
    open_page(browser, pages["champion"], "you")
    wait_state(browser, "your-turn")
    click_a_move(browser, np.random.default_rng(3))
    wait_state(browser, "your-turn")
    position, log = piles(browser), browser.find_element(By.ID, "log").text
    browser.refresh()
    wait_state(browser, "your-turn")
    assert piles(browser) == position and browser.find_element(By.ID, "log").text == log
    assert "goes on" in browser.find_element(By.ID, "message").text
    assert browser.current_url.startswith(pages["champion"].as_uri() + "#game=")


def test_keys_play_a_move(browser, pages):
    open_page(browser, pages["champion"], "you")
    wait_state(browser, "your-turn")
    page = browser.find_element(By.TAG_NAME, "body")
    page.send_keys("5")                      # pile 5, one object
    page.send_keys(Keys.ARROW_RIGHT * 3)     # four objects
    assert browser.find_element(By.ID, "take").text == "Take 4 from pile 5"
    page.send_keys(Keys.ENTER)
    assert piles(browser)[4] == 5
    wait_state(browser, "your-turn")


def test_no_request_leaves_the_file_and_the_screenshot_is_real(browser, pages, tmp_path):
    browser.get_log("performance")  # what earlier tests did
    open_page(browser, pages["champion"], "you")
    wait_state(browser, "your-turn")
    click_a_move(browser, np.random.default_rng(1))
    wait_state(browser, "your-turn")
    events = [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]
    urls = {event["params"]["request"]["url"] for event in events if event["method"] == "Network.requestWillBeSent"}
    assert urls and all(url == pages["champion"].as_uri() for url in urls), urls
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    screenshot = tmp_path / "page.png"
    assert browser.save_screenshot(str(screenshot))
    from PIL import Image

    image = np.asarray(Image.open(screenshot).convert("RGB"))
    assert image.shape[:2] == (1000, 1100) or image.shape[1] >= 1000
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50  # a drawn page, not a blank one


def test_a_board_free_champion_plays_the_piles_a_person_sets(browser, pages):
    """A thresholds genome (mostly the nim-sum strategy) on piles the person types: the
    champion's first move from 2-4-6-7 (nim-sum 7) is one of Python's, and the game ends."""
    agent = load_strategy(ROOT / "genomes" / "1-3-5-7-9-seed3-thresholds.json", Rules((2, 4, 6, 7)))
    python = {move for move, p in agent.distribution((2, 4, 6, 7)) if p > 0}
    browser.get(pages["free"].as_uri())
    field = browser.find_element(By.ID, "piles")
    for text, message in (("3 x", "whole numbers"), ("41", "At most 40"), ("0 0", "At least one")):
        field.clear()
        field.send_keys(text)
        browser.find_element(By.ID, "new").click()
        assert message in browser.find_element(By.ID, "message").text
    field.clear()
    field.send_keys("2 4 6 7")
    Select(browser.find_element(By.ID, "first")).select_by_value("champion")
    browser.find_element(By.ID, "new").click()
    assert piles(browser) == [2, 4, 6, 7]
    wait_state(browser, "your-turn", "over")
    after = piles(browser)
    (pile,) = [i for i in range(4) if after[i] != (2, 4, 6, 7)[i]]
    assert (pile, (2, 4, 6, 7)[pile] - after[pile]) in python
    rng = np.random.default_rng(2)
    while wait_state(browser, "your-turn", "over") == "your-turn":
        click_a_move(browser, rng)
    last = browser.find_element(By.ID, "log").text.splitlines()[-1]
    assert body(browser, "winner") == ("you" if last.startswith("You") else "champion")  # normal play: the last take wins


@pytest.mark.parametrize("page", ["misere", "misere-program", "four-program"])
def test_in_misere_the_last_take_loses_and_the_perfect_champion_wins_moving_second(browser, pages, page):
    """2-3-4-5 misère (and capped at 3) is lost for the first player: whatever the person
    clicks, the champion wins, and the person takes the last object: the table, and evolved
    programs on a board they never saw."""
    rules = Rules.parse("2-3-4-5-cap3-misere" if page == "four-program" else "2-3-4-5-misere")
    assert theory.is_win(rules, rules.piles) is False
    rng = np.random.default_rng(4)
    for game in range(2):
        open_page(browser, pages[page], "you", fast=True)  # (only the end is looked at)
        assert piles(browser) == list(rules.piles)
        while wait_state(browser, "your-turn", "over") == "your-turn":
            click_a_move(browser, rng, rules.max_take)
        assert body(browser, "winner") == "champion", game
        assert browser.find_element(By.ID, "log").text.splitlines()[-1].startswith("You took")


def problems(driver):
    """What the browser's console reported since last asked: errors, and any request or inline
    script or style the Content-Security-Policy refused (reported by Chromium as "security")."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE" or e["source"] == "security"]


def test_a_whole_game_and_the_history_run_under_the_policy_with_no_violation(browser, pages):
    """The page runs only its own inline scripts and styles, by their hashes: a game played to
    its end and the run's history (an image) report nothing to the console."""
    problems(browser)  # what earlier tests did
    browser.get(pages["history"].as_uri())
    image = browser.find_element(By.CSS_SELECTOR, "#history img")
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return arguments[0].naturalWidth", image) > 500)
    assert image.size["width"] > 500  # drawn, at the page's width
    assert browser.find_element(By.ID, "board").value_of_css_property("border-top-style") == "solid"  # its stylesheet
    rng = np.random.default_rng(6)
    while wait_state(browser, "your-turn", "over") == "your-turn":
        click_a_move(browser, rng)
    assert body(browser, "winner") in ("you", "champion")
    assert len(browser.find_element(By.ID, "log").text.splitlines()) >= 2
    assert not problems(browser)


def test_a_script_or_style_slipped_into_the_page_does_not_run(browser, pages, tmp_path):
    """A copy of the page with a script, a style attribute and an event handler added (as an
    injection would add them): the policy refuses each and says so; the page's own game plays."""
    text = pages["champion"].read_text()
    copy = tmp_path / "slipped.html"
    copy.write_text(text.replace('<div id="status"', '<div id="status" style="color: rgb(255, 0, 0)"', 1)
                    .replace("</main>", '<button type="button" id="slipped" onclick="document.body.dataset.clicked'
                             ' = 1">x</button></main>\n<script>document.body.dataset.slipped = 1;</script>', 1))
    problems(browser)
    browser.get(copy.as_uri())
    wait_state(browser, "your-turn")
    browser.find_element(By.ID, "slipped").click()
    assert body(browser, "slipped") is None and body(browser, "clicked") is None
    assert browser.find_element(By.ID, "status").value_of_css_property("color") != "rgba(255, 0, 0, 1)"
    refused = [e["message"] for e in problems(browser)]
    assert refused and all("Content Security Policy" in message for message in refused), refused
    assert any("inline script" in m for m in refused) and any("inline style" in m for m in refused)
    assert any("event handler" in m for m in refused)
    click_a_move(browser, np.random.default_rng(7))
    wait_state(browser, "your-turn", "over")


def open_saved(driver, page, saved: str):
    """The page opened (loaded anew: not a jump within the page) at a saved-game link."""
    from urllib.parse import quote

    driver.get("about:blank")
    driver.get(page.as_uri() + "#game=" + quote(saved, safe=",:[]{}"))


GAME = '"board": [1, 3, 5, 7, 9], "first": "you", "over": false, "winner": null, "pile": -1, "count": 0'
MOVED = GAME + (', "log": ["You took 2 objects from pile 5 -> 1 3 5 7 7", "The champion took 1 object from pile 1 -> '
                '0 3 5 7 7"], "piles": [0, 3, 5, 7, 7], "turn": "you"')


@pytest.mark.parametrize("saved", [
    "not json", "null", "[1, 2]", '{"piles": [1, 3, 5, 7, 9]}', "[" * 100_000 + "]" * 100_000,
    '{"board": [1, 3, 5, 7, 9], "piles": [1, 3, 5, 7, 9], "turn": "nobody", "over": false, "log": []}',
    '{"board": [1, 3, 5, 7, 9], "piles": [0, 0, 0, 0, 0], "turn": "champion", "over": false, "log": []}',
    '{"board": [2, 2], "piles": [1, 2], "turn": "you", "over": false, "log": []}',
    '{"board": [1, 3, 5, 7, 9], "piles": [1, 3, 5, 7, 90], "turn": "you", "over": false, "log": []}',
    '{"board": [1, 3, 5, 7, 1000000000], "piles": [1, 3, 5, 7, 1000000000], "turn": "you", "over": false}',
    *("{%s, %s}" % (MOVED, last) for last in (
        '"lastMove": {"who": "champion", "pile": 0, "count": 100000000}',  # issue 28: this one hung the tab
        '"lastMove": {"who": "champion", "pile": 0, "count": -1}',
        '"lastMove": {"who": "champion", "pile": 0, "count": 0.5}',
        '"lastMove": {"who": "champion", "pile": 0, "count": "1"}',
        '"lastMove": {"who": "champion", "pile": 5, "count": 1}',
        '"lastMove": {"who": "champion", "pile": -1, "count": 1}', '"lastMove": {"who": "you", "pile": 0, "count": 1}',
        '"lastMove": [0, 1]', '"lastMove": null')),
    "{%s, %s}" % (GAME, '"log": [], "piles": [1, 3, 5, 7, 9], "turn": "you", "lastMove": [%s]'
                  % ",".join(["1"] * 300_000)),
    "{%s, %s}" % (GAME, '"log": [%s], "piles": [1, 3, 5, 7, 9], "turn": "you", "lastMove": null'
                  % ",".join(['"x"'] * 100_000)),
    "{%s, %s}" % (GAME, '"log": [], "piles": [%s], "turn": "you", "lastMove": null' % ",".join(["1"] * 300_000)),
    "{%s, %s}" % (GAME.replace("[1, 3, 5, 7, 9]", "[%s]" % ",".join(["9"] * 300_000)),
                  '"log": [], "piles": [1, 3, 5, 7, 9], "turn": "you", "lastMove": null'),
    '{%s, "log": ["You took 100000000 objects from pile 5 -> 1 3 5 7 -99999991"], "piles": [1, 3, 5, 7, -99999991], '
    '"turn": "champion", "lastMove": {"who": "you", "pile": 4, "count": 100000000}}' % GAME,
], ids=lambda saved: saved if len(saved) < 60 else f"{saved[:20]}...{saved[-40:]}")
def test_a_damaged_or_hostile_saved_game_starts_a_new_one_at_once(browser, pages, saved):
    """Saved games not of the page (damaged, or links made to hang it: huge or negative counts,
    a pile off the board, huge arrays, wrong types) start a new game, at once, without an error."""
    open_saved(browser, pages["champion"], saved)
    assert wait_state(browser, "your-turn") == "your-turn"
    assert piles(browser) == [1, 3, 5, 7, 9] and browser.find_element(By.ID, "log").text == ""
    assert browser.find_element(By.ID, "message").text == "You move first."
    assert not problems(browser)


def test_a_saved_game_of_the_page_goes_on(browser, pages):
    """The links above with the last move's own fields: the game goes on (the test above
    refuses them for their damage, not for being saved games)."""
    open_saved(browser, pages["champion"], '{%s, "lastMove": {"who": "champion", "pile": 0, "count": 1}}' % MOVED)
    wait_state(browser, "your-turn")
    assert browser.find_element(By.ID, "message").text == "Welcome back: the game goes on where it was."
    assert piles(browser) == [0, 3, 5, 7, 7] and len(browser.find_element(By.ID, "log").text.splitlines()) == 2
    assert len(browser.find_elements(By.CSS_SELECTOR, '#board .pile[data-pile="0"] .obj.taken')) == 1
    assert not problems(browser)


def test_enter_after_a_click_takes_and_browser_shortcuts_are_left_alone(browser, pages):
    open_page(browser, pages["champion"], "you")
    wait_state(browser, "your-turn")
    browser.find_element(By.CSS_SELECTOR, 'button.obj[data-pile="4"][data-take="2"]').click()
    page = browser.find_element(By.TAG_NAME, "body")
    page.send_keys(Keys.CONTROL, "n")  # the browser's new window, not a new game here
    assert browser.find_element(By.ID, "take").text == "Take 2 from pile 5"
    browser.switch_to.active_element.send_keys(Keys.ENTER)  # focus is on the object clicked
    assert piles(browser)[4] == 7
