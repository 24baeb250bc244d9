"""Draw the Open Graph image of every page (1200×630 JPEG) into assets/og/, and the app icons.

Each card carries the page's own title on the brand's navy and gold, rendered by Chromium
from a small HTML template. Run after changing titles (page keys limit it to those pages):

    .venv/bin/python scripts/make_og_images.py [page_key ...]

The icons of the web app manifest (192 and 512 px) and the apple-touch-icon (180 px) are
the logo drawn at those sizes (assets/icons/app-*.png, seo.APP_ICONS).
"""

from __future__ import annotations

import html
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from marketing_site import routes
from marketing_site.brand import BRAND_NAME
from marketing_site.content.words import words
from marketing_site.seo import APP_ICONS, OG_CARD_SIZE, og_card_path, page_text

LOGO = (ROOT / "assets" / "logo.svg").read_text()
TEMPLATE = """<!doctype html><html><head><meta charset="utf-8"><style>
body{{margin:0;width:1200px;height:630px;font-family:'DejaVu Sans',Arial,sans-serif;
background:linear-gradient(135deg,#0b2545 0%,#13386a 100%);color:#fff;display:flex;flex-direction:column;
justify-content:space-between;padding:72px 80px;box-sizing:border-box}}
.brand{{display:flex;align-items:center;gap:20px;font-size:40px;font-weight:700}}
.brand svg{{width:72px;height:72px}}
h1{{font-size:{size}px;line-height:1.15;margin:0;max-width:1000px}}
.bar{{height:10px;width:180px;background:#b8860b;border-radius:5px}}
p{{font-size:28px;margin:0;color:#dbe4f0}}
</style></head><body><div class="brand">{logo}<span>{brand}</span></div>
<div><div class="bar"></div><h1>{title}</h1></div><p>{tagline}</p></body></html>"""

ICON_TEMPLATE = """<!doctype html><html><head><meta charset="utf-8"><style>
body{{margin:0;background:#0b2545}} svg{{display:block;width:{size}px;height:{size}px}}
</style></head><body>{logo}</body></html>"""


def main() -> int:
    from playwright.sync_api import sync_playwright

    out = ROOT / "assets" / "og"
    out.mkdir(parents=True, exist_ok=True)
    cards = [(page.key, lang) for page in routes.PAGES for lang, _ in page.paths()] + [
        ("not_found", lang) for lang in routes.LANGS
    ]
    only = set(sys.argv[1:])
    if only:
        cards = [(key, lang) for key, lang in cards if key in only]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page(viewport=OG_CARD_SIZE)
        for key, lang in cards:
            title = page_text(key, lang)["title"].split(" | ")[0]
            size = 64 if len(title) < 40 else 52
            tagline = words(lang, "meta.card_tagline")
            page.set_content(
                TEMPLATE.format(
                    logo=LOGO, brand=BRAND_NAME, title=html.escape(title), size=size, tagline=html.escape(tagline)
                )
            )
            target = ROOT / "assets" / og_card_path(key, lang).lstrip("/")
            page.screenshot(path=str(target), type="jpeg", quality=80)
        for path, size in APP_ICONS.items():
            # Edge to edge: the logo's own rounded square on the navy it is drawn with.
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(ICON_TEMPLATE.format(logo=LOGO, size=size))
            page.screenshot(path=str(ROOT / "assets" / path.lstrip("/")), type="png", omit_background=False)
        browser.close()
    print(f"{len(cards)} images in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
