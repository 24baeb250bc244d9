// The development loop's side of the Vite dev server (marketing_site/devloop/, `make dev`).
// Only when the loop starts Vite (SITE_DEV_BACKEND set); never in a build.
//
// - The backend answers behind the dev server's own address, as behind nginx in production:
//   the JSON API, the login routes, the files and Reflex's websocket are proxied to it, so a
//   page talks to its own backend whatever the ports (two copies side by side).
// - /__site_dev/status (POST, from the loop, loopback only): the loop's message, shown in every
//   open tab by dev_client.js; a tab that connects later gets the last one.
// - /__site_dev/pages (GET): the paths open in a tab, which the loop compiles first.
// - /__site_dev/reload (POST): the open tabs load again (an image or a linked file changed).
// - /__site_dev/ready (POST): on a fresh clone the loop starts the dev server while it imports
//   the app (SITE_DEV_HOLD=1); requests wait until the first pages are compiled and the home
//   page renders (the loop's probe, `X-Site-Dev-Probe`, passes; React Router takes in the new
//   route files a moment after they are written), so a tab opened early gets the home page.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CLIENT_ID = "virtual:site-dev-client";
const RESOLVED_CLIENT_ID = "\0" + CLIENT_ID;
const CLIENT_FILE = fileURLToPath(new URL("./dev_client.js", import.meta.url));
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// React Router's type generation (@react-router/dev 8.4, typegen's `watch`) answers each route
// file added or removed with a rewrite of `.react-router/types` that nothing awaits: with two in
// flight, one removes the folder while the other writes into it, and the ENOENT, never caught,
// stopped the dev server (a fresh clone adds its routes one after another; seen in
// `make bench-dev`). The types are for TypeScript projects: Reflex's app reads none. That one
// rejection is let go; any other still stops the server, as it would without this handler.
const TYPES_FOLDER = /[\\/]\.react-router[\\/]types[\\/]/;

export function isTheTypegenRace(reason) {
  return Boolean(reason) && reason.code === "ENOENT" && TYPES_FOLDER.test(String(reason.path || ""));
}

let typegenRaceGuarded = false;

function guardAgainstTheTypegenRace() {
  if (typegenRaceGuarded) return;
  typegenRaceGuarded = true;
  process.on("unhandledRejection", (reason) => {
    if (isTheTypegenRace(reason)) return;
    console.error(reason);
    process.exit(1);
  });
}

// The loop starts the dev server in a session of its own, and stops it when it stops; killed
// (SIGKILL, a crash), the loop cannot, and the server kept its port and held its requests: it
// stops once the loop's process is gone.
const LOOP_CHECK_MS = 2000;

function stopWithTheLoop(pid) {
  if (!pid) return;
  setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (error.code !== "ESRCH") return;
      console.error(`make dev (process ${pid}) is gone: the dev server stops too.`);
      process.exit(0);
    }
  }, LOOP_CHECK_MS).unref();
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf-8")));
    req.on("error", reject);
  });
}

export default function siteDevLoop(environment = process.env) {
  const backend = environment.SITE_DEV_BACKEND;
  if (!backend) return [];
  guardAgainstTheTypegenRace();
  stopWithTheLoop(Number(environment.SITE_DEV_LOOP_PID));
  const prefixes = JSON.parse(environment.SITE_DEV_BACKEND_PATHS || "[]");
  let status = { level: "ok", text: "" };
  // Ready when not held, or when the loop's manifest is there (a dev server that restarted).
  let ready = environment.SITE_DEV_HOLD !== "1" || existsSync(`${process.cwd()}/.devloop.json`);
  const held = [];
  const warmup = JSON.parse(environment.SITE_DEV_WARMUP || "{}");
  let warmedAgain = false;
  const openPages = new Map(); // HMR client -> decoded path

  return [
    {
      name: "marketing-site-dev-loop",
      apply: "serve",
      config() {
        // The home page's modules, transformed as the server starts (dev_compile.warmup_files).
        const server = { warmup };
        if (prefixes.length) {
          const pattern = "^(" + prefixes.map(escapeRegExp).join("|") + ")";
          server.proxy = { [pattern]: { target: backend, ws: true, changeOrigin: false } };
        }
        // The packages every page's frame imports, optimised as the server starts: found only
        // when a fresh clone's first page is crawled, they were optimised then, and the tab
        // loaded again (dev_compile.FRAME_PACKAGES).
        const include = JSON.parse(environment.SITE_DEV_OPTIMIZE || "[]");
        return { server, optimizeDeps: { include } };
      },
      configureServer(server) {
        server.middlewares.use((req, res, next) => {
          const probe = req.headers["x-site-dev-probe"] && LOOPBACK.has(req.socket.remoteAddress);
          if (probe && !warmedAgain) {
            // The first compile has replaced the placeholders warmed at the start: the home
            // page's real modules, transformed while the held tab waits.
            warmedAgain = true;
            for (const [files, name] of [[warmup.clientFiles, "client"], [warmup.ssrFiles, "ssr"]]) {
              for (const file of files || []) server.environments[name].warmupRequest(`/${file}`);
            }
          }
          if (ready || probe || req.url.startsWith("/__site_dev/")) next();
          else held.push(next);
        });
        server.middlewares.use("/__site_dev", async (req, res) => {
          if (!LOOPBACK.has(req.socket.remoteAddress)) {
            res.statusCode = 403;
            res.end();
            return;
          }
          if (req.method === "POST" && req.url === "/status") {
            status = JSON.parse(await readBody(req));
            server.ws.send("site-dev:status", status);
            res.end("{}");
          } else if (req.method === "POST" && req.url === "/ready") {
            ready = true;
            for (const release of held.splice(0)) release();
            res.end("{}");
          } else if (req.method === "POST" && req.url === "/reload") {
            server.ws.send({ type: "full-reload", path: "*" });
            res.end("{}");
          } else if (req.method === "GET" && req.url === "/pages") {
            for (const client of openPages.keys()) {
              if (client.socket && client.socket.readyState > 1) openPages.delete(client);
            }
            res.setHeader("content-type", "application/json");
            res.end(JSON.stringify([...new Set(openPages.values())]));
          } else {
            res.statusCode = 404;
            res.end();
          }
        });
        server.ws.on("site-dev:page", (data, client) => {
          openPages.set(client, String(data && data.path));
          client.send("site-dev:status", status);
        });
      },
      resolveId(id) {
        return id === CLIENT_ID ? RESOLVED_CLIENT_ID : null;
      },
      load(id) {
        return id === RESOLVED_CLIENT_ID ? readFileSync(CLIENT_FILE, "utf-8") : null;
      },
      transform(code, id) {
        if (!id.endsWith("/app/entry.client.js")) return null;
        return { code: `import "${CLIENT_ID}";\n${code}`, map: null };
      },
    },
  ];
}
