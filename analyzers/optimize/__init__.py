"""The description optimiser (`skillgrade optimize`): rewrite a skill's description until held-out trigger
prompts route correctly, measured with the routing simulation (analyzers/routing.py).

- `split`: the stratified train/test split (fixed seed, at least one of each class in test);
- `measure`: per-prompt pass by majority of runs, precision/recall/F1 with Wilson CIs, the exact paired test,
  the winner rule;
- `rewrite`: the new description written into the frontmatter, everything else byte-identical;
- `improver`: the improver's request (train failures and earlier attempts only) and the candidate's checks;
- `loop`: the measure -> improve loop through the gateway;
- `html`: the self-contained HTML report.
"""
