"""Reports and their output. In: plain data (no engine types). Out: `Report`/`TraceNote`,
text, JSON and SARIF writers, and fingerprints."""
