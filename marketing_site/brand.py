"""The vendor's fictional brand, kept in one place (the spec never names it)."""

BRAND_NAME = "Nereo"
# The final segment of the demo routes is "demo-" followed by the product's own name.
PRODUCT_SLUG = "nereo"
LEGAL_NAME = "Nereo SAS"
FOUNDED_YEAR = 2020
