"""Rules and calls to the outside world (identity provider, manager service, storage)."""
