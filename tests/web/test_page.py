"""The exported page's logic against the engine (its nimDistribution run by Node.js), its
Content-Security-Policy, its saved games (read by its script under Node.js), and the export
command's files and errors. The page in a real browser: tests/web/test_browser.py."""

import base64
import hashlib
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from itertools import product
from pathlib import Path
from urllib.parse import quote, unquote

import numpy as np
import pytest

from nim_evo import Rules, evolve, load_strategy
from nim_evo.engine.space import space_for
from nim_evo.commands.export import main as export
from nim_evo.web.lookup import lookup_script, script_json
from nim_evo.web.page import build_page

ROOT = Path(__file__).resolve().parents[2]
GENOMES = ROOT / "genomes"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js (node) is not installed: the page's JavaScript "
                                                      "is checked against the engine with it")


def page_moves(script: str, positions) -> list:
    """``nimDistribution`` of ``script`` at each position, run by Node.js."""
    program = script + f"\nconsole.log(JSON.stringify({script_json([list(p) for p in positions])}" \
                       ".map((p) => nimDistribution(p))));"
    done = subprocess.run([NODE, "-"], input=program, capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


def python_moves(agent, piles) -> dict:
    return {tuple(move): p for move, p in agent.distribution(tuple(piles)) if p > 0}


def as_dict(moves) -> dict:
    return {(pile, count): p for pile, count, p in moves}


@pytest.fixture(scope="module")
def champion(tmp_path_factory):
    """The default run's champion (table genome over multisets on 1-3-5-7-9), shortened."""
    path = tmp_path_factory.mktemp("champion") / "champion.json"
    evolve("table", Rules((1, 3, 5, 7, 9)), generations=12, seed=0, progress=False).export(path)
    return path


@needs_node
def test_a_table_page_plays_the_champions_move_at_every_position(champion):
    agent = load_strategy(champion)
    ordered = space_for(agent.rules)  # every arrangement, not just the multisets the page keys by
    positions = [tuple(int(n) for n in p) for p in ordered.positions[1:]]
    moves = page_moves(lookup_script(agent), positions)
    assert len(positions) == 3839
    for piles, page in zip(positions, moves, strict=True):
        assert as_dict(page) == python_moves(agent, piles), piles


@needs_node
def test_a_seven_heap_table_page_is_small_and_right():
    agent = load_strategy(GENOMES / "1-3-5-7-9-11-13-seed1-table.json")
    script = lookup_script(agent)
    assert len(script) < 600_000  # 21,318 multisets, not 645,120 positions
    rng = np.random.default_rng(5)
    positions = [tuple(int(rng.integers(0, top + 1)) for top in agent.rules.piles) for _ in range(400)]
    positions = [p for p in positions if any(p)]
    for piles, page in zip(positions, page_moves(script, positions), strict=True):
        assert as_dict(page) == python_moves(agent, piles), piles


@needs_node
@pytest.mark.parametrize("name", ["quality-7-5-3-seed0.json", "wincount-21-cap3-seed0.json"])
def test_a_learner_page_plays_its_greedy_moves(name):
    agent = load_strategy(GENOMES / name)
    positions = [p for p in product(*(range(n + 1) for n in agent.rules.piles)) if any(p)]
    for piles, page in zip(positions, page_moves(lookup_script(agent), positions), strict=True):
        assert as_dict(page) == pytest.approx(python_moves(agent, piles)), piles


class PageParts(HTMLParser):
    """A page as a browser's parser reads it: its policy, its inline scripts and styles (tag,
    attributes, text), every attribute it sets."""

    def __init__(self, text):
        super().__init__()
        self.policy, self.policy_first, self.inline, self.attributes, self.inside = None, None, [], [], None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.attributes += [(tag, name) for name, _ in attrs]
        if tag == "meta" and dict(attrs).get("http-equiv", "").lower() == "content-security-policy":
            self.policy, self.policy_first = dict(attrs)["content"], not self.inline
        if tag in ("script", "style"):
            self.inline.append([tag, attrs, ""])
            self.inside = tag

    def handle_endtag(self, tag):
        if tag == self.inside:
            self.inside = None

    def handle_data(self, data):
        if self.inside:
            self.inline[-1][2] += data


def check_policy(text: str) -> dict:
    """The page's Content-Security-Policy (directive -> sources), checked: no request, and only
    the page's own inline scripts and styles, each allowed by its hash (recomputed here, CSP3:
    base64 of the SHA-256 of its text's UTF-8 bytes); no style or event-handler attribute
    (hashes do not allow them), no 'unsafe-...' source."""
    page = PageParts(text)
    assert page.policy and page.policy_first  # a policy applies to the elements after it
    policy = {words[0]: words[1:] for words in (part.split() for part in page.policy.split(";")) if words}
    assert "unsafe" not in page.policy and "nonce" not in page.policy, page.policy
    assert {key: policy[key] for key in ("default-src", "base-uri", "form-action", "img-src")} == \
        {"default-src": ["'none'"], "base-uri": ["'none'"], "form-action": ["'none'"], "img-src": ["data:"]}
    assert set(policy) == {"default-src", "script-src", "style-src", "img-src", "base-uri", "form-action"}
    for tag in ("script", "style"):
        texts = [content for name, attrs, content in page.inline if name == tag]
        hashes = {"'sha256-%s'" % base64.b64encode(hashlib.sha256(t.encode("utf-8")).digest()).decode() for t in texts}
        assert texts and sorted(policy[f"{tag}-src"]) == sorted(hashes), tag
    assert [attrs for name, attrs, content in page.inline] == [[]] * len(page.inline)  # no src, no type
    assert len([name for name, attrs, content in page.inline if name == "script"]) == 3
    assert not [a for a in page.attributes if a[1] == "style" or a[1].startswith("on")], page.attributes
    return policy


def test_the_page_is_self_contained_and_forbids_requests(champion):
    text = build_page(load_strategy(champion), {"board": "1-3-5-7-9"})
    check_policy(text)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)  # nothing fetched from anywhere
    assert "@import" not in text and "url(" not in text and "fetch(" not in text
    assert "Piles 1 3 5 7 9; a move takes any number of objects" in text


def test_data_cannot_close_the_script_element():
    assert script_json({"name": "</script><script>alert(1)</script>"}) == \
        '{"name":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}'


def test_export_writes_a_page_with_the_runs_history_and_never_replaces_a_file(tmp_path, capsys, monkeypatch):
    from nim_evo.commands.run import main as run

    monkeypatch.chdir(tmp_path)
    assert run(["--game", "7-5-3", "--generations", "4", "--quiet"]) == 0
    strategy = capsys.readouterr().out.strip()
    page = tmp_path / "page.html"
    assert export(["--html", str(page), strategy, "--run", "runs/7-5-3-seed0-table"]) == 0
    text = page.read_text()
    check_policy(text)  # the page as written, with its history
    image = re.search(r'<div id="history"><img alt="[^"]+" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"></div>',
                      text)
    assert base64.b64decode(image[1]).decode().startswith("<svg")  # the fitness history: an image, its style its own
    assert re.search(r"<td>generations</td><td>4</td>", text) and "<td>seed</td><td>0</td>" in text
    before = page.read_bytes()
    for argv, message in (([str(page), strategy], "exists; use --force"),
                          ([str(tmp_path / "page.txt"), strategy], "must end in .html"),
                          ([str(tmp_path / "b.html"), "no/such.json"], "no/such.json"),
                          ([str(tmp_path / "b.html"), strategy, "--run", "runs"], "runs")):
        capsys.readouterr()
        assert export(["--html", *argv]) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and message in error, error
    assert page.read_bytes() == before and not (tmp_path / "b.html").exists()
    assert export(["--html", str(page), strategy, "--force"]) == 0
    # a page that appears while the page is built (another export's) is kept, and the line
    # names export's own flags (it said "another --out")
    import nim_evo.web.page as page_module

    late = tmp_path / "late.html"
    build = page_module.build_page

    def build_while_another_exports(*args):
        late.write_text("the other export's page")
        return build(*args)

    monkeypatch.setattr(page_module, "build_page", build_while_another_exports)
    capsys.readouterr()
    assert export(["--html", str(late), strategy]) == 2
    assert capsys.readouterr().err == (f"nim_evo: error: {late} was written by someone else meanwhile; it is left as "
                                       "it is (use --force to overwrite it, or another --html)\n")
    assert late.read_text() == "the other export's page"


def page_scripts(page: Path) -> str:
    """The exported page's game data and strategy scripts (the game script needs a document)."""
    scripts = re.findall(r"<script>\n(.*?)\n</script>", page.read_text(), re.S)
    assert len(scripts) == 3
    return scripts[0] + "\n" + scripts[1]


@needs_node
def test_exported_pages_of_every_kind_play_as_the_engine(tmp_path, champion):
    """A page per kind, exported by the command, its scripts run as the browser runs them: the
    champion's distribution at every position of the page's board equals the Python agent's."""
    from nim_evo.genomes import genome_document
    from nim_evo.genomes.program import Program
    from nim_evo.atomic import write_json

    program = tmp_path / "xor-program.json"
    write_json(program, genome_document("program", Program(["sub(or(a, p), and(a, p))", "v"]),
                                        Rules((1, 3, 5, 7, 9)), name="xor-program"))
    files = [champion, program, *(GENOMES / name for name in (
        "1-3-5-7-9-seed2-rules.json", "1-3-5-7-9-seed3-thresholds.json", "17-cap3-misere-seed1-rules.json",
        "2-3-4-5-misere-seed1-table.json", "wincount-21-cap3-seed0.json", "subgame-17-cap3-misere-seed1.json"))]
    for strategy in files:
        page = tmp_path / f"{strategy.stem}.html"
        assert export(["--html", str(page), str(strategy)]) == 0
        if strategy == program:  # the page says what the program is, as a person reads it
            assert "<td>program</td><td>fold(sub(or(a, p), and(a, p))) -&gt; v</td>" in page.read_text()
        agent = load_strategy(strategy)
        positions = [p for p in product(*(range(n + 1) for n in agent.rules.piles)) if any(p)]
        script = page_scripts(page) + "\nconst board = NIM_GAME.piles;"
        program_text = script + f"\nconsole.log(JSON.stringify({script_json([list(p) for p in positions])}" \
                                ".map((p) => nimDistribution(p, board))));"
        done = subprocess.run([NODE, "-"], input=program_text, capture_output=True, text=True, timeout=300, check=True)
        for piles, moves in zip(positions, json.loads(done.stdout), strict=True):
            assert as_dict(moves) == pytest.approx(python_moves(agent, piles)), (strategy.name, piles)


@needs_node
def test_a_heap_game_programs_page_plays_its_board_as_the_engine(tmp_path):
    """A program of another heap game (a heap part the page's interpreter does not read) is
    played on its own board by its table: every position's move is the Python agent's."""
    from nim_evo.games import game
    from nim_evo.genomes import genome_document
    from nim_evo.atomic import write_json

    strategy = tmp_path / "sub.json"
    board = game("9-12-sub1.3.4")
    write_json(strategy, genome_document("program", ["add(a, p)", "v", "0", "(0 1 0 1 2 3 3)"], board, name="sub"))
    page = tmp_path / "sub.html"
    assert export(["--html", str(page), str(strategy)]) == 0
    agent = load_strategy(strategy)
    positions = [p for p in product(range(10), range(13)) if any(p)]
    script = page_scripts(page) + f"\nconsole.log(JSON.stringify({script_json([list(p) for p in positions])}" \
                                  ".map((p) => nimDistribution(p))));"
    done = subprocess.run([NODE, "-"], input=script, capture_output=True, text=True, timeout=300, check=True)
    for piles, moves in zip(positions, json.loads(done.stdout), strict=True):
        assert as_dict(moves) == pytest.approx(python_moves(agent, piles)), piles


def test_the_page_needs_a_strategy_file(tmp_path, capsys):
    assert export(["--html", str(tmp_path / "x.html"), str(GENOMES / "README.md")]) == 2
    assert not (tmp_path / "x.html").exists()


def saved_game(board, first, moves, misere=False) -> dict:
    """The saved game the page writes after ``moves`` ((pile, count), 0-based) from ``board``."""
    piles, turn, log, last, over, winner = list(board), first, [], None, False, None
    for pile, count in moves:
        piles[pile] -= count
        last = {"who": turn, "pile": pile, "count": count}
        log.append(f"{'You' if turn == 'you' else 'The champion'} took {count} object{'' if count == 1 else 's'} "
                   f"from pile {pile + 1} -> {' '.join(map(str, piles))}")
        other = "champion" if turn == "you" else "you"
        if not any(piles):
            over, winner = True, other if misere else turn
        else:
            turn = other
    return {"board": list(board), "piles": piles, "turn": turn, "first": first, "over": over, "winner": winner,
            "log": log, "pile": -1, "count": 0, "lastMove": last}


def load_saved(page: Path, fragments) -> list:
    """What the page's script makes of each address fragment (``game=...``) as its saved game
    (the game it goes on with, or None: a new game), and how long it took (ms), under Node.js."""
    scripts = re.findall(r"<script>\n(.*?)\n</script>", page.read_text(), re.S)
    program = "\n".join([
        *scripts[:2], "globalThis.document = {addEventListener() {}}; globalThis.location = {hash: ''};", scripts[2],
        f"const fragments = {script_json(list(fragments))};",
        "console.log(JSON.stringify(fragments.map((fragment) => {",
        "  location.hash = '#' + fragment;",
        "  const start = performance.now(), game = nim.load();",
        "  return [game, performance.now() - start];",
        "})));"])
    done = subprocess.run([NODE, "-"], input=program, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def fragment(saved) -> str:
    return "game=" + quote(saved if isinstance(saved, str) else json.dumps(saved))


def hostile_games(valid: dict) -> list:
    """Saved games that are not the page's: ``valid`` with one field changed (numbers out of
    range or of the wrong type, piles off the board, huge arrays, a forged log), and others."""
    last, log, piles = valid["lastMove"], valid["log"], valid["piles"]
    with_last = [dict(last, count=c) for c in (100_000_000, 0, -1, 1.5, "1", None, 1e308, last["count"] + 1)]
    with_last += [dict(last, pile=p) for p in (len(piles), -1, "0", None, 1.5, last["pile"] + 1, last["pile"] - 1)]
    with_last += [dict(last, who=w) for w in ("nobody", "you" if last["who"] == "champion" else "champion", None)]
    with_last += [None, "x", [], {}, 5, {"who": last["who"], "pile": last["pile"]}]
    moved = log[-1].split(" took ")[0]
    forged = [log[:-1] + [line] for line in (
        f"{moved} took 100000000 objects from pile 1 -> {' '.join(map(str, piles))}",
        log[-1] + " ", log[-1].replace(" took ", " took 0"), log[-1].replace("from pile ", "from pile 0"),
        log[-1].replace("The champion", "You") if moved == "The champion" else log[-1].replace("You", "The champion"),
        "<img src=x onerror=alert(1)>", 5, None, ["x"])]
    forged += [log + log[-1:], log[:-1], ["x"] * 1_000_000, [log[0]] * 1000, "x", None, {}]
    wrong = (
        [dict(valid, lastMove=value) for value in with_last] + [dict(valid, log=value) for value in forged] +
        [dict(valid, piles=value) for value in (
            [*piles[:-1], piles[-1] + 1], [*piles[:-1], 90], [*piles[:-1], -1], [*piles[:-1], 1.5], piles[:-1],
            [*piles, 0], [1] * 1_000_000, [*piles[:-1], 10 ** 9], ",".join(map(str, piles)), None)] +
        [dict(valid, board=value) for value in (
            [*valid["board"][:-1], valid["board"][-1] + 1], [2, 2], [], [1] * 1_000_000, [0] * len(piles),
            [*valid["board"][:-1], 1e9], None)] +
        [dict(valid, turn=value) for value in ("nobody", 1, None, "champion" if valid["turn"] == "you" else "you")] +
        [dict(valid, first=value) for value in ("coin", None, 1, "champion" if valid["first"] == "you" else "you")] +
        [dict(valid, over=value) for value in ("false", 0, None, True)] +
        [dict(valid, winner=value) for value in ("you", "champion", 5, "")] +
        [{key: value for key, value in valid.items() if key != field} for field in valid
         if field not in ("pile", "count")])
    raw = ["not json", "null", "5", '"game"', "[1, 2]", "{}", "[" * 100_000 + "]" * 100_000,
           '{"__proto__": {"board": [1]}}']
    return [fragment(game) for game in wrong] + [fragment(text) for text in raw] + ["game=%E0%A4%A", "game=", "", "x"]


@needs_node
def test_a_saved_game_is_the_pages_own_or_a_new_game_never_a_hang(tmp_path):
    """Saved games the page wrote go on, with only their fields; every other (hostile links:
    huge counts, negative or fractional numbers, a pile off the board, piles not of the board,
    huge arrays, wrong types, forged moves) is refused at once: a new game, no exception."""
    cases = {"table": ("2-3-4-5-misere-seed1-table.json", [(3, 2), (0, 1), (1, 3)]),  # misère, first the person
             "capped": ("wincount-21-cap3-seed0.json", [(0, 3), (0, 1)]),
             "free": ("1-3-5-7-9-seed3-thresholds.json", [(1, 40)] + [(pile, 1) for pile in range(2, 12)])}
    for name, (strategy, moves) in cases.items():
        page = tmp_path / f"{name}.html"
        assert export(["--html", str(page), str(GENOMES / strategy)]) == 0
        agent = load_strategy(GENOMES / strategy)
        board = [40] * 12 if name == "free" else list(agent.rules.piles)
        valid = [saved_game(board, "you", moves, agent.rules.misere),
                 saved_game(board, "champion", moves[:1], agent.rules.misere),
                 saved_game(board, "champion", [], agent.rules.misere),
                 dict(saved_game(board, "you", moves, agent.rules.misere), pile=1, count=1, extra=[1] * 1000)]
        if name == "table":  # a game to its end: the person took the last object, misère: the champion wins
            valid.append(saved_game(board, "champion", [(0, 2), (1, 3), (2, 4), (3, 5)], True))
            assert valid[-1]["over"] and valid[-1]["winner"] == "champion"
        if name == "capped":
            valid.append(saved_game(board, "you", [(0, 3)] * 7))  # 21 objects, three at a time: the person wins
        if name == "free":  # a log as long as a board of the page holds objects: a move per object
            valid.append(saved_game(board, "you", [(pile, 1) for pile in range(12) for _ in range(40)]))
        hostile = hostile_games(valid[0])
        if name == "capped":  # over the cap, though the pile holds more
            hostile += [fragment(saved_game(board, "you", [(0, 4)])),
                        fragment(dict(valid[0], lastMove=dict(valid[0]["lastMove"], count=4)))]
        if name == "free":  # boards the page does not draw
            hostile += [fragment(saved_game(b, "you", [(0, 1)])) for b in ([41], [1] * 13, [0, 0], [2.5, 3])]
        results = load_saved(page, [fragment(game) for game in valid] + hostile)
        for game, (loaded, ms) in zip(valid, results, strict=False):
            fields = ("board", "piles", "turn", "first", "over", "winner", "log", "lastMove")
            assert loaded == dict({key: game[key] for key in fields}, pile=-1, count=0), (name, game)  # no selection
        refused = results[len(valid):]
        assert len(refused) == len(hostile) and len(hostile) > 60
        for text, (loaded, ms) in zip(hostile, refused, strict=True):
            assert loaded is None, (name, unquote(text)[:300])
        assert max(ms for loaded, ms in results) < 1000, name


def test_the_policy_allows_only_the_template_s_own_scripts_even_were_escaping_to_fail(champion, monkeypatch):
    """The policy is made from the template's elements filled with the page's code, not from
    whatever the finished page holds: a script slipped in with a champion's facts (were
    escaping ever to fail: here, switched off) is not allowed by it."""
    import nim_evo.web.page as page_module
    from nim_evo.web.page import csp_hash

    agent = load_strategy(champion)
    monkeypatch.setattr(page_module.html, "escape", lambda text, quote=True: text)
    page = build_page(agent, {"name": "<script>alert(1)</script>"})
    assert "<script>alert(1)</script>" in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)[1]
    assert csp_hash("alert(1)") not in policy and policy.count("'sha256-") == 4  # three scripts, one style
