"""A champion as one web page that plays it: self-contained HTML, no network, no server.

The page is a template (``assets/page.html``) filled with its style, the game, the champion's
move logic and the game script, everything inline. The champion's logic is a function
``nimDistribution(piles) -> [[pile, count, probability], ...]``:

- a strategy bound to its board (a table genome, a trained learner) carries its moves at every
  position of its space (:mod:`nim_evo.web.lookup`; over multisets where it keeps them);
- a board-free genome (rules, thresholds, program) is translated to JavaScript
  (:mod:`nim_evo.web.translate`), so the person may also set their own piles.

Only data goes into the page: names are HTML-escaped, data is JSON made safe for a
``<script>`` element, and a Content-Security-Policy forbids every request (no fonts, images
or scripts from anywhere but the file itself) and runs only the page's own inline scripts and
styles, named by their SHA-256 hashes: a script or style attribute slipped into the page does
not run. With a run directory the page also shows the run's fitness history, an SVG drawn by
matplotlib, as an image (a ``data:`` address: its style attributes are its own document's).
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import re
from importlib import resources
from pathlib import Path
from string import Template

from nim_evo import __version__
from nim_evo.engine.rules import Rules
from nim_evo.games.takeaway import TakeAway
from nim_evo.genomes import GenomeAgent
from nim_evo.web.graph import game_graph
from nim_evo.web.lookup import lookup_script, script_json

SETTABLE_PILE, SETTABLE_PILES = 40, 12  # the boards a person may set for a board-free champion (objects are drawn)
SETTABLE_HEAP, SETTABLE_HEAPS = 100_000, 12  # and for a splitting game's program (heaps drawn as bars)
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src {script}; style-src {style}; img-src data:; "
          "base-uri 'none'; form-action 'none'")
INLINE = re.compile(r"<(script|style)>(.*?)</\1>", re.S)  # the template's elements, as the browser reads them


def _asset(name: str) -> str:
    return resources.files("nim_evo.web").joinpath("assets", name).read_text(encoding="utf-8")


def board_free(agent) -> bool:
    """Whether the page plays ``agent`` by its translated rule (on any board of its family):
    a board-free genome of Nim (the script knows Nim's moves; elsewhere, and for a program's
    heap part, the page plays the exported board by its table)."""
    return isinstance(agent, GenomeAgent) and agent.kind.board_free and isinstance(agent.rules, Rules)


def strategy_script(agent) -> str:
    """The JavaScript that defines ``nimDistribution`` for ``agent``."""
    if board_free(agent):
        # (import time: 50 ms, for a board-free genome's page only)
        from nim_evo.web.translate import strategy_script as translated

        return translated(agent.kind, agent.genes, agent.rules)
    return lookup_script(agent)


def rules_text(rules: TakeAway, piles: bool = True) -> str:
    """The rules in a sentence a person reads before the first move (with the board's piles,
    or without them for a champion that plays any board of its family)."""
    if not isinstance(rules, Rules):
        return rules.describe()
    take = (f"a move takes 1 to {rules.max_take} objects from one pile" if rules.max_take else
            "a move takes any number of objects, at least one, from one pile")
    end = ("misère: whoever takes the last object loses" if rules.misere else
           "normal play: whoever takes the last object wins")
    text = f"{take}; {end}."
    return f"Piles {' '.join(map(str, rules.piles))}; {text}" if piles else text[:1].upper() + text[1:]


def build_page(agent, facts: dict, history_svg: str | None = None) -> str:
    """The page for ``agent`` (see the module docstring). ``facts``: what the champion is
    (label -> text, shown in a table); ``history_svg``: the run's fitness history, shown as an image."""
    rules = agent.rules
    if plays_any_heaps(agent):
        return _heaps_page(agent, facts, history_svg)
    if not isinstance(rules, TakeAway):
        return _fill(_graph_code(agent), f"Play {rules.title} against {getattr(agent, 'name', 'the champion')}",
                     rules.describe(), "", _about(facts, history_svg), verb="Play", keys=GRAPH_KEYS)
    free = board_free(agent)
    nim = isinstance(rules, Rules)  # on another take-away game, the counts a move may take
    game = {"piles": list(rules.start), "maxTake": rules.max_take if isinstance(rules, Rules) else None,
            "takes": None if nim else sorted({c for n in rules.start for c in rules.takes(n)}),
            "takesWords": rules.takes_words(), "misere": bool(rules.misere), "boardFree": free,
            "maxPile": SETTABLE_PILE if free else max(rules.start), "maxPiles": SETTABLE_PILES if free else len(rules.start)}
    if free and (len(rules.start) > SETTABLE_PILES or max(rules.start) > SETTABLE_PILE):
        game["piles"] = [1, 3, 5, 7, 9]  # its own board is too big to draw: a board the page draws
    title = f"Play {'Nim' if nim else 'the ' + rules.title.lower()} against " \
            f"{getattr(agent, 'name', 'the champion')}"
    piles_field = ('<label>Piles <input id="piles" size="24" aria-describedby="piles-help"></label>'
                   f' <span class="keys" id="piles-help">any board of its family: up to {SETTABLE_PILES} piles of '
                   f'up to {SETTABLE_PILE}</span>') if free else ""
    family = "" if not free else " It plays any board of these rules: set your own piles under New game."
    code = {"css": _asset("page.css"), "data": f"const NIM_GAME = {script_json(game)};",
            "strategy": strategy_script(agent), "game": _asset("page.js")}
    return _fill(code, title, rules_text(rules, piles=not free) + family, piles_field, _about(facts, history_svg),
                 verb="Take", keys=NIM_KEYS)


def plays_any_heaps(agent) -> bool:
    """Whether the page plays ``agent`` on heaps of any size: a genome whose kind
    plays them (a program with a heap part of a splitting game) (its move computed by the page, :func:`nim_evo.web.translate.heaps_script`)."""
    return isinstance(agent, GenomeAgent) and agent.kind.plays_any_heaps(agent.genes, agent.rules)


def _heaps_page(agent, facts: dict, history_svg: str | None) -> str:
    """The page of a splitting game's program: any heaps of its family the person sets, up to
    :data:`SETTABLE_HEAPS` of up to :data:`SETTABLE_HEAP` (its own board to start, where it fits)."""
    from nim_evo.web.translate import heaps_script  # (import time: 50 ms, for a splitting game's page only)

    rules = agent.rules
    own = [n for n in rules.heaps if n]
    game = {"heaps": own if len(own) <= SETTABLE_HEAPS and max(own) <= SETTABLE_HEAP else [10, 20, 30],
            "misere": bool(rules.misere), "maxHeap": SETTABLE_HEAP, "maxHeaps": SETTABLE_HEAPS,
            "typing": rules.typing, "moveWords": rules.move_words}
    end = "whoever makes the last move loses" if rules.misere else "whoever makes the last move wins"
    text = (f"{rules.title}: {rules.move_words}; {end}. The champion plays any board of this game: set your own "
            "heaps under New game.")
    piles_field = ('<label>Heaps <input id="piles" size="40" aria-describedby="piles-help"></label>'
                   f' <span class="keys" id="piles-help">up to {SETTABLE_HEAPS} heaps of up to {SETTABLE_HEAP:,}</span>')
    code = {"css": _asset("page.css"), "data": f"const NIM_GAME = {script_json(game)};",
            "strategy": heaps_script(agent.kind, agent.genes, rules), "game": _asset("heaps.js")}
    return _fill(code, f"Play {rules.title} against {getattr(agent, 'name', 'the champion')}", text, piles_field,
                 _about(facts, history_svg), verb="Play", keys=HEAPS_KEYS)


HEAPS_KEYS = ('<label>Your move <input id="move" size="16" autocomplete="off" aria-describedby="move-help"></label> '
              '<span id="move-help">heap, take, part: <code>2 1 30</code> takes one from heap 2, leaving 30 on one '
              'side of the gap (Enter plays; a click on a heap starts a move)</span>')
NIM_KEYS = "Keys: 1-9 or &uarr;&darr; pick a pile, &larr;&rarr; how many, Enter takes, N a new game."
GRAPH_KEYS = "Click pins or objects, then Play (or Enter); or pick a move below. N: a new game."


def _graph_code(agent) -> dict:
    """The code of a page that walks the game's graph (a game whose moves are no takes from one heap)."""
    return {"css": _asset("page.css"), "data": f"const NIM_GAME = {script_json({'misere': bool(agent.rules.misere)})};",
            "strategy": f"const NIM_GRAPH = {script_json(game_graph(agent))};", "game": _asset("graph.js")}


def _about(facts: dict, history_svg: str | None) -> str:
    rows = "".join(f"<tr><td>{html.escape(str(k))}</td><td>{html.escape(str(v))}</td></tr>" for k, v in facts.items())
    about = f'<fieldset><legend>The champion</legend><table class="facts">{rows}</table>'
    if history_svg:
        image = base64.b64encode(history_svg.encode("utf-8")).decode("ascii")
        about += (f'<div id="history"><img alt="the run\'s fitness history" '
                  f'src="data:image/svg+xml;base64,{image}"></div>')
    return about + "</fieldset>"


def _fill(code: dict, title: str, rules: str, piles_field: str, about: str, verb: str, keys: str) -> str:
    """The template filled: the page's code, its title, rules and parts (``keys`` is HTML)."""
    template = _asset("page.html")
    # the policy allows the template's own elements, filled with the code: whatever else a page held
    # (an element slipped in with a name, were escaping ever to fail) is never allowed by it
    own = [(tag, Template(text).substitute(code)) for tag, text in INLINE.findall(template)]
    return Template(template).substitute(
        policy=content_security_policy(own), version=html.escape(__version__), title=html.escape(title),
        rules=html.escape(rules), piles_field=piles_field, about=about, verb=verb, keys=keys, **code)


def csp_hash(text: str) -> str:
    """The source expression that lets an inline element whose content is ``text`` run (CSP3)."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(elements) -> str:
    """The policy of a page whose own inline elements are ``elements`` (``(tag, text)`` pairs):
    no request at all, and only those scripts and styles."""
    hashes: dict[str, dict[str, None]] = {"script": {}, "style": {}}
    for tag, text in elements:
        hashes[tag][csp_hash(text)] = None
    return CONTENT_SECURITY_POLICY.format(**{tag: " ".join(found) or "'none'" for tag, found in hashes.items()})


def champion_facts(path, data: dict, agent, run_config: dict | None = None) -> dict:
    """What the page says the champion is, from its strategy file ``path`` (read as ``data``)
    and its run's config."""
    config = run_config or data.get("run_config") or {}
    genome = isinstance(agent, GenomeAgent)
    kind = agent.kind.name if genome else f"{data.get('learner', 'learned')} learner"
    facts = {"strategy": f"{kind} ({Path(path).name})", "board": agent.rules.name}
    described = agent.kind.describe(agent.genes, agent.rules) if genome else None
    if described is not None:
        facts["program"] = described
        if agent.rules.grundy_words() is not None:
            facts["the game's Grundy values"] = agent.rules.grundy_words()
    if data.get("accuracy") is not None:
        facts["accuracy"] = f"a winning move in {100 * data['accuracy']:.2f}% of winning positions of its board"
    for key in ("seed", "generations", "population"):
        if key in config:
            facts[key] = config[key]
    if config.get("opponents"):
        facts["evolved against"] = ", ".join(config["opponents"])
    if data.get("run"):
        facts["run"] = data["run"]
    return facts


def history_svg(run_dir) -> str:
    """The run's fitness history as an inline ``<svg>`` element (no fonts or images to fetch:
    matplotlib draws text as paths unless told otherwise)."""
    from nim_evo.plots.history import draw_history, load_history  # matplotlib only when drawing (export --run)

    figure = draw_history([load_history(run_dir)])
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Creator": "nim_evo", "Date": None})
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):]
