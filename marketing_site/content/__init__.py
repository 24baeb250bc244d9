"""Page copy and data, kept apart from layout code.

Each module holds the words of one page (or of the shared layout) keyed by language:
`FR` and `EN` dicts with the same keys. Pages only arrange what they find here.
"""
