"""Performance benchmarks for the engine, bots and simulator."""
