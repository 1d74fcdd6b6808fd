"""The game engine, the bottom layer above :mod:`nim_evo.io`: rules, the enumerated spaces
(ordered and multiset), the solver and Nim theory, scalar games, batched moves on pile
arrays, policy tables. Everything else plays on it; it imports nothing above it."""
