"""With BOOKING_URL set, the demo pages keep the external widget: a 630 px frame of that page,
and no built-in scheduler. BOOKING_URL is read when the frontend is built, so this module makes
a second production build (in a web folder of its own, REFLEX_WEB_WORKDIR, ~1 min) and serves it;
the "external" booking page is a loopback HTTP server."""

from __future__ import annotations

import http.server
import threading

import pytest
from servers import SiteServer, build_in_own_web_folder, free_port


class _Calendar(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>Calendar</title><p id=calendar>30-minute demo</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def external_site(workdir):
    calendar = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), _Calendar)
    threading.Thread(target=calendar.serve_forever, daemon=True).start()
    booking_url = f"http://127.0.0.1:{calendar.server_address[1]}/nereo/30min"
    web = workdir / "external-web" / ".web"
    server = SiteServer(free_port(), workdir, BOOKING_URL=booking_url, REFLEX_WEB_WORKDIR=str(web))
    build_in_own_web_folder(server, web)
    server.migrate()
    server.start()
    yield server, booking_url
    server.stop()
    calendar.shutdown()
    calendar.server_close()


@pytest.mark.parametrize("path", ["/demo-nereo", "/en/demo-nereo"])
def test_booking_url_set_keeps_the_630px_frame(path, external_site, new_page, page_errors):
    server, booking_url = external_site
    page = new_page()
    page.goto(server.url + path)
    frame = page.locator("iframe.booking-widget__frame")
    frame.scroll_into_view_if_needed()
    assert frame.get_attribute("src") == booking_url
    assert frame.get_attribute("height") == "630"
    assert frame.evaluate("(node) => node.offsetHeight") == 630
    assert page.frame_locator("iframe.booking-widget__frame").locator("#calendar").inner_text() == "30-minute demo"
    assert page.locator(".booking-scheduler").count() == 0
    assert page_errors == []
