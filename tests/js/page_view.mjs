// Renders assets/site_ui.jsx's PageFrame once in Bun, without React or a browser: React and
// React Router are stand-ins whose effects run at once, and the browser globals are those of
// the scenario (JSON, argv[3]). Prints what the page did: the beacons it sent, whether it
// refused measurement and the attribution a lead form would send with its fields.
// Used by tests/test_audience_signals.py.
import { plugin } from "bun";

const noop = () => undefined;
plugin({
  name: "react stand-ins",
  setup(build) {
    const react = {
      Children: { toArray: (c) => [c] },
      createElement: noop,
      useEffect: (effect) => effect(),
      useId: () => "id",
      useRef: (current) => ({ current }),
      useState: (initial) => [typeof initial === "function" ? initial() : initial, noop],
      useSyncExternalStore: noop,
    };
    const element = (type, props) => ({ type, props });
    build.module("react", () => ({ exports: react, loader: "object" }));
    build.module("react-router", () => ({
      exports: { useLocation: () => ({ pathname: globalThis.location.pathname }), useNavigate: () => noop },
      loader: "object",
    }));
    build.module("react/jsx-dev-runtime", () => ({ exports: { jsxDEV: element, Fragment: "fragment" }, loader: "object" }));
    build.module("react/jsx-runtime", () => ({ exports: { jsx: element, jsxs: element, Fragment: "fragment" }, loader: "object" }));
  },
});

const scenario = JSON.parse(process.argv[3]);
const beacons = [];
const navigatorStandIn = { ...scenario.navigator, sendBeacon: (url, body) => beacons.push({ url, body: JSON.parse(body) }) };
Object.defineProperty(globalThis, "navigator", { value: navigatorStandIn, configurable: true });
globalThis.window = globalThis;
if ("windowDoNotTrack" in scenario) globalThis.doNotTrack = scenario.windowDoNotTrack;
const stored = new Map(Object.entries(scenario.storage || {}));
globalThis.localStorage = scenario.storageBlocked
  ? { getItem: () => { throw new Error("SecurityError"); } }
  : { getItem: (key) => (stored.has(key) ? stored.get(key) : null) };
globalThis.innerWidth = 1280;
globalThis.scrollTo = noop;
globalThis.location = { search: "?utm_source=news&utm_campaign=kyc", pathname: "/fr/page", hostname: "www.nereo.example", hash: "" };
globalThis.document = { referrer: "https://search.example/q?x=1", documentElement: {}, getElementById: () => null };

const ui = await import(process.argv[2]);
ui.PageFrame({ lang: "fr", children: null });
console.log(JSON.stringify({ beacons, refused: ui.measurementRefused(), attribution: ui.visitAttribution() }));
