"use strict";
// The game a person plays against a program of a splitting game on heaps of any size (twelve
// heaps of up to 100,000: no board is listed, every move is computed). Given before this
// script: NIM_GAME = {heaps, misere, maxHeap, maxHeaps, typing, moveWords} and, from
// splitting.js, nimSplitMove(position), nimAllows(n, take, part) and nimHasMove(n). A position
// is its heaps in their places (0: an empty place): the heap a move splits keeps the smaller
// part, the first empty place, else a new one, the larger (as nim_evo.games.bigheaps plays).
// A person types a move, "heap take part", or clicks a heap to start one.

const nim = (() => {
  const game = NIM_GAME;
  const PAUSE = 300;  // ms before the champion starts thinking (the board is drawn first)
  let state = null;   // {heaps, turn, first, over, winner, log}
  let timer = null;

  const $ = (id) => document.getElementById(id);
  const plural = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;
  const canMove = (heaps) => heaps.some((n) => nimHasMove(n));

  function fresh(heaps, first) {
    return {heaps: heaps.slice(), turn: first, first, over: false, winner: null, log: []};
  }

  function apply(record, [heap, take, part], who) {
    const heaps = record.heaps, rest = heaps[heap] - take - part;
    heaps[heap] = part > 0 ? part : rest;
    if (part > 0) {
      const free = heaps.indexOf(0);
      if (free < 0) heaps.push(rest); else heaps[free] = rest;
    }
    const left = heaps.filter((n) => n > 0);
    record.log.push(`${who === "you" ? "You" : "The champion"} played ${heap + 1} ${take} ${part} -> ` +
                    `${plural(left.length, "heap")}, ${plural(left.reduce((x, y) => x + y, 0), "object")}`);
    if (!canMove(heaps)) {
      record.over = true;  // the mover made the last move: it wins in normal play, loses in misère
      record.winner = game.misere ? (who === "you" ? "champion" : "you") : who;
    } else {
      record.turn = who === "you" ? "champion" : "you";
    }
  }

  function say(text, kind) {
    $("message").textContent = text;
    $("message").className = kind || "";
  }

  function newGame(heaps, first) {
    clearTimeout(timer);
    const who = first === "coin" ? (Math.random() < 0.5 ? "you" : "champion") : first;
    state = fresh(heaps, who);
    say(who === "you" ? "You move first." : "The champion moves first.", "info");
    render();
    schedule();
  }

  function championMove() {
    const move = nimSplitMove(state.heaps);
    apply(state, move, "champion");
    say(`The champion played ${move[0] + 1} ${move[1]} ${move[2]}.`, "info");
    render();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (!state.over && state.turn === "champion") timer = setTimeout(championMove, PAUSE);
  }

  // The move a typed line names, or one sentence saying why it is none.
  function readMove(text) {
    const words = text.trim().split(/[\s,:;]+/).filter((w) => w);
    if (words.length !== 3 || words.some((w) => !/^\d{1,16}$/.test(w))) {
      return `Type three whole numbers: ${game.typing}.`;
    }
    const [heap, take, part] = words.map(Number);
    const n = state.heaps[heap - 1];
    if (!(heap >= 1 && n > 0)) return `There is no heap ${heap}.`;
    if (take + part > n) return `Heap ${heap} has only ${plural(n, "object")}.`;
    const smaller = Math.min(part, n - take - part);  // (the part either side of the gap)
    if (!nimAllows(n, take, smaller)) return `${heap} ${take} ${part} cannot be played: ${game.moveWords}.`;
    return [heap - 1, take, smaller];
  }

  function play() {
    if (state.over) { say("The game is over: start a new one."); return; }
    if (state.turn !== "you") { say("Wait: it is the champion's turn."); return; }
    const move = readMove($("move").value);
    if (typeof move === "string") { say(move); return; }
    apply(state, move, "you");
    $("move").value = "";
    say("");
    render();
    schedule();
  }

  function render() {
    const board = $("board");
    board.textContent = "";
    const widest = Math.max(1, ...state.heaps);
    state.heaps.forEach((size, heap) => {
      if (size === 0) return;
      const row = document.createElement("div");
      row.className = "pile";
      row.dataset.pile = heap;
      row.dataset.size = size;
      const name = document.createElement("span");
      name.className = "pile-name";
      name.textContent = `Heap ${heap + 1}`;
      const count = document.createElement("span");
      count.className = "heap-size";
      count.textContent = size.toLocaleString("en");
      const track = document.createElement("span");
      track.className = "track";
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${Math.max(0.3, 100 * size / widest)}%`;
      track.appendChild(bar);
      row.append(name, count, track);
      row.addEventListener("click", () => { $("move").value = `${heap + 1} `; $("move").focus(); });
      board.appendChild(row);
    });
    const yours = !state.over && state.turn === "you";
    $("take").disabled = !yours;
    document.body.dataset.state = state.over ? "over" : yours ? "your-turn" : "champion-turn";
    document.body.dataset.winner = state.winner || "";
    $("status").textContent = state.over ? (state.winner === "you" ? "You win!" : "The champion wins.") :
      yours ? "Your turn: type heap, take, part (click a heap to start), then Play." : "The champion is thinking...";
    $("log").textContent = state.log.join("\n");
    $("log").scrollTop = $("log").scrollHeight;
  }

  function parseHeaps(text) {
    const words = text.trim().split(/[\s,;-]+/).filter((w) => w);
    if (!words.length || words.some((w) => !/^\d{1,16}$/.test(w))) return [null, "Heap sizes are whole numbers, e.g. 30000 500 7."];
    const heaps = words.map(Number);
    if (heaps.length > game.maxHeaps) return [null, `At most ${game.maxHeaps} heaps here.`];
    if (heaps.some((n) => n > game.maxHeap)) return [null, `At most ${game.maxHeap.toLocaleString("en")} objects in a heap here.`];
    if (!canMove(heaps)) return [null, "No move is possible on those heaps."];
    return [heaps, ""];
  }

  function startFromForm() {
    const [heaps, why] = parseHeaps($("piles").value);
    if (!heaps) { say(why); return; }
    newGame(heaps, $("first").value);
  }

  function start() {
    $("controls").appendChild($("take"));  // (after the field the move is typed in)
    $("take").addEventListener("click", play);
    $("new").addEventListener("click", startFromForm);
    $("move").addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); play(); } });
    $("piles").value = game.heaps.join(" ");
    newGame(game.heaps, "you");
  }

  return {start, state: () => state, newGame};
})();

document.addEventListener("DOMContentLoaded", nim.start);
