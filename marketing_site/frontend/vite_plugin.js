// The site's Vite plugin, added to Reflex's generated vite.config.js by
// marketing_site/frontend_build.py (which says why each change is made).
import { fileURLToPath } from "node:url";

const PLAIN_JSX = fileURLToPath(new URL("./plain_jsx.js", import.meta.url));

// Reflex's speculative websocket warm-up, queued as a microtask at the end of the state
// module's evaluation: it then runs inside the same task as the evaluation of every module.
const WARM_UP_IN_MICROTASK = /(if \(typeof window !== "undefined"\) \{\s*)queueMicrotask\((\(\) => \{\s*if \(\s*socketStarted \|\|)/;

export default function siteFrontend() {
  return {
    name: "marketing-site-frontend",
    enforce: "pre",
    resolveId(source) {
      return source === "@emotion/react" ? PLAIN_JSX : null;
    },
    transform(code, id) {
      if (!id.endsWith("/utils/state.js")) return null;
      if (!WARM_UP_IN_MICROTASK.test(code)) {
        this.error("Reflex's state.js changed: the websocket warm-up was not found (marketing_site/frontend_build.py)");
      }
      // A task of its own (a zero-delay timer), still before the app mounts.
      return { code: code.replace(WARM_UP_IN_MICROTASK, "$1setTimeout($2"), map: null };
    },
  };
}
