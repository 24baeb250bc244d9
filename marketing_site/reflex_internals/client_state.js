// The browser side of the site's client variables (marketing_site/reflex_internals/client_state.py):
// values the browser keeps for the visitor (a closed announcement, a paused carousel) or reads
// from its clock (whether today is inside an announcement's dates), declared in Python.
//
// - `applyClientVars` copies each variable's current value into an attribute of <html>
//   (`data-client-<name>`), where the head's stylesheet reads it. The page's head runs the
//   same function, inlined by client_state.py, before the first paint (its text is fixed at
//   build, so the page's CSP carries its hash): nothing the browser holds shows late.
// - `useClientVar` (a hook of every component that reads a variable) gives React the value
//   the page's <html> holds once the page has hydrated; until then React renders the default,
//   as the prerendered HTML does.
// - `setClientVar` (what a Python event spec `var.set_value(v)` compiles to) keeps a new value
//   in the variable's storage, in <html> and in React's state.
//
// Stored values live in one JSON object per storage area (its key is in
// marketing_site/services/site_storage.py, which the privacy policy's table lists), one
// entry per variable. A value outside the variable's choices is ignored: the default holds.
import { useLayoutEffect } from "react";

// The function's text is inlined in every page's head by client_state.py (from `function`
// to its closing brace at the start of a line): it must stand alone and run in any browser.
export function applyClientVars(specs, now, keepShown) {
  var root = document.documentElement;
  var areas = {};
  function stored(spec) {
    if (!(spec.area in areas)) {
      areas[spec.area] = {};
      try {
        var parsed = JSON.parse(window[spec.area].getItem(spec.key) || "{}");
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) areas[spec.area] = parsed;
      } catch (error) {}
    }
    return areas[spec.area][spec.name];
  }
  function fromToken(spec, token) {
    for (var i = 0; i < spec.choices.length; i++) if (String(spec.choices[i]) === token) return spec.choices[i];
    return undefined;
  }
  var values = {};
  for (var i = 0; i < specs.length; i++) {
    var spec = specs[i];
    var attribute = "data-client-" + spec.attribute;
    var value;
    if (spec.window) {
      value = spec.window[0] <= now && (spec.window[1] === null || now < spec.window[1]);
    } else {
      value = keepShown ? fromToken(spec, root.getAttribute(attribute)) : undefined;
      if (value === undefined) value = stored(spec);
      if (value === undefined || fromToken(spec, String(value)) !== value) value = spec.fallback;
    }
    root.setAttribute(attribute, String(value));
    values[spec.name] = value;
  }
  root.setAttribute("data-client", "");
  return values;
}

// After hydration: React's state takes the value <html> shows (set by the head's script, or by
// a `setClientVar` earlier in this document); a window is read from the clock again.
export function useClientVar(spec, setter) {
  useLayoutEffect(() => {
    setter(applyClientVars([spec], Date.now(), true)[spec.name]);
  }, []);
}

export function setClientVar(spec, value, setter) {
  if (spec.window || !spec.choices.some((choice) => choice === value)) return;
  const area = window[spec.area];
  let stored = {};
  try {
    const parsed = JSON.parse(area.getItem(spec.key) || "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) stored = parsed;
  } catch {}
  stored[spec.name] = value;
  try {
    area.setItem(spec.key, JSON.stringify(stored));
  } catch {
    // Storage refused (full, or blocked by the browser): the page still changes, for this visit.
  }
  document.documentElement.setAttribute("data-client-" + spec.attribute, String(value));
  setter(value);
}
