// Sinks (being written).
