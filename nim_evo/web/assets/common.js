// What every kind shares: the checks on the piles given, the move count, shortest and
// longest pile as nim_evo's boards module picks them, and Python's integer modulo.
// RULES ({maxTake, misere}), LIMITS and GENES are defined above this text.

function checkPiles(piles, what) {
  if (!Array.isArray(piles) || piles.length === 0) {
    throw new TypeError(`${what} must be a non-empty array of pile sizes`);
  }
  for (const n of piles) {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new TypeError(`${what} must hold whole numbers from 0 to 2^53-1, got ${n}`);
    }
  }
  return piles;
}

// How many objects a move may take from a pile of n (the cap, or all of it).
function takesFrom(n) {
  return RULES.maxTake === null ? n : Math.min(n, RULES.maxTake);
}

// Python's GenomeAgent refuses boards of more than LIMITS.maxListedMoves moves.
function checkListable(board) {
  let count = 0;
  for (const n of board) count += takesFrom(n);
  if (count > LIMITS.maxListedMoves) {
    throw new RangeError(`a board of ${count} moves is too big for this genome ` +
                         `(at most ${LIMITS.maxListedMoves}): smaller piles or a cap`);
  }
}

// Every legal [pile, count], by pile, then by count.
function legalMoves(piles) {
  const moves = [];
  piles.forEach((n, i) => {
    for (let c = 1; c <= takesFrom(n); c++) moves.push([i, c]);
  });
  return moves;
}

// The shortest non-empty pile (the first on ties).
function shortestPile(piles) {
  let best = -1;
  piles.forEach((n, i) => {
    if (n > 0 && (best < 0 || n < piles[best])) best = i;
  });
  return best;
}

// The longest pile (the first on ties).
function longestPile(piles) {
  let best = 0;
  piles.forEach((n, i) => {
    if (n > piles[best]) best = i;
  });
  return best;
}

// Python's x % y on BigInts: the result takes the sign of the divisor.
function pyMod(x, y) {
  const r = x % y;
  return r !== 0n && (r < 0n) !== (y < 0n) ? r + y : r;
}
