// What the compiled pages import as "@emotion/react" (see marketing_site/frontend_build.py).
// Reflex emits `jsx(type, props, ...children)` through Emotion so that a `css` prop becomes
// a generated class at run time; this site styles with its stylesheets only, so `jsx` is
// React's createElement. A `css` prop would be ignored: the build refuses one
// (frontend_build.check_no_runtime_css) before any page ships it.
import { createElement } from "react";

export function jsx(type, props, ...children) {
  return createElement(type, props, ...children);
}
