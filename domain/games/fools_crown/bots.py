"""Computer opponents (placeholder, replaced below)."""
BOTS = {}
