"""Questions answered about the models: CP-SAT encodings and the exact baselines that check them."""
