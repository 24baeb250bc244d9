// The site's Vite plugin, added to Reflex's generated vite.config.js by
// marketing_site/frontend_build.py (which says why each change is made).
import { fileURLToPath } from "node:url";
import siteDevLoop from "./dev_plugin.js";

const PLAIN_JSX = fileURLToPath(new URL("./plain_jsx.js", import.meta.url));

// Reflex's speculative websocket warm-up, queued as a microtask at the end of the state
// module's evaluation: it then runs inside the same task as the evaluation of every module.
const WARM_UP_IN_MICROTASK = /(if \(typeof window !== "undefined"\) \{\s*)queueMicrotask\((\(\) => \{\s*if \(\s*socketStarted \|\|)/;

// The places where Reflex's client opens the state websocket without being asked to by an
// event: the warm-up (above), the event loop's mount, a client-side navigation (its on_load
// events) and any queued event. Each is a literal of reflex_base/.templates/web/utils/state.js
// that must occur exactly once; the build stops if one does not.
const CONNECT_ON_MOUNT = "    mounted.current = true;\n    ensureSocketConnected();\n";
const CONNECT_ON_EVENT = "    if (!event_actions?.temporal) {\n      // Reconnect socket if needed for non-temporal events.\n      ensureSocketConnected();\n    }\n";
const LOAD_ON_NAVIGATION = /( {4}\/\/ Equivalent to routeChangeStart - runs when navigation begins\n[\s\S]*?)( {4}addEvents\(app\.onLoadInternalEvent\(\)\);\n)/;
const TOKEN_DECLARATION = "// Global variable to hold the token.\nlet token;\n";

// The decision, in the browser: does this page view need the server's state?
function connectionPolicy(options) {
  return `
// marketing_site/frontend_build.py: an anonymous reader of a public page opens no websocket.
const SITE_STATE_ROUTES = new Set(${JSON.stringify(options.stateRoutes)});
const SITE_STATE_COOKIES = ${JSON.stringify(options.stateCookies)};
const siteNeedsState = (pathname) => {
  const names = document.cookie.split(";").map((pair) => pair.split("=")[0].trim());
  if (SITE_STATE_COOKIES.some((name) => names.includes(name))) return true;
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {}
  if (path.length > 1) path = path.replace(/\\/+$/, "");
  return SITE_STATE_ROUTES.has(path);
};
const siteIsStatefulEvent = (event) =>
  typeof event?.name === "string" && (event.name.startsWith("reflex___state") || event.name === SYNC_LOCAL_STORAGE);
`;
}

function replaceOnce(plugin, code, pattern, replacement, what) {
  const count = typeof pattern === "string" ? code.split(pattern).length - 1 : (code.match(new RegExp(pattern, "g")) || []).length;
  if (count !== 1) {
    plugin.error(`Reflex's state.js changed: ${what} was found ${count} times, not once (marketing_site/frontend_build.py)`);
  }
  // A string pattern is replaced literally ("$" in the replacement is no pattern).
  return typeof pattern === "string" ? code.replace(pattern, () => replacement) : code.replace(pattern, replacement);
}

export function transformState(plugin, code, options) {
  code = replaceOnce(plugin, code, WARM_UP_IN_MICROTASK, "$1setTimeout($2", "the websocket warm-up");
  if (!options.stateRoutes) return code;
  code = replaceOnce(plugin, code, TOKEN_DECLARATION, TOKEN_DECLARATION + connectionPolicy(options), "the token declaration");
  // The warm-up only for a page view that will connect.
  code = replaceOnce(
    plugin,
    code,
    "if (\n      socketStarted ||",
    "if (\n      socketStarted ||\n      !siteNeedsState(window.location.pathname) ||",
    "the warm-up's condition",
  );
  code = replaceOnce(
    plugin,
    code,
    CONNECT_ON_MOUNT,
    "    mounted.current = true;\n    if (siteNeedsState(window.location.pathname)) ensureSocketConnected();\n",
    "the connection on mount",
  );
  // An event connects when it goes to the backend, or when the page already has a socket.
  code = replaceOnce(
    plugin,
    code,
    CONNECT_ON_EVENT,
    "    if (!event_actions?.temporal && (socket.current || _events.some(siteIsStatefulEvent))) {\n      ensureSocketConnected();\n    }\n",
    "the connection on an event",
  );
  // A navigation runs the new page's on_load over an open socket; without one, it connects
  // (the connection's hydrate runs on_load) only when the new page needs state.
  code = replaceOnce(
    plugin,
    code,
    LOAD_ON_NAVIGATION,
    "    if (!socket.current) {\n      if (siteNeedsState(location.pathname)) ensureSocketConnected();\n      prevLocationRef.current = location;\n      return;\n    }\n$1$2",
    "the on_load of a navigation",
  );
  return code;
}

export default function siteFrontend(options = {}) {
  return [
    {
      name: "marketing-site-frontend",
      enforce: "pre",
      resolveId(source) {
        return source === "@emotion/react" ? PLAIN_JSX : null;
      },
      transform(code, id) {
        if (!id.endsWith("/utils/state.js")) return null;
        return { code: transformState(this, code, options), map: null };
      },
    },
    // `make dev` only (the development loop sets SITE_DEV_BACKEND): nothing in a build.
    ...siteDevLoop(),
  ];
}
