// Runs marketing_site/reflex_internals/client_state.js in Node, with stand-ins for the browser
// (the document's <html>, localStorage and sessionStorage, which may refuse) and for React (the
// hook's effect runs at once). Used by tests/test_client_state.py.
// argv: the path of client_state.js, the setup (JSON: attributes, stores, refuse, now), the
// steps (JSON list: {op: "gate", specs, now} | {op: "set", spec, value} | {op: "load", spec}; a
// step's `localStorage` replaces that store's contents first).
// Prints {attributes, stores, calls, snapshots}: a snapshot of <html>'s attributes after each step.
import { readFileSync } from "node:fs";

const [path, setupJson, stepsJson] = process.argv.slice(2);
const setup = JSON.parse(setupJson);
const attributes = { ...(setup.attributes || {}) };
const stores = { localStorage: {}, sessionStorage: {}, ...(setup.stores || {}) };

function storage(name) {
  return {
    getItem(key) {
      if (setup.refuse) throw new Error("storage refused");
      return key in stores[name] ? stores[name][key] : null;
    },
    setItem(key, value) {
      if (setup.refuse) throw new Error("storage refused");
      stores[name][key] = String(value);
    },
  };
}

globalThis.window = { localStorage: storage("localStorage"), sessionStorage: storage("sessionStorage") };
globalThis.document = {
  documentElement: {
    setAttribute(name, value) {
      attributes[name] = String(value);
    },
    getAttribute(name) {
      return name in attributes ? attributes[name] : null;
    },
  },
};
if (setup.now !== undefined) Date.now = () => setup.now;

const source = readFileSync(path, "utf8").replace(
  /^import \{ useLayoutEffect \} from "react";$/m,
  "const useLayoutEffect = (effect) => effect();",
);
const module = await import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));
const calls = [];
const snapshots = [];
for (const step of JSON.parse(stepsJson)) {
  if (step.localStorage !== undefined) stores.localStorage = step.localStorage;
  if (step.op === "gate") module.applyClientVars(step.specs, step.now, false);
  if (step.op === "set") module.setClientVar(step.spec, step.value, (value) => calls.push(value));
  if (step.op === "load") module.useClientVar(step.spec, (value) => calls.push(value));
  snapshots.push({ ...attributes });
}
process.stdout.write(JSON.stringify({ attributes, stores, calls, snapshots }));
