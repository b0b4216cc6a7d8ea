// drawlist/1 loader (being written).
