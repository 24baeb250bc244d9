"""Server-side Reflex states, one module per concern."""
