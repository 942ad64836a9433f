"""What one command may print, in a live collection and in the collector script alike."""

MAX_OUTPUT_BYTES = 512 << 20  # one command's output; a kstat dump of the largest system is a few hundred MiB
MAX_PER_ITEM_BYTES = 16 << 20  # what a per-interface command may print in all: a few KiB an interface
COMMAND_TIMEOUT_S = 300  # one command's time, unless told otherwise
