"""Reports: the results model, the score, and the renderers."""
