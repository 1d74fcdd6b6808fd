"use strict";
// The game a person plays against the champion: the board, whose turn it is, clicks and keys.
// Given by the page before this script: NIM_GAME = {piles, maxTake, takes, takesWords, misere,
// boardFree, maxPile, maxPiles} (takes: the counts a move may take, for a take-away game that is
// not Nim; null on Nim) and nimDistribution(piles, board) -> [[pile, count, probability], ...],
// the champion's moves at a position (pile 0-based) of a game begun on board. The state lives in
// the address's fragment, so a reload goes on with the same game.

const nim = (() => {
  const game = NIM_GAME;
  const PAUSE = 700;  // ms before the champion answers: a visible pause
  let state = null;   // {piles, turn: "you" | "champion", first, over, winner, log, pile, count}
  let timer = null;

  const $ = (id) => document.getElementById(id);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function allowed(count) {
    // a count one move may take: at most the cap on Nim, a member of the set on a subtraction game
    return game.takes === null ? game.maxTake === null || count <= game.maxTake : game.takes.includes(count);
  }

  function legal(piles, pile, count) {
    return Number.isInteger(pile) && Number.isInteger(count) && pile >= 0 && pile < piles.length &&
      count >= 1 && count <= piles[pile] && allowed(count);
  }

  function canMove(piles) {
    // the game ends when no move is left: on Nim the empty board, elsewhere maybe before
    return piles.some((n) => game.takes === null ? n > 0 : game.takes.some((c) => c <= n));
  }

  function whyIllegal(piles, pile, count) {
    if (!(pile >= 0 && pile < piles.length)) return "Pick a pile first.";
    if (piles[pile] === 0) return `Pile ${pile + 1} is empty: pick another pile.`;
    if (count < 1) return "A move takes at least one object.";
    if (count > piles[pile]) return `Pile ${pile + 1} has only ${plural(piles[pile], "object")}.`;
    if (game.takes === null && game.maxTake !== null && count > game.maxTake) {
      return `A move takes at most ${plural(game.maxTake, "object")}: pick one of the last ${game.maxTake} in a pile.`;
    }
    if (!allowed(count)) return `A move takes ${game.takesWords}.`;
    return "";
  }

  function save() {
    // The game lives in the page's address (its fragment), written at once: a reload, even a
    // moment after a move, goes on with it (storage APIs commit asynchronously).
    history.replaceState(null, "", "#game=" + encodeURIComponent(JSON.stringify(state)));
  }

  function load() {
    // A saved game is used only if it is a game of this page: a board it may play, and a log of
    // moves, each legal and in turn, that replayed from it reach the saved position, turn,
    // winner and last move; anything else (stale, damaged, edited, hostile) starts a new game.
    try {
      return replayed(JSON.parse(decodeURIComponent(location.hash.replace(/^#game=/, ""))));
    } catch (e) {
      return null;
    }
  }

  function replayed(saved) {
    // Sizes are bounded by the board before anything loops: the log holds at most a move per
    // object (a move takes one or more), so no saved game, however large its numbers, hangs the page.
    const counts = (list) => Array.isArray(list) && list.length >= 1 && list.length <= game.maxPiles &&
      list.every((n) => Number.isInteger(n) && n >= 0 && n <= game.maxPile);
    if (!saved || typeof saved !== "object") return null;
    const {board, first, log} = saved;
    if (!counts(board) || board.every((n) => n === 0) || !["you", "champion"].includes(first)) return null;
    if (!game.boardFree && board.join(",") !== game.piles.join(",")) return null;
    if (!Array.isArray(log) || log.length > board.reduce((sum, n) => sum + n, 0)) return null;
    const replay = fresh(board, first);
    for (const line of log) {
      const words = typeof line === "string" &&
        /^(You|The champion) took (\d{1,16}) objects? from pile (\d{1,16}) /.exec(line);
      if (!words || replay.over) return null;
      const who = words[1] === "You" ? "you" : "champion", pile = Number(words[3]) - 1, count = Number(words[2]);
      if (who !== replay.turn || !legal(replay.piles, pile, count)) return null;
      apply(replay, pile, count, who);
      if (replay.log[replay.log.length - 1] !== line) return null;  // the line the page writes, nothing else
    }
    const {piles, lastMove: last} = saved, done = replay.lastMove;
    const same = Array.isArray(piles) && piles.length === replay.piles.length &&
      piles.every((n, i) => n === replay.piles[i]);
    if (!same) return null;
    if (saved.turn !== replay.turn || saved.over !== replay.over || saved.winner !== replay.winner) return null;
    if (last === null || last === undefined ? done !== null :
        !(done && last.who === done.who && last.pile === done.pile && last.count === done.count)) return null;
    return replay;  // only its own fields (a selection in the link is dropped)
  }

  function fresh(piles, first) {
    return {board: piles.slice(), piles: piles.slice(), turn: first, first, over: false, winner: null, log: [],
            pile: -1, count: 0, lastMove: null};
  }

  function newGame(piles, first) {
    clearTimeout(timer);
    const who = first === "coin" ? (Math.random() < 0.5 ? "you" : "champion") : first;
    state = fresh(piles, who);
    say(who === "you" ? "You move first." : "The champion moves first.", "info");
    save();
    render();
    schedule();
  }

  function apply(record, pile, count, who) {
    // the move on record (the state, or a saved game being replayed)
    record.piles[pile] -= count;
    record.lastMove = {who, pile, count};
    record.log.push(`${who === "you" ? "You" : "The champion"} took ${plural(count, "object")} from pile ${pile + 1}` +
                    ` -> ${record.piles.join(" ")}`);
    record.pile = -1;
    record.count = 0;
    if (!canMove(record.piles)) {
      record.over = true;  // the mover made the last move: it wins in normal play, loses in misère
      const other = who === "you" ? "champion" : "you";
      record.winner = game.misere ? other : who;
    } else {
      record.turn = who === "you" ? "champion" : "you";
    }
  }

  function play(pile, count, who) {
    apply(state, pile, count, who);
    save();
  }

  function championMove() {
    const moves = nimDistribution(state.piles.slice(), state.board.slice()).filter(([pile, count, p]) => p > 0);
    let r = Math.random();
    let chosen = moves[moves.length - 1];
    for (const move of moves) {
      r -= move[2];
      if (r < 0) { chosen = move; break; }
    }
    if (!chosen || !legal(state.piles, chosen[0], chosen[1])) {
      say("The champion has no legal move here: its file does not cover this position.");
      return;
    }
    play(chosen[0], chosen[1], "champion");
    say(`The champion took ${plural(chosen[1], "object")} from pile ${chosen[0] + 1}.`, "info");
    render();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (!state.over && state.turn === "champion") timer = setTimeout(championMove, PAUSE);
  }

  function say(text, kind) {
    const message = $("message");
    message.textContent = text;
    message.className = kind || "";
  }

  function select(pile, count) {
    if (state.over) { say("The game is over: start a new one."); return; }
    if (state.turn !== "you") { say("Wait: it is the champion's turn."); return; }
    const why = whyIllegal(state.piles, pile, count);
    if (why) { say(why); return; }
    state.pile = pile;
    state.count = count;
    say("");
    save();
    render();
  }

  function take() {
    if (state.over) { say("The game is over: start a new one."); return; }
    if (state.turn !== "you") { say("Wait: it is the champion's turn."); return; }
    const why = whyIllegal(state.piles, state.pile, state.count);
    if (why) { say(why); return; }
    play(state.pile, state.count, "you");
    say("");
    render();
    schedule();
  }

  function moveCursor(step) {
    const n = state.piles.length;
    let pile = state.pile;
    for (let i = 0; i < n; i++) {
      pile = ((pile < 0 ? (step > 0 ? -1 : 0) : pile) + step + n) % n;
      if (state.piles[pile] > 0) { select(pile, 1); return; }
    }
  }

  function onKey(event) {
    // the browser's own shortcuts (Ctrl+N, Cmd+1, Ctrl+plus) and keys meant for a field or a
    // focused button stay theirs
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("button:not(.obj), input, select, textarea")) return;
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      const pile = Number(key) - 1;
      if (pile < state.piles.length) select(pile, 1);
    } else if (key === "ArrowDown") moveCursor(1);
    else if (key === "ArrowUp") moveCursor(-1);
    else if (key === "ArrowRight" || key === "+") select(state.pile, state.count + 1);
    else if (key === "ArrowLeft" || key === "-") select(state.pile, state.count - 1);
    else if (key === "Enter" || key === " ") take();
    else if (key === "n" || key === "N") startFromForm();
    else return;
    event.preventDefault();
  }

  function render() {
    const board = $("board");
    board.textContent = "";
    state.piles.forEach((size, pile) => {
      const row = document.createElement("div");
      row.className = "pile" + (pile === state.pile ? " cursor" : "");
      row.dataset.pile = pile;
      row.dataset.size = size;
      const name = document.createElement("span");
      name.className = "pile-name";
      name.textContent = `Pile ${pile + 1}`;
      const count = document.createElement("span");
      count.className = "pile-size";
      count.textContent = size;
      const objects = document.createElement("div");
      objects.className = "objects";
      for (let j = 0; j < size; j++) {
        const take = size - j;  // clicking an object takes it and every object to its right
        const button = document.createElement("button");
        button.type = "button";
        button.className = "obj";
        button.dataset.pile = pile;
        button.dataset.take = take;
        button.tabIndex = -1;
        const capped = !allowed(take);
        if (capped) button.classList.add("capped");
        if (pile === state.pile && take <= state.count) button.classList.add("selected");
        button.title = !capped ? `take ${take} from pile ${pile + 1}` :
          game.takes === null ? `at most ${game.maxTake} per move` : `a move takes ${game.takesWords}`;
        button.setAttribute("aria-label", button.title);
        button.addEventListener("click", () => select(pile, take));
        objects.appendChild(button);
      }
      if (state.lastMove && state.lastMove.pile === pile) {
        for (let j = 0; j < state.lastMove.count; j++) {
          const gone = document.createElement("span");
          gone.className = "obj taken";
          gone.title = `just taken by ${state.lastMove.who === "you" ? "you" : "the champion"}`;
          objects.appendChild(gone);
        }
      }
      row.append(name, count, objects);
      board.appendChild(row);
    });
    const yours = !state.over && state.turn === "you";
    const button = $("take");
    button.disabled = !yours || !!whyIllegal(state.piles, state.pile, state.count);
    button.textContent = yours && state.pile >= 0 ? `Take ${state.count} from pile ${state.pile + 1}` : "Take";
    document.body.dataset.state = state.over ? "over" : state.turn === "you" ? "your-turn" : "champion-turn";
    document.body.dataset.winner = state.winner || "";
    $("status").textContent = state.over ? (state.winner === "you" ? "You win!" : "The champion wins.") :
      state.turn === "you" ? "Your turn: click an object (it and those to its right are taken), then Take." :
      "The champion is thinking...";
    $("log").textContent = state.log.join("\n");
    $("log").scrollTop = $("log").scrollHeight;
  }

  function parsePiles(text) {
    const words = text.trim().split(/[\s,;-]+/).filter((w) => w);
    if (!words.length) return [null, "Type the pile sizes, e.g. 3 4 5."];
    if (words.some((w) => !/^\d+$/.test(w))) return [null, "Pile sizes are whole numbers, e.g. 3 4 5."];
    const piles = words.map(Number);
    if (piles.length > game.maxPiles) return [null, `At most ${game.maxPiles} piles here.`];
    if (piles.some((n) => n > game.maxPile)) return [null, `At most ${game.maxPile} objects in a pile here.`];
    if (piles.every((n) => n === 0)) return [null, "At least one pile must hold an object."];
    return [piles, ""];
  }

  function startFromForm() {
    let piles = game.piles;
    if (game.boardFree) {
      const [own, why] = parsePiles($("piles").value);
      if (!own) { say(why); return; }
      piles = own;
    }
    newGame(piles, $("first").value);
  }

  function start() {
    $("take").addEventListener("click", take);
    $("new").addEventListener("click", startFromForm);
    document.addEventListener("keydown", onKey);
    if (game.boardFree) $("piles").value = game.piles.join(" ");
    state = load();
    if (state) {
      say(state.over ? "" : "Welcome back: the game goes on where it was.", "info");
      render();
      schedule();
    } else {
      newGame(game.piles, "you");
    }
  }

  return {start, legal, load, state: () => state, newGame};
})();

document.addEventListener("DOMContentLoaded", nim.start);
