"""Shared building blocks: layout frame, navbar, footer, links, client-side widgets."""
