"""Business rules: leads, mail, login, trial. Pages, state and API routes call these."""
