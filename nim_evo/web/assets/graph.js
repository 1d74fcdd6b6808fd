"use strict";
// The game a person plays against a champion bound to its board, in any family: the page walks
// the game's graph and computes no move. Given before this script: NIM_GAME = {misere} and
// NIM_GRAPH = {positions, start, labels, moves, shape, pairs?, vectors?} (moves[i]: action,
// child index, the champion's probability, repeated, for every legal action at position i).
// A person clicks pins (a split game: a run of pins knocked down, or a gap to split at) or
// objects (a vector game: from each heap, an object and those to its right), then Play; or
// picks a move from the list. The game lives in the address's fragment: a reload goes on with it.

const nim = (() => {
  const game = NIM_GAME, graph = NIM_GRAPH;
  const PAUSE = 700;  // ms before the champion answers
  let state = null;   // {index, turn, first, over, winner, log, last, pick}
  let timer = null;

  const $ = (id) => document.getElementById(id);
  const heaps = (index) => graph.positions[index];
  const left = (index) => {
    const sizes = heaps(index).filter((n) => n > 0);
    return sizes.length ? sizes.join(" ") : "nothing";
  };

  function legalMoves(index) {
    // [[action, child, p], ...] at a position
    const flat = graph.moves[index], moves = [];
    for (let i = 0; i < flat.length; i += 3) moves.push([flat[i], flat[i + 1], flat[i + 2]]);
    return moves;
  }

  function fresh(first) {
    return {index: graph.start, turn: first, first, over: false, winner: null, log: [], last: null, pick: null};
  }

  function apply(record, action, who) {
    const move = legalMoves(record.index).find(([a]) => a === action);
    if (!move) return false;
    record.index = move[1];
    record.last = {who, action};
    record.log.push(action);
    record.pick = null;
    if (!graph.moves[record.index].length) {
      record.over = true;  // the mover made the last move: it wins in normal play, loses in misère
      record.winner = game.misere ? (who === "you" ? "champion" : "you") : who;
    } else {
      record.turn = who === "you" ? "champion" : "you";
    }
    return true;
  }

  function save() {
    history.replaceState(null, "", "#game=" + encodeURIComponent(JSON.stringify({first: state.first, log: state.log})));
  }

  function load() {
    // a saved game is its first mover and its moves, replayed from the start: each must be legal
    // in turn (a game has fewer moves than positions), or a new game starts
    try {
      const saved = JSON.parse(decodeURIComponent(location.hash.replace(/^#game=/, "")));
      if (!saved || !["you", "champion"].includes(saved.first) || !Array.isArray(saved.log) ||
          saved.log.length > graph.positions.length) return null;
      const replay = fresh(saved.first);
      for (const action of saved.log) {
        if (replay.over || !Number.isInteger(action) || !apply(replay, action, replay.turn)) return null;
      }
      return replay;
    } catch (e) {
      return null;
    }
  }

  function say(text, kind) {
    $("message").textContent = text;
    $("message").className = kind || "";
  }

  function newGame(first) {
    clearTimeout(timer);
    const who = first === "coin" ? (Math.random() < 0.5 ? "you" : "champion") : first;
    state = fresh(who);
    say(who === "you" ? "You move first." : "The champion moves first.", "info");
    save();
    render();
    schedule();
  }

  function play(action, who) {
    apply(state, action, who);
    save();
    say(who === "you" ? "" : `The champion played ${graph.labels[action]}.`, who === "you" ? "" : "info");
    render();
    schedule();
  }

  function championMove() {
    const moves = legalMoves(state.index).filter(([, , p]) => p > 0);
    let r = Math.random(), chosen = moves[moves.length - 1];
    for (const move of moves) {
      r -= move[2];
      if (r < 0) { chosen = move; break; }
    }
    if (!chosen) { say("The champion has no move here: its file does not cover this position."); return; }
    play(chosen[0], "champion");
  }

  function schedule() {
    clearTimeout(timer);
    if (!state.over && state.turn === "champion") timer = setTimeout(championMove, PAUSE);
  }

  function yourTurn() {
    if (state.over) { say("The game is over: start a new one."); return false; }
    if (state.turn !== "you") { say("Wait: it is the champion's turn."); return false; }
    return true;
  }

  // -- what a click picks, and the action it names ------------------------------------------

  function pickedAction() {
    const pick = state.pick, sizes = heaps(state.index);
    if (!pick) return null;
    let wanted = null;
    if (graph.shape === "split") {
      const n = sizes[pick.heap];
      const take = pick.gap === undefined ? pick.to - pick.from + 1 : 0;
      const before = pick.gap === undefined ? pick.from : pick.gap, after = n - before - take;
      const pair = graph.pairs.findIndex(([t, p]) => t === take && p === Math.min(before, after));
      wanted = pair < 0 ? -1 : pick.heap * graph.pairs.length + pair;
    } else if (graph.shape === "vector") {
      wanted = graph.vectors.findIndex((v) => v.every((c, i) => c === (pick.counts[i] || 0)));
    }
    return legalMoves(state.index).some(([a]) => a === wanted) ? wanted : -1;
  }

  function clickPin(heap, pin) {
    if (!yourTurn()) return;
    const pick = state.pick;
    if (pick && pick.heap === heap && pick.gap === undefined && pin !== pick.from && pick.from === pick.to) {
      state.pick = {heap, from: Math.min(pin, pick.from), to: Math.max(pin, pick.from)};  // a run of pins
    } else {
      state.pick = {heap, from: pin, to: pin};
    }
    say("");
    render();
  }

  function clickGap(heap, gap) {
    if (!yourTurn()) return;
    state.pick = {heap, gap};
    say("");
    render();
  }

  function clickObject(heap, take) {
    if (!yourTurn()) return;
    const counts = state.pick ? state.pick.counts.slice() : heaps(state.index).map(() => 0);
    counts[heap] = counts[heap] === take ? 0 : take;
    state.pick = {counts};
    say("");
    render();
  }

  function playPicked() {
    if (!yourTurn()) return;
    const action = pickedAction();
    if (action === null) { say("Pick a move first: click the board, or a move in the list."); return; }
    if (action < 0) { say("That is no move of this game here: the list shows the moves you may play."); return; }
    play(action, "you");
  }

  // -- drawing -----------------------------------------------------------------------------

  function button(className, title, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.title = title;
    b.setAttribute("aria-label", title);
    b.tabIndex = -1;
    b.addEventListener("click", onClick);
    return b;
  }

  function drawHeap(heap, size) {
    const row = document.createElement("div");
    row.className = "pile";
    row.dataset.pile = heap;
    row.dataset.size = size;
    const name = document.createElement("span");
    name.className = "pile-name";
    name.textContent = `Heap ${heap + 1}`;
    const count = document.createElement("span");
    count.className = "pile-size";
    count.textContent = size;
    const objects = document.createElement("div");
    objects.className = "objects";
    const pick = state.pick;
    for (let j = 0; j < size; j++) {
      if (graph.shape === "split") {
        if (j > 0) {
          const gap = button("gap", `split heap ${heap + 1} between pins ${j} and ${j + 1}`, () => clickGap(heap, j));
          gap.dataset.pile = heap;
          gap.dataset.gap = j;
          if (pick && pick.heap === heap && pick.gap === j) gap.classList.add("selected");
          objects.appendChild(gap);
        }
        const pin = button("obj", `pin ${j + 1} of heap ${heap + 1}`, () => clickPin(heap, j));
        pin.dataset.pile = heap;
        pin.dataset.pin = j;
        if (pick && pick.heap === heap && pick.gap === undefined && j >= pick.from && j <= pick.to) {
          pin.classList.add("selected");
        }
        objects.appendChild(pin);
      } else {
        const take = size - j;  // an object and those to its right
        const obj = button("obj", `take ${take} from heap ${heap + 1}`, () => clickObject(heap, take));
        obj.dataset.pile = heap;
        obj.dataset.take = take;
        if (pick && pick.counts && pick.counts[heap] >= take) obj.classList.add("selected");
        objects.appendChild(obj);
      }
    }
    row.append(name, count, objects);
    return row;
  }

  function render() {
    const board = $("board");
    board.textContent = "";
    heaps(state.index).forEach((size, heap) => {
      if (size > 0 || graph.shape !== "split") board.appendChild(drawHeap(heap, size));
    });
    const yours = !state.over && state.turn === "you";
    const list = $("moves");
    list.textContent = "";
    if (yours) {
      for (const [action, child] of legalMoves(state.index)) {
        const b = button("move", `${graph.labels[action]}: leaves ${left(child)}`, () => { if (yourTurn()) play(action, "you"); });
        b.textContent = `${graph.labels[action]} \u2192 ${left(child)}`;
        b.dataset.action = action;
        b.tabIndex = 0;
        list.appendChild(b);
      }
    }
    const picked = yours ? pickedAction() : null;
    const go = $("take");
    go.disabled = !yours || picked === null || picked < 0;
    go.textContent = picked !== null && picked >= 0 ? `Play ${graph.labels[picked]}` : "Play";
    document.body.dataset.state = state.over ? "over" : yours ? "your-turn" : "champion-turn";
    document.body.dataset.winner = state.winner || "";
    $("status").textContent = state.over ? (state.winner === "you" ? "You win!" : "The champion wins.") :
      yours ? "Your turn: click the board, then Play; or pick a move from the list." : "The champion is thinking...";
    const lines = [], replay = fresh(state.first);
    for (const action of state.log) {
      const who = replay.turn;
      apply(replay, action, who);
      lines.push(`${who === "you" ? "You" : "The champion"} played ${graph.labels[action]} -> ${left(replay.index)}`);
    }
    $("log").textContent = lines.join("\n");
    $("log").scrollTop = $("log").scrollHeight;
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("button:not(.obj):not(.gap), input, select, textarea")) return;
    if (event.key === "Enter") playPicked();
    else if (event.key === "n" || event.key === "N") newGame($("first").value);
    else return;
    event.preventDefault();
  }

  function start() {
    $("take").addEventListener("click", playPicked);
    $("new").addEventListener("click", () => newGame($("first").value));
    document.addEventListener("keydown", onKey);
    state = load();
    if (state) {
      say(state.over ? "" : "Welcome back: the game goes on where it was.", "info");
      render();
      schedule();
    } else {
      newGame("you");
    }
  }

  return {start, load, state: () => state, newGame, legalMoves};
})();

document.addEventListener("DOMContentLoaded", nim.start);
