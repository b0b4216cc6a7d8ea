// JSON reader (being written).
