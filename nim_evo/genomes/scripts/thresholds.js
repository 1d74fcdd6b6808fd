// The probability thresholds (nim_evo/genomes/thresholds.py). GENES.probabilities: the
// chance of each strategy (random, shortest-all, shortest-one, shortest-random,
// longest-all, longest-one, longest-random, nimsum), as Python computed it from the weights.

function distribution(piles, board) {
  checkListable(board);
  const legal = legalMoves(piles);
  const tables = [legal];
  for (const pile of [shortestPile(piles), longestPile(piles)]) {
    tables.push([[pile, takesFrom(piles[pile])]], [[pile, 1]], legal.filter(([i]) => i === pile));
  }
  const winning = winningMoves(piles);
  tables.push(winning.length ? winning : legal);
  const mixed = new Map();
  tables.forEach((moves, s) => {
    const share = 1 / moves.length; // each strategy plays its moves uniformly
    for (const [i, c] of moves) {
      const p = GENES.probabilities[s] * share;
      if (p > 0) {
        const key = `${i} ${c}`;
        const entry = mixed.get(key);
        if (entry) entry[2] += p;
        else mixed.set(key, [i, c, p]);
      }
    }
  });
  return [...mixed.values()];
}

// The moves that leave the opponent lost, as nim_evo.engine.boards.winning_mask finds them.
function winningMoves(piles) {
  if (RULES.misere && RULES.maxTake !== null) {
    return legalMoves(piles).filter(([i, c]) => {
      const child = piles.slice();
      child[i] -= c;
      return !cappedMisereWins(child);
    });
  }
  return winningTakes(piles);
}

// Nim theory without child positions (boards.winning_takes): at most one take per pile.
function winningTakes(piles) {
  const cap = RULES.maxTake === null ? null : BigInt(RULES.maxTake);
  const ns = piles.map(BigInt);
  const grundy = cap === null ? ns : ns.map((n) => n % (cap + 1n));
  let s = 0n;
  for (const g of grundy) s ^= g;
  const big = ns.filter((n) => n > 1n).length;
  const ones = ns.filter((n) => n === 1n).length;
  const moves = [];
  ns.forEach((n, i) => {
    let ok;
    let take;
    if (RULES.misere && big === 1) { // one pile above one: leave an odd number of single piles
      ok = n > 1n;
      take = n - (ones % 2 === 1 ? 0n : 1n);
    } else if (RULES.misere && big === 0) {
      ok = n === 1n && ones % 2 === 0;
      take = 1n;
    } else {
      const target = grundy[i] ^ s;
      take = cap === null ? n - target : pyMod(grundy[i] - target, cap + 1n);
      ok = s !== 0n && take >= 1n && take <= n;
      if (cap !== null) ok = ok && take <= cap && target <= cap;
    }
    if (ok) moves.push([i, Number(take)]);
  });
  return moves;
}

// Does the player to move win, misère with a cap k? (nimtheory.known_wins) With g = n mod (k + 1):
// the player to move loses iff some g >= 2 and the nim-sum of the g is 0, or every g <= 1 and
// an odd number of them are 1: Bouton's misère rule on the residues. (From a lost position
// every move changes one g, so the nim-sum or the parity; from any other, as in Bouton's misère
// Nim, move to one: a residue below g is always reachable, and a heap of g = 0 that is not
// empty holds k + 1 or more, so taking k leaves g = 1.)
function cappedMisereWins(piles) {
  const k1 = BigInt(RULES.maxTake) + 1n;
  let s = 0n;
  let high = false;
  let ones = 0;
  for (const n of piles) {
    const g = BigInt(n) % k1;
    s ^= g;
    if (g >= 2n) high = true;
    if (g === 1n) ones++;
  }
  return high ? s !== 0n : ones % 2 === 0;
}
