"""Getting command outputs: from capture bundles, loose files, Explorer archives."""
