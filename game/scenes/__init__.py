"""Client scenes: the table scene and one panel per engine phase (bid, trump, bury, play,
settle), plus the pieces they share (hand widget, animations, heads-up display)."""
