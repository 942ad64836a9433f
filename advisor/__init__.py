"""advisor: network-tuning advisor and configuration auditor for virtualized hosts."""

__version__ = "0.1.0"
