// A program of a splitting game (Kayles, Dawson's Kayles, Lasker's Nim, Grundy's game) on heaps
// of any size: the move nim_evo/genomes/scoring.py's split_child chooses, named as
// nim_evo/games/bigheaps.py's move_to names it. Given above: RULES {misere}, GENES {step,
// second, score (program.js), heap: {values, period, saltus}}, FAMILY {rule: "octal", digits} or
// {rule: "lasker"} or {rule: "grundy"}, and program.js (the trees in BigInt, as numpy computes).
//
// The trees run on Numbers while every value stays where Numbers are exact (sums within 2^52,
// the operands of and, or and not within 32 bits); a search where one does not is run again in
// BigInt: the same move either way, the Number one about fifty times sooner.

class Unsafe extends Error {}
const BOUND = 2 ** 52;
const exact = (x) => { if (x > BOUND || x < -BOUND) throw new Unsafe(); return x; };
const bits = (x) => { if (x >= 2 ** 31 || x < -(2 ** 31)) throw new Unsafe(); return x; };
function numberMod(x, y) {
  const r = x % y;
  return r !== 0 && (r < 0) !== (y < 0) ? r + y : r + 0;  // (+ 0: no -0)
}
const NUMBER_PRIMITIVES = {
  ...PRIMITIVES,
  add: [2, (x, y) => exact(x + y)],
  sub: [2, (x, y) => exact(x - y)],
  and: [2, (x, y) => bits(x) & bits(y)],
  or: [2, (x, y) => bits(x) | bits(y)],
  not: [1, (x) => ~bits(x)],
  mod: [2, (x, y) => (y === 0 ? x : numberMod(x, y))],
  shl: [1, (x) => exact(x * 2)],
  shr: [1, (x) => Math.floor(x / 2)],
};
const NUMBER_CONSTANTS = {"0": 0, "1": 1, "2": 2, "True": true, "False": false};
const ARITHMETIC = {
  number: {step: compile("step", NUMBER_PRIMITIVES, NUMBER_CONSTANTS),
           second: compile("second", NUMBER_PRIMITIVES, NUMBER_CONSTANTS),
           score: compile("score", NUMBER_PRIMITIVES, NUMBER_CONSTANTS), of: (n) => n},
  bigint: {step: STEP, second: SECOND, score: SCORE, of: BigInt},
};

// u(n), the heap part's value of a heap of n (heaps.HeapPart): the table, then its last
// period values repeated, the saltus added each time.
function heapValue(n) {
  const {values, period, saltus} = GENES.heap;
  if (n < values.length) return values[n];
  const turns = Math.floor((n - values.length) / period), offset = (n - values.length) % period;
  return values[values.length - period + offset] + saltus * (turns + 1);
}

// Every [take, part] a heap of n allows (part the smaller side, 0 for one heap or none).
function heapMoves(n) {
  const moves = [];
  const split = (take, strict) => {
    for (let part = 1; 2 * part + (strict ? 1 : 0) <= n - take; part++) moves.push([take, part]);
  };
  if (FAMILY.rule === "octal") {
    FAMILY.digits.forEach((digit, i) => {
      const take = i + 1;
      if ((take === n && digit & 1) || (take < n && digit & 2)) moves.push([take, 0]);
      if (digit & 4) split(take, false);
    });
  } else if (FAMILY.rule === "lasker") {
    for (let take = 1; take <= n; take++) moves.push([take, 0]);
    split(0, false);
  } else {
    split(0, true);  // Grundy's game: two heaps of different sizes
  }
  return moves;
}

// Whether a heap of n may lose take objects and be left as part and n - take - part (part the
// smaller side, 0 for one heap or none): the family's rule, as heapMoves lists it.
function allows(n, take, part) {
  const rest = n - take - part;
  if (![n, take, part].every(Number.isSafeInteger) || take < 0 || part < 0 || rest < part) return false;
  if (FAMILY.rule === "octal") {
    const digit = take >= 1 && take <= FAMILY.digits.length ? FAMILY.digits[take - 1] : 0;
    return ((digit >> (part > 0 ? 2 : rest > 0 ? 1 : 0)) & 1) === 1;
  }
  if (FAMILY.rule === "lasker") return (take >= 1 && part === 0) || (take === 0 && part >= 1);
  return take === 0 && part >= 1 && rest > part;
}

// Whether a heap of n has a move (past a few objects, whether it has one no longer changes).
function hasMove(n) {
  const settled = FAMILY.rule === "octal" ? 2 * FAMILY.digits.length + 2 : 3;
  return n > 0 && heapMoves(Math.min(n, settled)).length > 0;
}

const ascendingNumbers = (x, y) => x - y;
const compare = (x, y) => (x < y ? -1 : x > y ? 1 : 0);  // (a Number and a BigInt compare too)

// The child of least score, then the least as its heaps sorted ascending (with a 0 for no
// heap), compared in order: {n, small, large} (the heap of n left as small and large).
function search(sizes, a) {
  const fold = ([v, w], n) => {
    const p = a.of(heapValue(n));
    return [a.step([v, p, a.of(0)]), a.second([w, p, a.of(0)])];
  };
  const prefix = [[a.of(0), a.of(0)]];
  for (const n of sizes) prefix.push(fold(prefix[prefix.length - 1], n));
  const last = sizes.length - 1;
  let best = null;
  for (let r = 0; r <= last; r++) {
    if (r > 0 && sizes[r] === sizes[r - 1]) continue;  // (equal heaps leave the same children)
    const n = sizes[r];
    const othersMax = r < last ? sizes[last] : r > 0 ? sizes[r - 1] : 0;
    for (const [take, part] of heapMoves(n)) {
      const small = part, large = n - take - part;
      const pending = [small, large].filter((x) => x > 0);
      let t = pending.length ? lowerBound(sizes, pending[0]) : r;
      let value = prefix[t];
      for (; t <= last; t++) {
        if (t === r) continue;
        while (pending.length && pending[0] <= sizes[t]) value = fold(value, pending.shift());
        value = fold(value, sizes[t]);
      }
      for (const x of pending) value = fold(value, x);
      const score = a.score([value[0], a.of(Math.max(othersMax, large)), value[1], RULES.misere]);
      const order = best === null ? -1 : compare(score, best.score);
      if (order < 0 || (order === 0 && lexicographic(child(sizes, r, small, large), best.child) < 0)) {
        best = {score, child: child(sizes, r, small, large), n, small, large};
      }
    }
  }
  return best;
}

function child(sizes, r, small, large) {
  return sizes.filter((_, i) => i !== r).concat([small, large]).sort(ascendingNumbers);
}

function lexicographic(x, y) {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

// The program's move in a position (heap sizes in their places, 0 for an empty one):
// [heap, take, part], the heap counted from 0 (the first of its size); null where none is left.
function splitMove(position) {
  const sizes = position.filter((n) => n > 0).sort(ascendingNumbers);
  let best = null;
  try {
    best = search(sizes, ARITHMETIC.number);
  } catch (error) {
    if (!(error instanceof Unsafe)) throw error;
    best = search(sizes, ARITHMETIC.bigint);
  }
  if (best === null) return null;
  const {n, small, large} = best;
  return [position.indexOf(n), n - small - large, small > 0 && large > 0 ? small : 0];
}

globalThis.nimSplitMove = function nimSplitMove(position) {
  return splitMove(checkPiles(position, "heaps"));
};
globalThis.nimHeapMoves = heapMoves;
globalThis.nimAllows = allows;
globalThis.nimHasMove = hasMove;
