"""Helpers of Benchmarks/compare.py: inputs, measurement, one module per Python engine, and the report."""
