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
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CLIENT_ID = "virtual:site-dev-client";
const RESOLVED_CLIENT_ID = "\0" + CLIENT_ID;
const CLIENT_FILE = fileURLToPath(new URL("./dev_client.js", import.meta.url));
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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
  const prefixes = JSON.parse(environment.SITE_DEV_BACKEND_PATHS || "[]");
  let status = { level: "ok", text: "" };
  const openPages = new Map(); // HMR client -> decoded path

  return [
    {
      name: "marketing-site-dev-loop",
      apply: "serve",
      config() {
        if (!prefixes.length) return {};
        const pattern = "^(" + prefixes.map(escapeRegExp).join("|") + ")";
        return { server: { proxy: { [pattern]: { target: backend, ws: true, changeOrigin: false } } } };
      },
      configureServer(server) {
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
