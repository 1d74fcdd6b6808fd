"""The web page's side of nim_evo: strategies as JavaScript (:mod:`~nim_evo.web.translate`),
for a self-contained page that plays an exported champion against a person."""
