"""Helpers of Benchmarks/compare.py: inputs, measurement, one module per Python engine, the update-heavy
phase's upserts, and the report."""
