"""Puzzle generators and difficulty graders built on :mod:`asterion.solver`."""
