// The rule dictionary (nim_evo/genomes/ruleset.py). GENES.rules: one [pile, count, period,
// residue] per situation, in the order one_pile, two_piles_one_single, two_piles,
// three_piles_two_equal, n_piles_n_minus_1_equal, otherwise. Pile sizes stay below 2^53,
// so Numbers are exact here (no bitwise operation is needed).

function situation(piles) {
  const live = piles.filter((n) => n > 0);
  const seen = new Map();
  for (const n of live) seen.set(n, (seen.get(n) || 0) + 1);
  const distinct = seen.size;
  let unique = 0;
  for (const times of seen.values()) if (times === 1) unique++;
  const smallest = Math.min(...live);
  if (live.length === 1) return 0;
  if (live.length === 2 && smallest === 1) return 1;
  if (live.length === 2) return 2;
  if (live.length === 3 && distinct === 2) return 3;
  if (live.length >= 4 && distinct === 2 && unique === 1) return 4;
  return 5;
}

// The pile whose non-empty size no other pile shares; the longest if none or several.
function oddOneOut(piles) {
  const times = new Map();
  for (const n of piles) times.set(n, (times.get(n) || 0) + 1);
  let only = -1;
  let count = 0;
  piles.forEach((n, i) => {
    if (n > 0 && times.get(n) === 1) {
      count++;
      if (only < 0) only = i;
    }
  });
  return count === 1 ? only : longestPile(piles);
}

const PILE_CHOICES = [shortestPile, longestPile, oddOneOut];

function distribution(piles, board) {
  const [pileRule, countRule, period, residue] = GENES.rules[situation(piles)];
  const pile = PILE_CHOICES[pileRule](piles);
  const size = piles[pile];
  const low = RULES.maxTake === null ? 0 : Math.max(size - RULES.maxTake, 0);
  let smallestOther = Infinity;
  let largestOther = -1;
  piles.forEach((n, j) => {
    if (j === pile) return;
    if (n > 0 && n < smallestOther) smallestOther = n;
    if (n > largestOther) largestOther = n;
  });
  const high = size - 1;
  const step = Math.max(period, 1);
  // leave by residue: the largest L <= high with L == residue (mod period), or exactly residue
  let leave = period === 0 ? residue : high - (((high - residue) % step) + step) % step;
  if (countRule === 1) leave = smallestOther;
  else if (countRule === 2) leave = largestOther;
  if (!(leave >= low && leave <= high)) leave = high; // out of reach: take one
  return [[pile, size - leave, 1]];
}
