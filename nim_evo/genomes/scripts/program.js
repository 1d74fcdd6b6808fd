// The program (nim_evo/genomes/program.py, its language in expressions.py). GENES.step,
// GENES.second and GENES.score: each tree's node names in prefix order, every one checked here against the
// closed table below (and in Python against the primitive set). Nothing is evaluated as code:
// the names select functions of the table, composed into closures.
//
// Integers are BigInts held to numpy's int64: add, sub and shl wrap to 64 bits; and, or,
// not, shr, min and max stay within them; mod takes the divisor's sign as numpy's (Python's)
// does, mod(x, 0) is x, and mod(-2^63, -1) is 0. Truth values are booleans.

const INT64 = (x) => BigInt.asIntN(64, x);
const PRIMITIVES = {
  add: [2, (x, y) => INT64(x + y)],
  sub: [2, (x, y) => INT64(x - y)],
  and: [2, (x, y) => x & y],
  or: [2, (x, y) => x | y],
  not: [1, (x) => ~x],
  mod: [2, (x, y) => (y === 0n ? x : pyMod(x, y))],
  shl: [1, (x) => INT64(x << 1n)],
  shr: [1, (x) => x >> 1n],
  min: [2, (x, y) => (y < x ? y : x)],
  max: [2, (x, y) => (y > x ? y : x)],
  lt: [2, (x, y) => x < y],
  eq: [2, (x, y) => x === y],
  both: [2, (x, y) => x && y],
  either: [2, (x, y) => x || y],
  negate: [1, (x) => !x],
  if: [3, (c, x, y) => (c ? x : y)],
  when: [3, (c, x, y) => (c ? x : y)],
};
const CONSTANTS = {"0": 0n, "1": 1n, "2": 2n, "True": true, "False": false};
const PARTS = {
  step: {args: ["a", "p", "k"],
         names: ["add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max", "0", "1", "2"]},
  second: {args: ["b", "p", "k"],
           names: ["add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max", "0", "1", "2"]},
  score: {args: ["v", "m", "w", "x"],
          names: ["min", "max", "lt", "eq", "both", "either", "negate", "if", "when",
                  "0", "1", "2", "True", "False"]},
};

// The tree of one part as a function of its arguments' array (in PARTS order), composed of
// the functions of primitives and constants (these BigInt ones, or another arithmetic's).
function compile(part, primitives = PRIMITIVES, constants = CONSTANTS) {
  const {args, names} = PARTS[part];
  const prefix = GENES[part];
  let at = 0;
  function node() {
    if (at >= prefix.length) throw new Error(`the program's ${part} is cut short`);
    const name = prefix[at++];
    const arg = args.indexOf(name);
    if (arg >= 0) return (env) => env[arg];
    if (!names.includes(name)) throw new Error(`the program's ${part}: ${String(name)} is not one of its primitives`);
    if (Object.prototype.hasOwnProperty.call(constants, name)) {
      const value = constants[name];
      return () => value;
    }
    const [arity, f] = primitives[name];
    const children = [];
    for (let j = 0; j < arity; j++) children.push(node());
    if (arity === 1) {
      const [x] = children;
      return (env) => f(x(env));
    }
    if (arity === 2) {
      const [x, y] = children;
      return (env) => f(x(env), y(env));
    }
    const [x, y, z] = children;
    return (env) => f(x(env), y(env), z(env));
  }
  const tree = node();
  if (at !== prefix.length) throw new Error(`the program's ${part} goes on after its expression`);
  return tree;
}

const STEP = compile("step");
const SECOND = compile("second");
const SCORE = compile("score");
const K = BigInt(RULES.maxTake === null ? 0 : RULES.maxTake + 1);
// the two folds at once: [v, w] -> [f(v, p, k), h(w, p, k)]
const step = ([a, b], p) => [STEP([a, p, K]), SECOND([b, p, K])];
const score = ([v, w], m) => SCORE([v, m, w, RULES.misere]);

const ascending = (x, y) => (x < y ? -1 : x > y ? 1 : 0);

// A position's score, the score tree on its fold (program.scores): a BigInt.
function positionScore(piles) {
  const sizes = piles.map(BigInt).sort(ascending);
  let value = [0n, 0n];
  for (const p of sizes) value = step(value, p);
  return score(value, sizes[sizes.length - 1]);
}

// The legal move into a position of lowest score; among equal scores the one from the
// smallest pile, then the one taking fewest, then the first pile (program.moves: so the
// choice depends on the pile sizes alone, never their order). A move's position folds as
// the sorted piles with one n replaced by n - c: the fold of the sizes below n - c is
// shared (prefix[j]).
function distribution(piles, board) {
  checkListable(board);
  const sizes = piles.map(BigInt).sort(ascending);
  const prefix = [[0n, 0n]];
  for (const p of sizes) prefix.push(step(prefix[prefix.length - 1], p));
  let best = null;
  let bestSize = null;
  let lowest = null;
  for (let i = 0; i < piles.length; i++) {
    const n = BigInt(piles[i]);
    const removed = lowerBound(sizes, n);
    for (let c = 1; c <= takesFrom(piles[i]); c++) {
      const left = n - BigInt(c);
      const j = lowerBound(sizes, left);
      let value = step(prefix[j], left);
      let largest = left;
      for (let t = j; t < sizes.length; t++) {
        if (t === removed) continue;
        value = step(value, sizes[t]);
        largest = sizes[t];
      }
      const s = score(value, largest);
      if (lowest === null || s < lowest || (s === lowest && (n < bestSize || (n === bestSize && c < best[1])))) {
        lowest = s;
        bestSize = n;
        best = [i, c];
      }
    }
  }
  return [[best[0], best[1], 1]];
}

// How many of the ascending sizes are below x.
function lowerBound(sizes, x) {
  let low = 0;
  let high = sizes.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sizes[mid] < x) low = mid + 1;
    else high = mid;
  }
  return low;
}

globalThis.nimScore = function nimScore(piles) {
  return positionScore(checkPiles(piles, "piles")).toString();
};
