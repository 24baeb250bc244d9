// Renders assets/carousel.jsx's TestimonialCarousel once in Bun, without React or a browser: React
// is a stand-in (state keeps its first value, effects do not run), so this is the first render,
// the one prerendered into the page. Prints the element tree as JSON (event handlers dropped).
// argv: the path of carousel.jsx, then its props (JSON, camelCase as Reflex passes them).
// Used by tests/test_recipes.py (a testimonial and an autoplay interval added in a copy).
import { plugin } from "bun";

plugin({
  name: "react stand-ins",
  setup(build) {
    const react = {
      useEffect: () => undefined,
      useRef: (current) => ({ current }),
      useState: (initial) => [initial, () => undefined],
    };
    // Keyed children and fragments flattened: what a browser would show.
    const element = (type, props, key) => ({ type, props, key });
    build.module("react", () => ({ exports: react, loader: "object" }));
    build.module("react/jsx-dev-runtime", () => ({ exports: { jsxDEV: element, Fragment: "fragment" }, loader: "object" }));
    build.module("react/jsx-runtime", () => ({ exports: { jsx: element, jsxs: element, Fragment: "fragment" }, loader: "object" }));
  },
});

const carousel = await import(process.argv[2]);
const tree = carousel.TestimonialCarousel(JSON.parse(process.argv[3]));
console.log(JSON.stringify(tree, (key, value) => (typeof value === "function" ? undefined : value)));
