"""Rules as data: loading rule packs and evaluating them against facts."""
