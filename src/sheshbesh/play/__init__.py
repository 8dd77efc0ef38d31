"""One game or match as a pure state machine: turns, cube, clocks, fair dice, records."""
