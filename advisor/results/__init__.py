"""What a review finds: results, findings, plans and host reports, below both the engine that makes them and the views that show them."""
