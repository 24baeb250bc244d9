// Runs assets/consent.jsx's ConsentManager once in Bun, without React or a browser: React is a
// stand-in whose effects run at once, the document a stand-in holding the scenario's cookie and
// recording the scripts the banner injects. Then calls window.nereoConsent as the scenario says.
// argv: the path of consent.jsx, then the scenario (JSON): {props, cookie, calls: [[name, arg]]}.
// Prints {scripts: [src injected, in order], has: {purpose: bool}, cookie: the last cookie written,
//         set_cookie: the last cookie written with its attributes, visible: whether the banner asked}.
// The scenario's `protocol` ("https:") is the page's; "http:" unless given.
// Used by tests/test_consent_store.py and tests/test_recipes.py (a purpose added in a copy).
import { plugin } from "bun";

const noop = () => undefined;
let visible = null;
plugin({
  name: "react stand-ins",
  setup(build) {
    const react = {
      createElement: noop,
      useEffect: (effect) => effect(),
      useId: () => "id",
      useRef: (current) => ({ current }),
      // The banner's `visible` is its first state: record what the mount effect sets it to.
      useState: (initial) => {
        const index = react.calls++;
        return [initial, (value) => { if (index === 0) visible = value; }];
      },
      calls: 0,
    };
    const element = (type, props) => ({ type, props });
    build.module("react", () => ({ exports: react, loader: "object" }));
    build.module("react/jsx-dev-runtime", () => ({ exports: { jsxDEV: element, Fragment: "fragment" }, loader: "object" }));
    build.module("react/jsx-runtime", () => ({ exports: { jsx: element, jsxs: element, Fragment: "fragment" }, loader: "object" }));
  },
});

const scenario = JSON.parse(process.argv[3]);
const scripts = [];
let cookie = scenario.cookie || "";
let written = null;
let setCookie = null;
globalThis.window = globalThis;
globalThis.location = { protocol: scenario.protocol || "http:" };
globalThis.document = {
  get cookie() { return cookie; },
  set cookie(value) { setCookie = value; written = value.split(";")[0]; cookie = written; },
  createElement: () => ({}),
  getElementById: () => null,
  head: { appendChild: (script) => scripts.push(script.src) },
  documentElement: { style: {} },
};

const consent = await import(process.argv[2]);
consent.ConsentManager(scenario.props);
for (const [name, arg] of scenario.calls || []) window.nereoConsent[name](arg);
const has = Object.fromEntries(scenario.props.purposes.map((p) => [p.key, window.nereoConsent.has(p.key)]));
console.log(JSON.stringify({ scripts, has, cookie: written, set_cookie: setCookie, visible }));
