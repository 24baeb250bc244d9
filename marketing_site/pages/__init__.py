"""One package per page. Each exposes `page(lang)` returning the page body."""
