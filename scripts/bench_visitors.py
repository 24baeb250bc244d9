"""Simultaneous visitors, loading pages the way a browser does (a benchmark: it prints, never fails).

    .venv/bin/python scripts/bench_visitors.py [--visitors 200 1000 2000] [--workers 2] [--redis-url URL]

The production build (`make build` first) behind `deploy/nginx/nereo.conf` (our own nginx
process on loopback, as tests/test_nginx.py runs it) and the site's backend (`reflex run
--env prod --backend-only`, --workers processes, Reflex's Redis state manager when Redis
answers at --redis-url). For each N, N visitors arrive at once, each over its own HTTPS
connection (HTTP/2, as a browser talks to nginx), each on one page of the mix:

- the page's HTML, then everything Chromium requested from the site when it loaded that page
  (scripts, stylesheets, images, the manifest, and the audience beacon POSTed to the backend:
  recorded once per page with Playwright);
- "logged in": the same, with a session cookie and the login marker, and then the state
  websocket as Reflex's client opens it (Engine.IO over a websocket through nginx, the
  hydrate event in the CONNECT packet); the visit ends when the page is hydrated
  (`is_hydrated` true, after the page's on_load);
- "logged in, HTML and websocket only": the same without the page's files, so that the load
  generator (Python, on the same cores) is least busy while the backend hydrates;
- "anonymous, every view hydrating": what every anonymous page view cost before
  frontend_build.py's connection policy (the same websocket without a session).

Rows: anonymous visitors through nginx with the backend running; the same files from nginx with
no backend behind it (the limit: a second nginx on the same files, run right after the
anonymous row); logged-in visitors; anonymous visitors hydrating as before.
Columns: page views per second (N over the time from the first request to the last visit's
end), p50 and p95 of a visit, p95 of its hydration alone (from opening the websocket to the
hydrated page: what the backend adds to a visit that connects), failed visits, the backend's CPU seconds during the row and the
resident memory of its processes before and after (all processes of the backend: supervisor
and workers; on Redis, the state lives in Redis). The load generator runs on the same two
cores as nginx and the backend: compare rows of one run, not runs of different days.

The page mix is every public page that needs nothing from the backend to load (the demo pages'
scheduler asks the API for its slots, the stateful pages connect by design: both left out),
so the nginx-only row loads exactly the same files.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx2
import wsproto
import wsproto.events
import wsproto.utilities

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from servers import BIN, NginxProxy, SiteServer, free_port

from marketing_site import routes

BUILD = ROOT / ".web" / "build" / "client"
STATE = "reflex___state____state"
CLK_TCK = os.sysconf("SC_CLK_TCK")


def page_mix() -> list[str]:
    skip = {routes.DEMO.key}
    return [
        p
        for p in routes.all_paths()
        if not routes.page_for_path(p).stateful and routes.page_for_path(p).key not in skip
    ]


# -- the backend's processes --------------------------------------------------------------------


def _tree(pid: int) -> list[int]:
    pids, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            children = (task / "children").read_text().split() if (task / "children").exists() else []
            for child in map(int, children):
                if child not in pids:
                    pids.append(child)
                    frontier.append(child)
    return pids


# The Redis the state manager uses, if any: where the states of connected visitors live.
REDIS_URL: str | None = None


def redis_mb() -> float | None:
    if REDIS_URL is None:
        return None
    import redis

    return redis.Redis.from_url(REDIS_URL).info("memory")["used_memory"] / 2**20


def usage(pid: int) -> tuple[float, float, float | None]:
    """CPU seconds and resident MB of a process tree, and Redis's used memory (MB)."""
    cpu = rss = 0.0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / CLK_TCK
            rss += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
    return cpu, rss, redis_mb()


# -- what a page view requests ------------------------------------------------------------------


# One request a page view makes: method, path and body (the audience beacon is a POST).
Request = tuple[str, str, bytes | None]


def record_requests(origin: str, paths: list[str]) -> dict[str, list[Request]]:
    """Every same-origin request Chromium makes when loading each page (the document excepted),
    the audience beacon among them."""
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    recorded: dict[str, list[Request]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(ignore_https_errors=True)
        for path in paths:
            page = context.new_page()
            seen: list[Request] = []
            page.on(
                "request",
                lambda r, seen=seen: (
                    seen.append((r.method, r.url, r.post_data_buffer)) if r.url.startswith(origin) else None
                ),
            )
            page.goto(origin + quote(path, safe="/"))
            page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")
            page.wait_for_timeout(300)
            document = origin + quote(path, safe="/")
            unique = {(method, url): body for method, url, body in seen if url != document}
            recorded[path] = [(method, url.removeprefix(origin), body) for (method, url), body in unique.items()]
            page.close()
        browser.close()
    return recorded


# -- a visitor ----------------------------------------------------------------------------------


async def hydrate(origin: str, path: str, cookies: str, tls: ssl.SSLContext) -> None:
    """Reflex's client connecting: Engine.IO over a websocket, the hydrate event in CONNECT."""
    host, port = urlsplit(origin).hostname, urlsplit(origin).port
    tls = _tls(["http/1.1"])  # a websocket over HTTP/1.1 (httpx2 sets h2 on the contexts it gets)
    reader, writer = await asyncio.open_connection(host, port, ssl=tls, server_hostname=host)
    ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
    target = f"/_event/?EIO=4&transport=websocket&token={uuid.uuid4()}"
    headers = [(b"origin", origin.encode())] + ([(b"cookie", cookies.encode())] if cookies else [])
    writer.write(ws.send(wsproto.events.Request(host=f"{host}:{port}", target=target, extra_headers=headers)))
    boot = {
        "event": {"name": f"{STATE}.hydrate_and_load", "payload": {}, "router_data": {"pathname": path, "asPath": path}}
    }
    authenticated = not cookies  # a logged-in visitor's hydrate must say so
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                raise ConnectionError("closed before hydration")
            try:
                ws.receive_data(data)
                events = list(ws.events())
            except wsproto.utilities.RemoteProtocolError as error:
                raise ConnectionError(f"{error}: {data[:300]!r}") from error
            for event in events:
                if isinstance(event, wsproto.events.AcceptConnection):
                    continue
                if isinstance(event, wsproto.events.TextMessage):
                    text = event.data
                    if text.startswith("0"):  # Engine.IO open: connect the namespace
                        writer.write(ws.send(wsproto.events.TextMessage("40/_event," + json.dumps(boot))))
                    elif text == "2":
                        writer.write(ws.send(wsproto.events.TextMessage("3")))
                    elif text.startswith("42/_event,") and '"isAuthenticated_rx_state_":true' in text:
                        authenticated = True
                    if text.startswith("42/_event,") and '"is_hydrated_rx_state_":true' in text:
                        if not authenticated:
                            raise ConnectionError("hydrated without the session's login state")
                        writer.write(ws.send(wsproto.events.CloseConnection(code=1000)))
                        return
                elif isinstance(event, wsproto.events.CloseConnection | wsproto.events.RejectConnection):
                    raise ConnectionError(f"websocket refused or closed: {event}")
            await writer.drain()
    finally:
        writer.close()


async def fetch(client: httpx2.AsyncClient, url: str, method: str = "GET", body: bytes | None = None) -> None:
    """One request, its body read as sent (the load generator does not decompress it)."""
    headers = {"content-type": "text/plain;charset=UTF-8"} if body is not None else None
    async with client.stream(method, url, content=body, headers=headers) as response:
        response.raise_for_status()
        async for _ in response.aiter_raw():
            pass


async def visit(origin, path, assets, *, cookies, connect, start, tls) -> tuple[float, float | None]:
    """(the whole visit, its hydration alone: the websocket from connecting to is_hydrated)."""
    await start.wait()
    began = time.perf_counter()
    headers = {"accept-encoding": "gzip, deflate, br", **({"cookie": cookies} if cookies else {})}
    async with httpx2.AsyncClient(http2=True, verify=tls, timeout=120, headers=headers) as client:
        await asyncio.gather(fetch(client, origin + quote(path, safe="/")))
        await asyncio.gather(*(fetch(client, origin + asset, method, body) for method, asset, body in assets))
    hydration = None
    if connect:
        connecting = time.perf_counter()
        await hydrate(origin, path, cookies, tls)
        hydration = time.perf_counter() - connecting
    return time.perf_counter() - began, hydration


def _tls(alpn: list[str] | None = None) -> ssl.SSLContext:
    """The proxy's throwaway certificate is not checked."""
    tls = ssl.create_default_context()
    tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    if alpn:
        tls.set_alpn_protocols(alpn)
    return tls


async def crowd(origin, n, recorded, *, cookies=None, connect=False) -> tuple[list[tuple], int, float]:
    tls = _tls()
    paths = list(recorded)
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(
            visit(
                origin,
                paths[i % len(paths)],
                recorded[paths[i % len(paths)]],
                cookies=cookies[i] if cookies else None,
                connect=connect,
                start=start,
                tls=tls,
            )
        )
        for i in range(n)
    ]
    await asyncio.sleep(0.2)
    began = time.perf_counter()
    start.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - began
    times = [r for r in results if isinstance(r, tuple)]
    failures = [r for r in results if not isinstance(r, tuple)]
    if failures:
        import traceback

        print(f"    {len(failures)} failed, first: {failures[0]!r}", file=sys.stderr)
        if os.environ.get("BENCH_DEBUG"):
            traceback.print_exception(failures[0])
    return times, len(failures), wall


# -- the run ------------------------------------------------------------------------------------


def logged_in_cookies(n: int) -> list[str]:
    """N live sessions in the site's database (as the login callback stores them)."""
    from marketing_site import settings
    from marketing_site.services import sessions

    settings.get_settings.cache_clear()
    claims = {
        "sub": "bench@example.test",
        "email": "bench@example.test",
        "given_name": "Bench",
        "family_name": "Reader",
    }
    tokens = sessions.Tokens(
        id_token="id", access_token="access", refresh_token=None, access_expires_at=time.time() + 86400
    )
    return [
        f"{sessions.SESSION_COOKIE}={sessions.create_session(claims, tokens)}; {sessions.MARKER_COOKIE}=true"
        for _ in range(n)
    ]


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18] if len(values) >= 20 else max(values, default=float("nan"))


def row(name: str, n: int, result, backend_pid: int | None, before) -> dict:
    visits, failed, wall = result
    times = [total for total, _ in visits]
    hydrations = [h for _, h in visits if h is not None]
    after = usage(backend_pid) if backend_pid else (0.0, 0.0, None)
    print(f"  {n} {name}: {len(times) / wall if wall else 0:.0f} views/s, {failed} failed", flush=True)
    return {
        "row": name,
        "n": n,
        "views_s": len(times) / wall if wall else 0.0,
        "p50": statistics.median(times) if times else float("nan"),
        "p95": _p95(times),
        "hydration_p95": _p95(hydrations) if hydrations else None,
        "failed": failed,
        "cpu_s": after[0] - before[0] if backend_pid else None,
        "mem_before": before[1] if backend_pid else None,
        "mem_after": after[1] if backend_pid else None,
        "redis": (before[2], after[2]) if backend_pid and after[2] is not None else None,
    }


def print_table(rows: list[dict]) -> None:
    head = f"{'visitors':>8}  {'row':<44} {'views/s':>8} {'p50 s':>7} {'p95 s':>7} {'hydr. p95 s':>11} {'failed':>6} {'backend CPU s':>13} {'backend MB before → after':>26}"
    print(head)
    print("-" * len(head))
    for r in rows:
        cpu = f"{r['cpu_s']:.1f}" if r["cpu_s"] is not None else "—"
        mem = f"{r['mem_before']:.0f} → {r['mem_after']:.0f}" if r["mem_before"] is not None else "no backend"
        if r.get("redis"):
            mem += f" (Redis {r['redis'][0]:.1f} → {r['redis'][1]:.1f})"
        hydration = f"{r['hydration_p95']:.2f}" if r["hydration_p95"] is not None else "—"
        print(
            f"{r['n']:>8}  {r['row']:<44} {r['views_s']:>8.0f} {r['p50']:>7.2f} {r['p95']:>7.2f} {hydration:>11} {r['failed']:>6} {cpu:>13} {mem:>26}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--visitors", type=int, nargs="+", default=[200, 1000, 2000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--redis-url", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--skip-before", action="store_true", help="leave out the 'hydrating as before' row")
    args = parser.parse_args()
    if not (BUILD / "exact-paths.json").exists():
        print("no production build: run `make build` first", file=sys.stderr)
        return 2

    work = Path(tempfile.mkdtemp(prefix="bench-visitors-"))
    proxy_port = free_port()
    origin = f"https://127.0.0.1:{proxy_port}"
    settings = {
        "SITE_URL": origin,
        "SESSION_SECRET": secrets.token_urlsafe(32),
        "LOG_LEVEL": "WARNING",
        # A crowd comes from many addresses; this one comes from one: every beacon is counted.
        "AUDIENCE_RATE_LIMIT_PER_MINUTE": "1000000",
    }
    redis = None
    try:
        import redis as redis_lib

        redis_lib.Redis.from_url(args.redis_url).ping()
        redis = args.redis_url
        settings |= {"REFLEX_REDIS_URL": redis, "REDIS_KEY_PREFIX": f"bench:{time.time_ns()}:"}
        global REDIS_URL  # noqa: PLW0603 - set once, before any measurement
        REDIS_URL = redis
    except Exception as error:  # noqa: BLE001 - any failure means: no Redis here
        print(f"Redis not reachable at {args.redis_url} ({error}): state in the worker, one worker", file=sys.stderr)
        args.workers = 1
    app = SiteServer(free_port(), work, None, workers=args.workers, **settings)
    for key in ("DATABASE_URL", "SESSION_SECRET"):
        os.environ[key] = app.env[key]
    maps = work / "maps"
    subprocess.run(
        [str(BIN / "python"), "scripts/nginx_maps.py", "--build", str(BUILD), "--out", str(maps)],
        cwd=ROOT,
        env=app.env,
        check=True,
        capture_output=True,
    )
    # Two proxies on the same files: one in front of the backend, one in front of nothing (a
    # port no one listens on), so that each N's anonymous row and the limit run back to back,
    # under the same load of this shared machine.
    proxy = NginxProxy(work, BUILD, maps, f"127.0.0.1:{app.port}", port=proxy_port)
    alone = NginxProxy(work, BUILD, maps, f"127.0.0.1:{free_port()}")
    for each in (proxy, alone):
        each.write_config()
        # As a production proxy: one worker per core and room for every visitor's connection.
        conf = each.conf.read_text().replace("worker_processes 1;", "worker_processes auto;")
        each.conf.write_text(conf.replace("worker_connections 256;", "worker_connections 8192;"))
    app.migrate()
    app.start()
    proxy.start()
    alone.start()
    rows: list[dict] = []
    try:
        mix = page_mix()
        recorded = record_requests(origin, mix)
        assets = sum(len(v) for v in recorded.values()) / len(recorded)
        # The limit row loads the same files; the beacon is the backend's (nginx alone has none).
        files = {path: [r for r in requests if r[0] == "GET"] for path, requests in recorded.items()}
        beacons = sum(len(recorded[p]) - len(files[p]) for p in recorded)
        # The logged-in visit without its files: the hydration with the load generator least busy.
        bare: dict[str, list[Request]] = {path: [] for path in recorded}
        print(
            f"page mix: {len(mix)} pages, {assets:.1f} requests after the HTML on average ({beacons} of "
            f"{sum(map(len, recorded.values()))} are audience beacons, POSTed to the backend); backend workers: "
            f"{args.workers}, state manager: {'Redis' if redis else 'disk (in the worker)'}"
        )
        pid = app.proc.pid
        for n in args.visitors:
            cookies = logged_in_cookies(n)
            time.sleep(2)
            before = usage(pid)
            rows.append(row("anonymous, through nginx", n, asyncio.run(crowd(origin, n, recorded)), pid, before))
            time.sleep(2)
            rows.append(
                row("nginx alone, no backend (the limit)", n, asyncio.run(crowd(alone.origin, n, files)), None, None)
            )
            time.sleep(2)
            before = usage(pid)
            rows.append(
                row(
                    "logged in (websocket, hydrated)",
                    n,
                    asyncio.run(crowd(origin, n, recorded, cookies=cookies, connect=True)),
                    pid,
                    before,
                )
            )
            time.sleep(2)
            before = usage(pid)
            rows.append(
                row(
                    "logged in, HTML and websocket only",
                    n,
                    asyncio.run(crowd(origin, n, bare, cookies=logged_in_cookies(n), connect=True)),
                    pid,
                    before,
                )
            )
            if not args.skip_before:
                time.sleep(2)
                before = usage(pid)
                rows.append(
                    row(
                        "anonymous, every view hydrating (before)",
                        n,
                        asyncio.run(crowd(origin, n, recorded, connect=True)),
                        pid,
                        before,
                    )
                )
    finally:
        alone.stop()
        proxy.stop()
        app.stop()
    rows.sort(
        key=lambda r: (
            r["n"],
            ["anonymous, through nginx", "nginx alone, no backend (the limit)"].index(r["row"])
            if r["row"] in ("anonymous, through nginx", "nginx alone, no backend (the limit)")
            else 2,
        )
    )
    print_table(rows)
    for n in args.visitors:
        by = {r["row"]: r for r in rows if r["n"] == n}
        anonymous, limit = by["anonymous, through nginx"], by["nginx alone, no backend (the limit)"]
        print(
            f"{n} visitors: anonymous at {anonymous['views_s'] / limit['views_s']:.2f} × the limit; "
            f"backend memory {anonymous['mem_after'] - anonymous['mem_before']:+.1f} MB over the anonymous row"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
